// The chaos run's judge (docs/adr/015), run by scripts/chaos/run.mjs once the stack is healed:
//   tsx load/chaos-check.ts --ops <ops.log> --kills <kills.json> --results <dir> --name <name> --workload <text>
// Drains (outboxes empty, consumers caught up, orders final, no refund under way), resolves every
// unknown money call by retrying it with its key, then checks: system:check (load/system/check.ts),
// each unknown call resolved to zero or one effect, each key at most one effect, answers matching
// effects, no effect without a call, every order final, the refunds (load/chaos/refunds.ts: each
// call's answer matching its order, no refund without a call, none left under way, the proceeds held
// exactly while a request is open), no outbox entry older than 60 s, every activity event stored
// once. Writes <results>/<name>.md and .json and prints the markdown. Exits 1 on any broken
// invariant, 2 when the run cannot be judged.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { connect } from 'nats';
import { type ActivityReport, checkActivity } from './chaos/activity';
import { drain, type DrainState } from './chaos/drain';
import { readEffects } from './chaos/effects';
import { type Op, parseOpLog } from './chaos/oplog';
import { refundEffect, type RefundVerdict, verifyRefunds } from './chaos/refunds';
import { type Invariant, type Kill, killsTable, markdown, opsTable, type RunReport } from './chaos/report';
import { resolveUnknown } from './chaos/resolve';
import { effectCount, MONEY_OPS, purchaseEffects, type Verdict, verifyMoney } from './chaos/verify';
import { checkSystem, type SystemReport, systemLines } from './system/check';

