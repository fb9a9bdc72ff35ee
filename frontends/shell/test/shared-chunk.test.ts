import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { warmShared } from '../src/remotes/federation';

const CONFIG = path.resolve(__dirname, '..', '..', 'rspack.shared.mjs');
const SHELL = path.resolve(__dirname, '..');
const source = (file: string) => readFileSync(path.join(SHELL, 'src', file), 'utf8');

/** The build's chunk names, and whether the shell's production build splits a chunk of each name. */
function build(): { shared: string; signedIn: string[]; splits: Record<string, boolean> } {
  const script = `import { createFrontendConfig, SHARED_CHUNK, SIGNED_IN_CHUNKS } from ${JSON.stringify(CONFIG)};
    const config = createFrontendConfig({ name: 'shell', dir: ${JSON.stringify(SHELL)}, mode: 'production' });
    const { chunks } = config.optimization.splitChunks;
    const splits = Object.fromEntries(['main', SHARED_CHUNK, 'user-nav', 'AuthPage'].map((name) => [name, chunks({ name })]));
    process.stdout.write(JSON.stringify({ shared: SHARED_CHUNK, signedIn: SIGNED_IN_CHUNKS, splits }));`;
  return JSON.parse(execFileSync('node', ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

describe('the chunk of the modules the shell shares with the remotes', () => {
  const { shared, signedIn, splits } = build();

  it('holds every shared module but the schemas, which stay a chunk of their own', () => {
    const providers = source('remotes/federation.ts').match(/const PROVIDERS[^]*?\n};/)![0];
    const imports = [
      ...providers.matchAll(/import\((?:\/\* webpackChunkName: "([^"]+)" \*\/ )?'([^']+)'\)/g),
    ];
    expect(imports.length).toBeGreaterThan(10);
    for (const [, chunk, request] of imports)
      expect({ request, chunk }).toEqual({
        request,
        chunk: request === 'qm-shared/@qm/contracts/rest' ? undefined : shared,
      });
  });

  it('is kept whole, while the shell’s other lazy chunks are split as usual', () => {
    expect(splits).toEqual({ main: false, [shared]: false, 'user-nav': true, AuthPage: true });
  });

  it('shares its modules with the navigation of signed-in pages', () => {
    const names = [...source('layout/Navigation.tsx').matchAll(/webpackChunkName: "([^"]+)"/g)].map(
      (m) => m[1],
    );
    expect(names.sort()).toEqual(signedIn.filter((name) => name !== shared).sort());
  });
});

describe('warmShared', () => {
  it('evaluates the shared modules one task at a time, and fetches the schemas at once', async () => {
    const events: string[] = [];
    const load = (name: string) => async () => void events.push(name);
    const warmed = warmShared(undefined, {
      '@mantine/core': load('core'),
      '@qm/ui': load('ui'),
      '@qm/contracts/rest': load('schemas'),
    });
    setTimeout(() => events.push('another task'), 0);
    await warmed;
    expect(events).toEqual(['schemas', 'core', 'another task', 'ui']);
  });

  it('leaves out what the first remote’s first page does not use', async () => {
    const events: string[] = [];
    const load = (name: string) => async () => void events.push(name);
    await warmShared('market', { '@mantine/core': load('core'), '@qm/contracts/rest': load('schemas') });
    expect(events).toEqual(['core']);
  });
});
