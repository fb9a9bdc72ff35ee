import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const CONFIG = path.resolve(__dirname, '..', '..', 'rspack.shared.mjs');
const SHELL = path.resolve(__dirname, '..');

/** resolve.alias of the shell's rspack configuration in a mode, as `rspack build` makes it. */
function aliases(mode: 'development' | 'production'): Record<string, string> {
  const script = `import { createFrontendConfig } from ${JSON.stringify(CONFIG)};
    const config = createFrontendConfig({ name: 'shell', dir: ${JSON.stringify(SHELL)}, mode: '${mode}' });
    process.stdout.write(JSON.stringify(config.resolve.alias));`;
  return JSON.parse(execFileSync('node', ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

describe("the frontends' production build", () => {
  // React Router's package exports its development build (warnings on) to every condition.
  it('bundles React Router’s production build', () => {
    const alias = aliases('production');
    for (const request of ['react-router$', 'react-router/dom$']) {
      expect(alias[request]).toMatch(/react-router[\\/]dist[\\/]production[\\/]/);
      expect(existsSync(alias[request]!)).toBe(true);
    }
  });

  it('leaves the development build to the dev servers', () => {
    const alias = aliases('development');
    expect(alias['react-router$']).toBeUndefined();
    expect(alias['react-router/dom$']).toBeUndefined();
  });
});