const OUTBOX_MAX_AGE_S = 60;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      ops: { type: 'string' },
      kills: { type: 'string' },
      results: { type: 'string', default: 'load/results' },
      name: { type: 'string', default: 'chaos' },
      workload: { type: 'string', default: '' },
      'mongo-url': { type: 'string', default: process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017' },
      'nats-url': { type: 'string', default: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' },
      'base-url': { type: 'string', default: process.env.BASE_URL ?? 'http://127.0.0.1:8080' },
      prefix: { type: 'string', default: process.env.EVENTS_PREFIX || 'dev' },
    },
  });
  if (!values.ops) throw new Error('--ops <file> is required');
  const log = parseOpLog(readFileSync(values.ops, 'utf8'));
  const kills = values.kills ? (JSON.parse(readFileSync(values.kills, 'utf8')) as Kill[]) : [];
  const users = [...log.users.keys()];
  console.log(`chaos-check: ${log.ops.length} calls by ${users.length} users, ${kills.length} kills`);

  const client = new MongoClient(values['mongo-url'], { serverSelectionTimeoutMS: 10_000 });
  await client.connect();
  const nc = await connect({ servers: values['nats-url'], name: 'chaos-check' });
  try {
    const jsm = await nc.jetstreamManager();
    const dbs = {
      wallet: client.db('qm_wallet'),
      catalog: client.db('qm_catalog'),
      orders: client.db('qm_orders'),
    };
    const onWait = (s: Awaited<ReturnType<typeof drain>>['state']) =>
      console.log(
        `chaos-check: draining — ${s.outbox.length} outbox entries, ${s.consumers.length} consumers behind, ` +
          `${s.transfersInFlight} transfers in flight, ${s.ordersInSaga} orders in their saga, ` +
          `${s.refundsUnderway.length} refunds under way`,
      );
    const first = await drain(client, jsm, { onWait });

    // Unknown calls: retried as their callers with the same key and body.
    const before = await readEffects(dbs, users);
    const money = log.ops.filter((o) => MONEY_OPS.has(o.op));
    const { answeredIds: answeredBefore } = purchaseEffects(money, before, new Map());
    const resolutions = await resolveUnknown(log, {
      baseUrl: values['base-url'],
      effectsOf: (op) => Promise.resolve(effectCount(op, before, answeredBefore)),
    });
    console.log(`chaos-check: ${resolutions.size} unknown calls retried with their keys`);
    const second = await drain(client, jsm, { onWait });
    const effects = await readEffects(dbs, users);

    const verdict = verifyMoney(log, effects, resolutions);
    const refunds = verifyRefunds(log, effects.orders, effects.escrows);
    const { answeredIds } = purchaseEffects(money, effects, resolutions);
    const byId = new Map(log.ops.map((o) => [o.id, o]));
    const orderById = new Map(effects.orders.map((o) => [o.id, o]));
    // An unknown call's effect as the data shows it: money calls after their retry, refund calls
    // from their order (they take no key and are not retried).
    const effectAfter = (op: Op) =>
      resolutions.has(op.id) ? effectCount(op, effects, answeredIds) : refundEffect(op, orderById);
    const system = await checkSystem(dbs);
    for (const line of systemLines(system)) console.log(line);
    const activity = await checkActivity(
      { js: nc.jetstream(), jsm, prefix: values.prefix },
      client.db('qm_activity'),
      dbs.wallet,
    );

    const state = second.state;
    const invariants = invariantsOf({ verdict, refunds, system, state, activity });
    const report: RunReport = {
      workload: values.workload,
      at: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
      ops: opsTable(log, (id) => effectAfter(byId.get(id)!)),
      kills: killsTable(kills),
      invariants,
      drainS: Math.round((first.ms + second.ms) / 1000),
    };
    mkdirSync(values.results, { recursive: true });
    const md = markdown(report);
    writeFileSync(path.join(values.results, `${values.name}.md`), md);
    writeFileSync(
      path.join(values.results, `${values.name}.json`),
      `${JSON.stringify(
        {
          ...report,
          breaks: [...verdict.breaks, ...refunds.breaks],
          refundsUnderway: state.refundsUnderway,
          systemBreaks: system.breaks,
          // The evidence behind the unknown calls' verdicts: each call, its retry's answer, its effects.
          resolutions: [...resolutions].map(([id, r]) => {
            const op = byId.get(id)!;
            return {
              id,
              op: op.op,
              key: op.key,
              user: op.user,
              first: { status: op.status, answer: op.answer },
              retry: r,
              effectsAfter: effectCount(op, effects, answeredIds),
            };
          }),
        },
        null,
        2,
      )}\n`,
    );
    console.log(`\n${md}`);
    const broken = invariants.filter((i) => !i.ok).length;
    console.log(`chaos-check: ${invariants.length - broken} invariants hold, ${broken} broken`);
    return broken ? 1 : 0;
  } finally {
    await nc.close();
    await client.close();
  }
}

