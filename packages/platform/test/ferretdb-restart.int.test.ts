import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { FERRETDB_POSTGRESQL_URL, uniqueName } from './infra';

// docs/adr/004: data written through FerretDB survives its crash, and an existing database takes
// writes after the restart (one trial once failed with `relation "_ferretdb_database_metadata"
// already exists`). A second FerretDB of our own on the stack's PostgreSQL, killed with SIGKILL.
const FERRETDB = path.resolve(__dirname, '../../../.tools/bin/ferretdb');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.once('error', reject);
  });
}

async function startFerret(port: number, stateDir: string): Promise<ChildProcess> {
  const child = spawn(
    FERRETDB,
    [
      '--handler=postgresql',
      `--postgresql-url=${FERRETDB_POSTGRESQL_URL}`,
      `--listen-addr=127.0.0.1:${port}`,
      '--telemetry=disable',
      `--state-dir=${stateDir}`,
      '--debug-addr=-',
      '--log-level=error',
    ],
    { stdio: 'ignore' },
  );
  const until = Date.now() + 20000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (up) return child;
    if (Date.now() > until) throw new Error('ferretdb did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function withClient<T>(port: number, fn: (c: MongoClient) => Promise<T>): Promise<T> {
  const client = await MongoClient.connect(`mongodb://127.0.0.1:${port}`, {
    directConnection: true,
    serverSelectionTimeoutMS: 5000,
    retryWrites: false,
  });
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

describe('FerretDB on PostgreSQL across a crash', () => {
  const stateDir = mkdtempSync(path.join(os.tmpdir(), 'qm-ferret-'));
  const dbName = uniqueName('qm_test_restart');
  let port: number;
  let ferret: ChildProcess | undefined;

  afterAll(async () => {
    if (ferret && ferret.exitCode === null) {
      await withClient(port, (c) => c.db(dbName).dropDatabase()).catch(() => undefined);
      ferret.kill('SIGKILL');
    }
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('keeps acknowledged writes and accepts new ones in the existing database after SIGKILL', async () => {
    port = await freePort();
    ferret = await startFerret(port, stateDir);
    await withClient(port, async (c) => {
      await c
        .db(dbName)
        .collection('things')
        .insertMany([{ _id: 1 as never }, { _id: 2 as never }]);
      await c
        .db(dbName)
        .collection('other')
        .insertOne({ _id: 1 as never });
    });

    ferret.kill('SIGKILL');
    await new Promise((r) => ferret!.once('exit', r));
    ferret = await startFerret(port, stateDir);

    await withClient(port, async (c) => {
      const things = c.db(dbName).collection('things');
      expect(await things.countDocuments()).toBe(2);
      await things.insertOne({ _id: 3 as never });
      await c
        .db(dbName)
        .collection('brand_new')
        .insertOne({ _id: 1 as never });
      expect(await things.countDocuments()).toBe(3);
      expect((await c.db(dbName).listCollections().toArray()).map((x) => x.name).sort()).toEqual([
        'brand_new',
        'other',
        'things',
      ]);
    });
  });
});
