// The unit of the cost budgets (docs/architecture.md §8): one bare-update equivalent (BUE), the CPU that one
// `findOneAndUpdate({ _id }, { $inc })` from a Node client costs the whole path (this process, the
// document engine, and PostgreSQL under FerretDB), measured in the same run as the operation it
// prices, so that "a transfer costs N BUE" holds on any machine. Loopback only.
import { MongoClient } from 'mongodb';
import { engineCpuPerCall } from './process-cpu.mjs';
import { loopbackOnly } from './loopback.cjs';

const MONGO_URL = process.env.MONGO_URL || 'mongodb://127.0.0.1:27017';
loopbackOnly(MONGO_URL);

/**
 * CPU ms of one bare update, over `n` sequential ones on 50 documents of a scratch database, after
 * `warm` ones.
 */
export async function bareUpdateCpuMs(n = 2000, warm = 3000) {
  const client = await MongoClient.connect(MONGO_URL);
  const db = client.db(`qm_bue_${Date.now().toString(36)}`);
  try {
    const docs = db.collection('counters');
    const update = (i) => docs.findOneAndUpdate({ _id: `c${i % 50}` }, { $inc: { n: 1 } }, { upsert: true });
    // A client as warm as the services' long-running ones: after 200 calls a fresh process still spent
    // 0.85 ms of its own CPU per update, after 2,000 about 0.47 (2026-12-02-op-floor.md).
    const cpu = await engineCpuPerCall(n, update, warm);
    const per = {
      client: +cpu.client.toFixed(3),
      ferretdb: +cpu.ferretdb.toFixed(3),
      postgres: +cpu.postgres.toFixed(3),
    };
    return { ms: cpu.total, per, writes: cpu.writes };
  } finally {
    await db.dropDatabase();
    await client.close();
  }
}

/** How far the unit may move between the start and the end of a run for its BUE to be compared with another run's. */
export const UNIT_DRIFT_TOLERANCE = 0.15;

/**
 * The unit over a run: the mean of a bare update measured before it and after it. This machine changes
 * speed within minutes (2026-12-06: every process of a stack a quarter slower during one run while the
 * unit measured before it had not moved), so a unit measured once may not be the run's. Prints both
 * and, when they differ by more than UNIT_DRIFT_TOLERANCE, that the run's BUE are not to be compared.
 */
export function unitOverRun(before, after) {
  const ms = (before.ms + after.ms) / 2;
  const drift = after.ms / before.ms - 1;
  console.log(
    `1 BUE over the run = ${ms.toFixed(3)} ms: ${before.ms.toFixed(3)} before it, ${after.ms.toFixed(3)} after ` +
      `(${drift >= 0 ? '+' : ''}${(100 * drift).toFixed(0)} %)`,
  );
  if (Math.abs(drift) > UNIT_DRIFT_TOLERANCE)
    console.log(
      `the machine changed speed during the run (the unit moved by more than ${100 * UNIT_DRIFT_TOLERANCE} %): ` +
        'its BUE are not to be compared with another run’s',
    );
  return ms;
}

/** "N BUE (budget B)" and whether it is within. */
export function inBue(label, cpuMs, bue, budget) {
  const n = cpuMs / bue;
  const ok = n <= budget;
  console.log(
    `${label}: ${cpuMs.toFixed(1)} ms of CPU = ${n.toFixed(1)} BUE (budget ${budget}) ${ok ? 'met' : 'MISSED'}`,
  );
  return ok;
}