/** The run's invariants, each with what it found. */
function invariantsOf({
  verdict,
  refunds,
  system,
  state,
  activity,
}: {
  verdict: Verdict;
  refunds: RefundVerdict;
  system: SystemReport;
  state: DrainState;
  activity: ActivityReport;
}): Invariant[] {
  const oldOutbox = state.outbox.filter((e) => e.ageS > OUTBOX_MAX_AGE_S);
  const inv = (name: string, kinds: string[]): Invariant => {
    const b = verdict.breaks.filter((x) => kinds.includes(x.invariant));
    return { name, ok: !b.length, detail: b.length ? listed(b.map((x) => x.detail)) : '' };
  };
  const refundInv = (name: string, kinds: string[], detail: string, more: string[] = []): Invariant => {
    const b = [...refunds.breaks.filter((x) => kinds.includes(x.invariant)).map((x) => x.detail), ...more];
    return { name, ok: !b.length, detail: b.length ? listed(b) : detail };
  };
  const r = refunds.refunds;
  const c = refunds.calls;
  const u = verdict.unknownResolved;
  return [
    {
      name: 'system:check (ledger, stock, orders ↔ payments)',
      ok: !system.breaks.length,
      detail: system.breaks.length
        ? listed(system.breaks.map((b) => `${b.kind}: ${b.detail}`))
        : systemLines(system)[0]!.replace(/^system-check: OK — /, ''),
    },
    {
      ...inv('every unknown call resolved to 0 or 1 effects', ['unknown-resolved']),
      ...(verdict.breaks.some((b) => b.invariant === 'unknown-resolved')
        ? {}
        : { detail: `${u.zero} → 0, ${u.one} → 1, ${u.more} → more, ${u.unresolved} unresolved` }),
    },
    withDefault(
      inv('each idempotency key at most one effect', ['key-at-most-once']),
      `${verdict.moneyOps} money calls`,
    ),
    withDefault(
      inv('every answer matches its effect', ['answer-matches-effect']),
      'ok → 1 effect, refused → 0',
    ),
    withDefault(inv('no effect without a call', ['no-orphan-effect']), 'orders, transfers'),
    {
      name: 'every order final',
      ok: state.ordersInSaga === 0,
      detail: state.ordersInSaga
        ? `${state.ordersInSaga} orders still in their saga`
        : `${system.orders.completed} completed, ${system.orders.cancelled} cancelled, ` +
          `${system.orders.refunded} refunded`,
    },
    refundInv(
      'every refund call matches its order',
      ['refund-answer'],
      `${c['refund-request'] ?? 0} requests, ${c['refund-approve'] ?? 0} approvals, ` +
        `${c['refund-reject'] ?? 0} rejections: ok → done, already requested/decided → so`,
    ),
    refundInv(
      'no refund, approval or rejection without a call',
      ['refund-without-call'],
      `${r.open + r.approved + r.rejected} refunds: ${r.open} open, ${r.approved} approved, ${r.rejected} rejected`,
    ),
    refundInv(
      'no refund left under way',
      ['refund-state'],
      `${r.approved} approved and refunded, ${r.rejected} rejected and let go, ${r.open} open and held`,
      // The drain's view covers every order, the run's or not (an approval still 'approving' …).
      state.refundsUnderway.map((x) => `order ${x.id}: ${x.status}, held ${String(x.held)}, unsettled`),
    ),
    refundInv(
      'sale proceeds held exactly while a refund is open',
      ['refund-proceeds'],
      'escrows: open → frozen and funded, approved → empty, otherwise not frozen',
    ),
    {
      name: `no outbox entry older than ${OUTBOX_MAX_AGE_S} s`,
      ok: !oldOutbox.length,
      detail: oldOutbox.length
        ? listed(oldOutbox.map((e) => `${e.db} ${e.id} (${e.ageS} s)`))
        : `${state.outbox.length} entries left`,
    },
    {
      name: 'every consumer caught up',
      ok: !state.consumers.length,
      detail: state.consumers.length
        ? listed(
            state.consumers.map((c) => `${c.consumer}: ${c.pending} pending, ${c.unacked} unacknowledged`),
          )
        : '',
    },
    {
      name: 'every activity event stored once',
      ok: !activity.missing.length && activity.stored === activity.events,
      detail:
        `${activity.stored} of ${activity.events} events stored` +
        (activity.publishedTwice ? `, ${activity.publishedTwice} published twice and stored once` : '') +
        (activity.missing.length ? `; missing: ${listed(activity.missing)}` : ''),
    },
    {
      name: "every posted transfer's activity stored",
      ok: !activity.unannounced.length,
      detail:
        `${activity.announced - activity.unannounced.length} of ${activity.announced} announced activities stored` +
        (activity.unannounced.length ? `; missing: ${listed(activity.unannounced)}` : ''),
    },
  ];
}

const listed = (items: string[], n = 5) =>
  items.slice(0, n).join('; ') + (items.length > n ? `; … ${items.length - n} more` : '');
const withDefault = (i: Invariant, detail: string): Invariant => (i.ok ? { ...i, detail } : i);

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`chaos-check: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(2);
  },
);
