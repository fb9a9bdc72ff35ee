// The PostgreSQL server behind FerretDB (docs/adr/004): Debian's PostgreSQL 15 binaries, linked into
// .tools/bin by scripts/provision.sh postgres, with a cluster per data directory.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { tcpCheck } from './health.mjs';

export const POSTGRES_PORT = 5433; // not 5432: that is where an installed Debian cluster listens
// FerretDB v1 keeps each MongoDB database as a schema of this one PostgreSQL database.
export const POSTGRES_URL = `postgres://postgres@127.0.0.1:${POSTGRES_PORT}/postgres`;

/** PostgreSQL refuses to run as root; as root the cluster belongs to Debian's `postgres` user. */
function runAs() {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error('running as root needs the `postgres` user: run scripts/provision.sh postgres');
  }
}

function initCluster({ pgdata, initdb, user }) {
  if (existsSync(path.join(pgdata, 'PG_VERSION'))) return;
  mkdirSync(pgdata, { recursive: true, mode: 0o700 });
  if (user) chownSync(pgdata, user.uid, user.gid);
  const res = spawnSync(
    initdb,
    ['-D', pgdata, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-instructions'],
    { encoding: 'utf8', ...(user ?? {}) },
  );
  if (res.status !== 0) throw new Error(`initdb failed: ${res.stderr || res.error?.message}`);
}

// The real path: as `postgres`, the cache behind .tools (under root's home) is not reachable.
const binary = (tools, name) => {
  const link = path.join(tools, 'bin', name);
  return existsSync(link) ? realpathSync(link) : link;
};

export function postgresSpec({ dataDir, tools }) {
  const pgdata = path.join(dataDir, 'postgres');
  const user = runAs();
  return {
    name: 'postgres',
    command: binary(tools, 'postgres'),
    args: [
      '-D',
      pgdata,
      '-p',
      String(POSTGRES_PORT),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      // FerretDB sends prepared statements; a generic plan cannot use the GIN expression indexes
      // @qm/platform creates, a custom plan (with the parameter's value) can (ADR 004).
      '-c',
      'plan_cache_mode=force_custom_plan',
    ],
    spawnAs: user,
    ports: [POSTGRES_PORT],
    prepare: () => initCluster({ pgdata, initdb: binary(tools, 'initdb'), user }),
    check: () => tcpCheck(POSTGRES_PORT),
    timeoutMs: 30000,
    // SIGINT is PostgreSQL's fast shutdown: it does not wait for clients to disconnect.
    stopSignal: 'SIGINT',
  };
}
