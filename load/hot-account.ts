// A hot account on the local engine (docs/adr/006, amendment of 2026-12-04), priced in the same run's
// bare-update equivalents (BUE): what one credit costs against the markers its account carries (every
// transfer of about the last 20 s leaves one, MARKER_RETENTION_MS and up to a settling window and a
// sweep: an account paid 35 times a second carries about 800; with two-minute markers, one paid 10
// times a second carried 1,250), and what each credit of a burst costs when the burst's credits are sent one update each (the
// wallet before) and when they go through the wallet's store, which groups the credits that reach an
// account while one of its credits is in flight. Runs in a scratch database with the wallet's indexes,
// dropped after.
//
//   npm run bench:hot [-- BURST=100]       (a running stack's MongoDB API; loopback only)
import { randomUUID } from 'node:crypto';
import { connectMongo, ensureIndexes } from '@qm/platform';
import { INFRA } from '@qm/testkit';
import type { Connection } from 'mongoose';
import { type AccountId } from '../services/wallet/src/domain/ledger';
import { createAccountStore } from '../services/wallet/src/store/accounts';
import { loopbackOnly } from './lib/loopback.cjs';

const BURST = Math.max(10, Number(process.argv[2] || 100));
const MARKERS = [0, 1250, 2000];
const BURSTS = 10;
const ENGINE = ['ferretdb', 'postgres'];
/** A steady stream: credits a second, for how long, into an account carrying what that rate leaves. */
const STREAMS = [
  { rate: 10, seconds: 5, markers: 1250 },
  { rate: 50, seconds: 5, markers: 6250 },
];

const account = (id: string, markers: number) => ({
  _id: id,
  kind: 'user',
  balance: 0,
  available: 0,
  held: 0,
  holds: [],
  applied: Array.from({ length: markers }, () => `${randomUUID()}:credit`),
  currency: 'INR',
  isActive: true,
  createdAt: new Date(),
  updatedAt: new Date(),
});

async function main() {
  const { bareUpdateCpuMs } = await import('./lib/bue.mjs');
  const { engineCpuPerCall, idleCpuRates, latencySummary } = await import('./lib/process-cpu.mjs');
  loopbackOnly(INFRA.MONGO_URL);
  const bue = (await bareUpdateCpuMs()).ms;
  console.log(`1 BUE = ${bue.toFixed(3)} ms; bursts of ${BURST} credits at once`);
  const conn: Connection = await connectMongo(INFRA.MONGO_URL, `qm_hot_${Date.now().toString(36)}`);
  const accounts = createAccountStore(conn);
  await ensureIndexes(conn);
  const Accounts = accounts.model;
  const inBue = (ms: number) => `${(ms / bue).toFixed(2)} BUE`;
  /** `n` fresh accounts carrying `markers`. */
  const opened = async (label: string, markers: number, n: number): Promise<AccountId[]> => {
    const ids = Array.from({ length: n }, (_, i) => `user:${label}-${markers}-${i}` as AccountId);
    await conn.collection('accounts').insertMany(ids.map((id) => account(id, markers)) as never[]);
    return ids;
  };
  // The wallet's credit before grouping (store/accounts.ts at 14555da): one update per credit.
  const alone = (id: AccountId) => {
    const m = `${randomUUID()}:credit`;
    const at = new Date();
    return Accounts.updateOne(
      { _id: id, applied: { $ne: m } },
      {
        $inc: { balance: 1, available: 1 },
        $push: { applied: m },
        $set: { lastTransactionAt: at, updatedAt: at },
      },
    ).exec();
  };
  const grouped = (id: AccountId) => accounts.credit(id, randomUUID(), 1, new Date(), Date.now());
  const burst = (credit: (id: AccountId) => Promise<unknown>) => (id: AccountId) =>
    Promise.all(Array.from({ length: BURST }, () => credit(id)));

  try {
    // Warm the client first, as the services' are.
    const [warm] = await opened('warm', 0, 1);
    await engineCpuPerCall(1000, () => alone(warm!), 1000);
    for (const markers of MARKERS) {
      const [lone] = await opened('lone', markers, 1);
      const one = await engineCpuPerCall(20, () => alone(lone!), 0);
      const cells = [`one credit ${inBue(one.total)} (${one.wallMs.toFixed(1)} ms)`];
      for (const [name, credit] of Object.entries({ 'one update each': alone, grouped })) {
        // A fresh account for each burst, so that each starts with the same markers.
        const ids = await opened(name.replace(/\W/g, ''), markers, BURSTS);
        const cpu = await engineCpuPerCall(BURSTS, (i) => burst(credit)(ids[i]!), 0);
        cells.push(
          `a burst ${name}: ${inBue(cpu.total / BURST)} a credit, ${cpu.wallMs.toFixed(0)} ms a burst`,
        );
      }
      console.log(`an account carrying ${markers} markers: ${cells.join('; ')}`);
    }
    // A stream lasts seconds: what the engine spends meanwhile with nothing asked is not its cost.
    const idle = await idleCpuRates(ENGINE);
    for (const { rate, seconds, markers } of STREAMS) {
      const cells: string[] = [];
      for (const [name, credit] of Object.entries({ 'one update each': alone, grouped })) {
        const [id] = await opened(`stream${name.replace(/\W/g, '')}`, markers, 1);
        const latencies: number[] = [];
        const stream = () =>
          Promise.all(
            Array.from(
              { length: rate * seconds },
              (_, i) =>
                new Promise<void>((resolve, reject) =>
                  setTimeout(
                    () => {
                      const t0 = performance.now();
                      credit(id!).then(() => resolve(void latencies.push(performance.now() - t0)), reject);
                    },
                    (i * 1000) / rate,
                  ),
                ),
            ),
          );
        const cpu = await engineCpuPerCall(1, stream, 0, { reaches: ENGINE, idle });
        const n = rate * seconds;
        cells.push(`${name}: ${inBue(cpu.total / n)} a credit, ${latencySummary(latencies)} ms`);
      }
      console.log(
        `${rate} credits a second for ${seconds} s, ${markers} markers at the start: ${cells.join('; ')}`,
      );
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
