// One-off preparation before the stack starts: infrastructure binaries and node_modules.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

function run(command, args, { cwd }) {
  const res = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (res.error) throw new Error(`${command} ${args.join(' ')}: ${res.error.message}`);
  if (res.status !== 0) throw new Error(`${command} ${args.join(' ')} failed with code ${res.status}`);
}

/**
 * scripts/provision.sh all: builds or fetches NATS, FerretDB and Keycloak once (and the Zipkin trace
 * viewer when `traces`); returns at once after that.
 */
export function provisionTools(root, { traces = false } = {}) {
  run('bash', [path.join(root, 'scripts/provision.sh'), 'all'], { cwd: root });
  if (traces) run('bash', [path.join(root, 'scripts/provision.sh'), 'zipkin'], { cwd: root });
}

/** Whether node_modules is missing or older than package-lock.json. */
export function needsNpmInstall(root) {
  const marker = path.join(root, 'node_modules/.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (!existsSync(marker)) return true;
  return existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs;
}

/** npm install, serialised with the other people working in this tree through /tmp/qm-npm.lock. */
export function npmInstall(root) {
  const hasFlock = spawnSync('flock', ['--version'], { stdio: 'ignore' }).status === 0;
  const npm = ['npm', 'install', '--no-audit', '--no-fund'];
  if (hasFlock) run('flock', ['/tmp/qm-npm.lock', ...npm], { cwd: root });
  else run(npm[0], npm.slice(1), { cwd: root });
}
