// Hot wallets under a burst (docs/architecture.md §8): 120 P2P transfers sent at once among 4 wallets (every one
// hot), among 40 fresh ones (each first transfer pays its PIN check), and from those 40 into one wallet
// (a seller's case: one account takes every credit), against the rate of the
// same transfers sent one after another in the same run. Each request must complete or be refused
// at once with 503 and Retry-After (docs/adr/026), which the client honours by sending the same
// request again with the same Idempotency-Key, as a real client would; a 504, whose outcome the
// client cannot know, fails the run. Throughput of a burst = transfers / time until the last one
// completed, and must be at least half the sequential rate.
//
//   AUTH_RATE_LIMIT_SCALE=100 make dev        (production mode for figures: node scripts/dev.mjs --prod)
//   node load/transfer-burst.mjs [BURST=120]
//
// Exits non-zero when a budget is missed. Then `npm run ledger:check`: nothing created or lost.
import { transfer, walletUsers } from './lib/wallet-users.mjs';

const BURST = Math.max(10, Number(process.argv[2] || 120));
const SEQUENTIAL = 40;
const MIN_RATIO = 0.5;
const MAX_ATTEMPTS = 30;
const run = Date.now().toString(36);

/** Sends one transfer until it completes, honouring 503 + Retry-After; answers what it saw. */
async function untilDone(from, to, key) {
  const seen = [];
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const res = await transfer(from, to, '0.01', key);
    seen.push(res.status);
    if (res.status !== 503 || !res.retryAfter) return { seen, final: res };
    await new Promise((r) => setTimeout(r, Number(res.retryAfter) * 1000 * (0.5 + Math.random())));
  }
  return { seen, final: { status: 'gave up' } };
}

/** Transfers i → i+1 round the ring of wallets, so every wallet both pays and is paid. */
const pair = (wallets, i) => [wallets[i % wallets.length], wallets[(i + 1) % wallets.length]];

async function sequentialRate(wallets) {
  const started = performance.now();
  for (let i = 0; i < SEQUENTIAL; i++) {
    const [from, to] = pair(wallets, i);
    const res = await transfer(from, to, '0.01', `seq-${run}-${i}`);
    if (res.status !== 200) throw new Error(`sequential transfer ${i}: ${res.status} ${res.body}`);
  }
  return SEQUENTIAL / ((performance.now() - started) / 1000);
}

async function burst(label, wallets, seqRate, pairOf = pair) {
  const started = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: BURST }, (_, i) => {
      const [from, to] = pairOf(wallets, i);
      return untilDone(from, to, `burst-${label.replace(/\W+/g, '-')}-${run}-${i}`).then((o) => ({
        ...o,
        ms: performance.now() - started,
      }));
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const statuses = {};
  for (const o of outcomes) for (const s of o.seen) statuses[s] = (statuses[s] ?? 0) + 1;
  const completed = outcomes.filter((o) => o.final.status === 200).length;
  const rate = completed / seconds;
  const result = {
    burst: label,
    completed: `${completed}/${BURST}`,
    'every answer': JSON.stringify(statuses),
    seconds: +seconds.toFixed(2),
    'per s': +rate.toFixed(1),
    'of sequential': +(rate / seqRate).toFixed(2),
  };
  const failures = [];
  if (statuses[504]) failures.push(`${statuses[504]} × 504`);
  if (completed < BURST) {
    const other = outcomes.find((o) => o.final.status !== 200);
    failures.push(
      `${BURST - completed} not completed (e.g. ${other.final.status} ${other.final.body ?? ''})`,
    );
  }
  if (rate / seqRate < MIN_RATIO) failures.push(`throughput ${(rate / seqRate).toFixed(2)} of sequential`);
  return { result, failures };
}

const hot = await walletUsers('burst_hot', 4);
const seqRate = await sequentialRate(hot);
console.log(`sequential: ${SEQUENTIAL} transfers at ${seqRate.toFixed(1)} a second`);
const results = [await burst('4 wallets', hot, seqRate)];
console.table([results[0].result]);
const fresh = await walletUsers('burst_fresh', 40);
results.push(await burst('40 fresh wallets', fresh, seqRate));
console.table([results[1].result]);
// A seller's case: many payers, one payee (whose account takes every credit), the payers' PINs now known.
const [payee] = await walletUsers('burst_payee', 1, { funded: 0 });
results.push(await burst('40 wallets paying one', fresh, seqRate, (w, i) => [w[i % w.length], payee]));
console.table([results[2].result]);
const failures = results.flatMap((r) => r.failures.map((f) => `${r.result.burst}: ${f}`));
for (const f of failures) console.error(`budget missed: ${f}`);
process.exit(failures.length ? 1 : 0);
