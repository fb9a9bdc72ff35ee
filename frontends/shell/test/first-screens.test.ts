import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { NOT_ON_FIRST_PAGE } from '../src/remotes/federation';

/**
 * What a signed-in page's first screen evaluates: the modules a remote's `./routes` reaches by static
 * imports (its other pages and dialogs are lazy), and the assistant's button. The shell does not fetch
 * ahead the shared modules NOT_ON_FIRST_PAGE names for a remote (remotes/federation.ts), so that screen
 * may not import them: the shared `@qm/contracts/rest` brings zod (23 KiB gzip, 180 ms on Lighthouse's
 * phone). What the screens take from `@qm/contracts/rules` instead reaches no zod
 * (docs/adr/037-first-screens-without-zod.md).
 */
const ROOT = path.resolve(__dirname, '../../..');

/** Relative imports followed to their files; the others are listed by specifier. */
function staticGraph(entry: string): { files: string[]; packages: Map<string, string[]> } {
  const files: string[] = [];
  const packages = new Map<string, string[]>();
  const pending = [entry];
  while (pending.length) {
    const file = pending.pop()!;
    if (files.includes(file)) continue;
    files.push(file);
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    for (const node of source.statements) {
      const from =
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
          ? node.moduleSpecifier.text
          : undefined;
      if (!from || evaluatesNothing(node)) continue;
      if (from.startsWith('.')) pending.push(resolve(path.dirname(file), from));
      else packages.set(from, [...(packages.get(from) ?? []), path.relative(ROOT, file)]);
    }
  }
  return { files, packages };
}

/** `import type`, `export type`, or only `type` names: erased by the compiler. */
function evaluatesNothing(node: ts.Statement): boolean {
  if (ts.isExportDeclaration(node)) return node.isTypeOnly;
  if (!ts.isImportDeclaration(node)) return false;
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return (
    !clause.name &&
    named !== undefined &&
    ts.isNamedImports(named) &&
    named.elements.length > 0 &&
    named.elements.every((element) => element.isTypeOnly)
  );
}

function resolve(dir: string, specifier: string): string {
  const base = path.resolve(dir, specifier);
  const file = ['.tsx', '.ts', '/index.ts', '/index.tsx', ''].map((ext) => base + ext).find(existsSync);
  if (!file) throw new Error(`cannot resolve ${specifier} from ${dir}`);
  return file;
}

describe.each(Object.entries(NOT_ON_FIRST_PAGE))("%s's first screen", (remote, shared) => {
  const { files, packages } = staticGraph(path.join(ROOT, `frontends/${remote}/src/routes.tsx`));

  test('is its page and their parts, not only the route table', () => {
    expect(files.length).toBeGreaterThan(3);
  });

  test.each([...(shared ?? []), 'zod'])('imports nothing from %s', (name) => {
    expect(packages.get(name)).toBeUndefined();
  });
});

test("the assistant's button, on every signed-in page, leaves the chat's schemas for its panel", () => {
  const { packages } = staticGraph(path.join(ROOT, 'frontends/shell/src/assistant/AssistantWidget.tsx'));
  expect(packages.get('@qm/contracts/rest')).toBeUndefined();
  expect(packages.get('zod')).toBeUndefined();
});

test('the market and the wallet leave the shared schemas for later', () => {
  expect(NOT_ON_FIRST_PAGE).toMatchObject({
    market: ['@qm/contracts/rest'],
    wallet: ['@qm/contracts/rest'],
  });
});

test('@qm/contracts/rules reaches no zod', () => {
  const { files, packages } = staticGraph(path.join(ROOT, 'packages/contracts/src/rules.ts'));
  expect(files.length).toBeGreaterThan(1);
  expect([...packages.keys()]).toEqual([]);
});
