import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { freePort } from '@qm/testkit';
import { MongoClient } from 'mongodb';
import { killFerret, startFerret } from './ferretdb-process';
import { uniqueName } from './infra';

// docs/adr/004: data written through FerretDB survives its crash, and an existing database takes
// writes after the restart (one trial once failed with `relation "_ferretdb_database_metadata"
// already exists`). A second FerretDB of our own on the stack's PostgreSQL, killed with SIGKILL.

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

    await killFerret(ferret);
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
