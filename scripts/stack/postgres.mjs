// The PostgreSQL server behind FerretDB (docs/adr/004): Debian's PostgreSQL 15 binaries, linked into
// .tools/bin by scripts/provision.sh postgres, with a cluster per data directory.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
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

/** Whether `user` can reach `dir` (the nearest existing ancestor of it); a clone under /root is not. */
function reachable(dir, user) {
  let d = dir;
  while (!existsSync(d)) d = path.dirname(d);
  return spawnSync('test', ['-x', d], { ...user }).status === 0;
}

/**
 * Where the cluster lives: <dataDir>/postgres, or, when the `postgres` user cannot reach the data
 * directory, a directory of its own under /var/tmp that belongs to this data directory (a marker in
 * the data directory ties them: a fresh data directory gets a fresh cluster).
 */
function clusterDir(dataDir, user) {
  if (!user || reachable(dataDir, user)) return { pgdata: path.join(dataDir, 'postgres') };
  const id = createHash('sha1').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  return { pgdata: `/var/tmp/quartermaster-postgres/${id}`, marker: path.join(dataDir, 'postgres.location') };
}

function initCluster({ pgdata, marker, initdb, user }) {
  if (marker) {
    const ours = existsSync(marker) && readFileSync(marker, 'utf8').trim() === pgdata;
    if (!ours) rmSync(pgdata, { recursive: true, force: true });
    mkdirSync(path.dirname(marker), { recursive: true });
    writeFileSync(marker, `${pgdata}\n`);
  }
  if (existsSync(path.join(pgdata, 'PG_VERSION'))) return;
  mkdirSync(path.dirname(pgdata), { recursive: true });
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
  const user = runAs();
  const { pgdata, marker } = clusterDir(dataDir, user);
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
    prepare: () => initCluster({ pgdata, marker, initdb: binary(tools, 'initdb'), user }),
    check: () => tcpCheck(POSTGRES_PORT),
    timeoutMs: 30000,
    // SIGINT is PostgreSQL's fast shutdown: it does not wait for clients to disconnect.
    stopSignal: 'SIGINT',
  };
}
