// What one counter step costs (docs/adr/020): N sequential `nextSequence` calls on a scratch
// database, first through FerretDB (the `counters` collection, one findOneAndUpdate each), then in
// FerretDB's PostgreSQL (the `qm_sequences` table, one INSERT … ON CONFLICT each), with the CPU this
// process, FerretDB and PostgreSQL spent per call. Needs the local stack's databases (`make dev`).
//
//   npm run bench:sequences [-- N]        (N=2000; loopback databases only)
import {
  connectMongo,
  detachedStoreEngine,
  LOCAL_POSTGRESQL_URL,
  nextSequence,
  openStoreEngine,
} from '@qm/platform';
import { INFRA } from '@qm/testkit';
import { loopbackOnly } from './lib/loopback.cjs';

const N = Math.max(100, Number(process.argv[2] || 2000));
const OWNERS = 50; // feed counters: one per owner, so calls spread over rows as they do in a service

async function measure(label: string, take: (i: number) => Promise<number>) {
  const { engineCpuPerCall } = await import('./lib/process-cpu.mjs');
  const cpu = await engineCpuPerCall(N, take);
  console.log(
    `${label}: ${cpu.wallMs.toFixed(3)} ms a call; CPU a call: client ${cpu.client.toFixed(3)} ms, ` +
      `FerretDB ${cpu.ferretdb.toFixed(3)}, PostgreSQL ${cpu.postgres.toFixed(3)}, ` +
      `total ${cpu.total.toFixed(3)} ms`,
  );
}

async function main() {
  const pgUrl = INFRA.STORE_ENGINE.postgresqlUrl ?? LOCAL_POSTGRESQL_URL;
  loopbackOnly(INFRA.MONGO_URL, pgUrl);
  const conn = await connectMongo(INFRA.MONGO_URL, `qm_sequence_cost_${Date.now().toString(36)}`);
  try {
    // The MongoDB engine's counters: documents of the `counters` collection.
    const viaCollection = detachedStoreEngine(conn, { engine: 'mongodb' }).sequences;
    await measure('counters collection', (i) => viaCollection.next(`feed:x:owner:${i % OWNERS}`));
    const engine = await openStoreEngine(conn, { engine: 'ferretdb-postgresql', postgresqlUrl: pgUrl });
    try {
      await measure('PostgreSQL table   ', (i) => nextSequence(conn, `feed:x:owner:${i % OWNERS}`));
    } finally {
      await engine.close();
    }
  } finally {
    await conn.dropDatabase();
    await conn.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
