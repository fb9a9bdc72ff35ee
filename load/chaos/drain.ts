import type { Db, MongoClient } from 'mongodb';
import type { JetStreamManager } from 'nats';
import { SERVICES } from '../../packages/roster/src';

/**
 * After the run, before the checks: wait until the stack has finished what the kills interrupted —
 * every outbox empty (the relays published what was written), every durable consumer caught up
 * (nothing pending or unacknowledged), no wallet transfer in flight (the ledger's sweeper finishes
 * those a killed wallet left, and only then writes their events), every order final (the sagas'
 * sweepers settled the purchases cut short) and no refund under way (the refund sweeper held the
 * proceeds of every request and carried out every decision: docs/adr/028). Then the remaining state
 * is what the checks judge.
 */

export interface DrainState {
  outbox: { db: string; id: string; ageS: number }[];
  consumers: { stream: string; consumer: string; pending: number; unacked: number }[];
  /** Wallet transfers a driver or the ledger's sweeper still moves on (docs/adr/006). */
  transfersInFlight: number;
  ordersInSaga: number;
  /**
   * Refunds with work left (the orders service's `unsettledRefunds`): a request whose proceeds are
   * not held yet, an approval under way (`approving`), a rejection whose proceeds are not let go.
   */
  refundsUnderway: { id: number; status: string; held: boolean | null }[];
}

/** An order's states once its saga is over: refunded is a completed order paid back (docs/adr/028). */
export const FINAL_ORDER_STATUSES = ['completed', 'cancelled', 'refunded'];

/**
 * A transfer's states that its driver, or the sweeper after a crash, leaves within seconds; a
 * two-phase hold (`pending`) of an earlier build waits for its order or its timeout instead.
 */
const IN_FLIGHT = ['initiated', 'debited', 'posting', 'voiding', 'expiring'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const dbOf = (client: MongoClient, service: string) =>
  client.db(SERVICES.find((s) => s.name === service)!.database);

export const serviceDbs = (client: MongoClient): Db[] =>
  SERVICES.filter((s) => !s.planned).map((s) => client.db(s.database));

export async function drainState(
  client: MongoClient,
  jsm: JetStreamManager,
  now = Date.now(),
): Promise<DrainState> {
  const outbox: DrainState['outbox'] = [];
  for (const db of serviceDbs(client))
    for await (const e of db
      .collection<{ _id: string; createdAt: Date }>('outbox')
      .find({}, { projection: { _id: 1, createdAt: 1 } }))
      outbox.push({
        db: db.databaseName,
        id: e._id,
        ageS: Math.round((now - new Date(e.createdAt).getTime()) / 1000),
      });
  const consumers: DrainState['consumers'] = [];
  for await (const s of jsm.streams.list())
    for await (const c of jsm.consumers.list(s.config.name))
      if (c.num_pending > 0 || c.num_ack_pending > 0)
        consumers.push({
          stream: s.config.name,
          consumer: c.name,
          pending: c.num_pending,
          unacked: c.num_ack_pending,
        });
  const transfersInFlight = await dbOf(client, 'wallet')
    .collection('transfers')
    .countDocuments({ state: { $in: IN_FLIGHT } });
  const orders = dbOf(client, 'orders').collection<{
    id: number;
    refund?: { status: string; held?: boolean | null };
  }>('orders');
  const ordersInSaga = await orders.countDocuments({ status: { $nin: FINAL_ORDER_STATUSES } });
  const refundsUnderway: DrainState['refundsUnderway'] = [];
  for await (const o of orders.find(
    {
      'refund.settled': false,
      $or: [{ 'refund.status': { $ne: 'requested' } }, { 'refund.held': null }],
    },
    { projection: { _id: 0, id: 1, 'refund.status': 1, 'refund.held': 1 } },
  ))
    refundsUnderway.push({ id: o.id, status: o.refund?.status ?? '', held: o.refund?.held ?? null });
  return { outbox, consumers, transfersInFlight, ordersInSaga, refundsUnderway };
}

export const drained = (s: DrainState) =>
  !s.outbox.length &&
  !s.consumers.length &&
  !s.transfersInFlight &&
  !s.ordersInSaga &&
  !s.refundsUnderway.length;

/** Polls until drained or `timeoutMs`; answers the last state and how long it took. */
export async function drain(
  client: MongoClient,
  jsm: JetStreamManager,
  { timeoutMs = 180_000, onWait }: { timeoutMs?: number; onWait?: (s: DrainState) => void } = {},
): Promise<{ state: DrainState; ms: number }> {
  const started = Date.now();
  let lastReport = 0;
  for (;;) {
    const state = await drainState(client, jsm);
    if (drained(state) || Date.now() - started > timeoutMs) return { state, ms: Date.now() - started };
    if (onWait && Date.now() - lastReport > 10_000) {
      lastReport = Date.now();
      onWait(state);
    }
    await sleep(1000);
  }
}
