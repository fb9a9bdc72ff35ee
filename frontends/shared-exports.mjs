// The part of a shared package the remotes use, for the shell to provide instead of the whole package.
// A shared module provided whole cannot be tree-shaken (the build cannot know what the remotes use): all
// of React Router (one large module, so none of it could be left out of the shell's own landing page
// either), all of Mantine, and a second zod in every remote that imported @qm/contracts itself. The shell
// therefore provides, for each package of SUBSETS, a module that re-exports only the names the remotes
// (and the shared @qm/ui) import, found in their sources at build time; the frontends are built together
// (make build, the Dockerfile), so the list matches what they import (ADR 017).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
/** Source folders of everything that consumes the shell's shared modules. */
export const CONSUMERS = [
  'frontends/market/src',
  'frontends/wallet/src',
  'frontends/admin/src',
  'packages/ui/src',
];

/**
 * Share key → the package names whose imports count, and third-party code a remote bundles that imports
 * them too (a remote's copy of @mantine/charts resolves @mantine/core through the share scope).
 */
export const SUBSETS = {
  'react-router-dom': { packages: ['react-router', 'react-router-dom'] },
  '@mantine/core': { packages: ['@mantine/core'], alsoIn: ['node_modules/@mantine/charts/esm'] },
  '@mantine/hooks': { packages: ['@mantine/hooks'], alsoIn: ['node_modules/@mantine/charts/esm'] },
  '@tanstack/react-query': { packages: ['@tanstack/react-query'] },
  '@qm/ui': { packages: ['@qm/ui'] },
  // The remotes' schemas and constants: the shell runs zod for its own forms already, so a remote bundles
  // neither (only the core parse that mantine-form-zod-resolver imports).
  '@qm/contracts/rest': { packages: ['@qm/contracts/rest'] },
};

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile() && /\.(tsx?|mjs|js)$/.test(d.name))
    .map((d) => path.join(d.parentPath, d.name));
}

/**
 * Names imported from `packages` by the consumers' sources (type-only imports left out). Throws on
 * anything that would use the whole package (a namespace import, export *, a dynamic import), which a
 * list of names cannot serve. `dirs`: source folders, relative to the repository root or absolute.
 */
export function importedNames(packages, dirs = CONSUMERS) {
  const names = new Set();
  const from = packages.map((p) => p.replace(/[/\\^$*+?.()|[\]{}-]/g, '\\$&')).join('|');
  const named = new RegExp(`import\\s+(type\\s+)?\\{([^}]*)\\}\\s*from\\s*['"](?:${from})['"]`, 'g');
  const whole = new RegExp(
    `(import\\s+\\*\\s+as\\s+\\w+|export\\s+\\*(\\s+as\\s+\\w+)?|import\\s+\\w+(\\s*,\\s*\\*[^'"]*)?|import\\()\\s*(from\\s*)?['"](?:${from})['"]`,
  );
  for (const dir of dirs) {
    for (const file of sourceFiles(path.resolve(ROOT, dir))) {
      const text = readFileSync(file, 'utf8');
      if (whole.test(text))
        throw new Error(
          `${path.relative(ROOT, file)} uses ${packages.join(' or ')} as a whole; import names`,
        );
      for (const [, typeOnly, list] of text.matchAll(named)) {
        if (typeOnly) continue;
        for (const spec of list.split(',').map((s) => s.trim())) {
          if (!spec || spec.startsWith('type ')) continue;
          names.add(spec.split(/\s+as\s+/)[0]);
        }
      }
    }
  }
  return [...names].sort();
}

/** The names the shell provides of a package of SUBSETS. */
export function subsetNames(key) {
  const { packages, alsoIn = [] } = SUBSETS[key];
  return importedNames(packages, [...CONSUMERS, ...alsoIn]);
}

/** Source of a module re-exporting `names` from `pkg`. */
export function reexportModule(pkg, names) {
  return names.length ? `export { ${names.join(', ')} } from '${pkg}';\n` : 'export {};\n';
}
