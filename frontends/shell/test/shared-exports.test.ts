import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const MODULE = path.resolve(__dirname, '..', '..', 'shared-exports.mjs');

/** The share keys of SUBSETS and the names the shell provides of each, as the build computes them. */
function subsets(): Record<string, string[]> {
  const script = `import { SUBSETS, subsetNames } from ${JSON.stringify(MODULE)};
    process.stdout.write(JSON.stringify(Object.fromEntries(Object.keys(SUBSETS).map((k) => [k, subsetNames(k)]))));`;
  return JSON.parse(execFileSync('node', ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

/** Runs importedNames in Node (the module is ESM, as rspack loads it) and returns its answer or error. */
function importedNames(packages: string[], dirs?: string[]): string[] {
  const script = `import { importedNames } from ${JSON.stringify(MODULE)};
    process.stdout.write(JSON.stringify(importedNames(${JSON.stringify(packages)}, ${JSON.stringify(dirs)})));`;
  try {
    return JSON.parse(
      execFileSync('node', ['--input-type=module', '-e', script], { encoding: 'utf8', stdio: 'pipe' }),
    );
  } catch (error) {
    throw new Error((error as { stderr?: string }).stderr ?? String(error));
  }
}

describe('the names the remotes import from a shared package', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'shared-exports-'));
    mkdirSync(path.join(dir, 'pages'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('collects named imports across lines and files, by their exported name, without types', () => {
    writeFileSync(
      path.join(dir, 'a.tsx'),
      `import {\n  Link,\n  useNavigate as go,\n  type NavigateFunction,\n} from 'react-router-dom';\nimport type { Location } from 'react-router';\n`,
    );
    writeFileSync(
      path.join(dir, 'pages', 'b.ts'),
      `import { useParams, Link } from "react-router";\nimport { Button } from '@mantine/core';\n`,
    );
    expect(importedNames(['react-router', 'react-router-dom'], [dir])).toEqual([
      'Link',
      'useNavigate',
      'useParams',
    ]);
  });

  it.each([
    `import * as Router from 'react-router-dom';`,
    `export * from 'react-router-dom';`,
    `const router = await import('react-router-dom');`,
    `import Router from 'react-router-dom';`,
  ])('refuses a use of the whole package: %s', (line) => {
    writeFileSync(path.join(dir, 'a.ts'), `${line}\n`);
    expect(() => importedNames(['react-router-dom'], [dir])).toThrow(/as a whole/);
  });

  it('finds what the remotes use of React Router today, all of it exported by react-router-dom', async () => {
    const names = importedNames(['react-router', 'react-router-dom']);
    expect(names).toEqual(expect.arrayContaining(['Link', 'useNavigate']));
    const routerDom: Record<string, unknown> = await import('react-router-dom');
    expect(names.filter((name) => routerDom[name] === undefined)).toEqual([]);
  });

  it('provides of each subset package only names it exports (a name it lacks would be undefined in a remote)', async () => {
    const all = subsets();
    expect(Object.keys(all)).toEqual(
      expect.arrayContaining(['react-router-dom', '@mantine/core', '@qm/ui', '@qm/contracts/rest']),
    );
    // @mantine/charts, which the admin remote bundles, takes its core components from the share scope.
    expect(all['@mantine/core']).toEqual(expect.arrayContaining(['Box', 'ColorSwatch']));
    for (const [key, names] of Object.entries(all)) {
      expect(names.length).toBeGreaterThan(0);
      const exported: Record<string, unknown> = await import(key);
      expect({ key, missing: names.filter((name) => exported[name] === undefined) }).toEqual({
        key,
        missing: [],
      });
    }
  });
});
