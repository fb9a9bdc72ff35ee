import type { Op, OpLog, Outcome } from './oplog';
import type { EscrowFact } from './refunds';

/**
 * What the chaos run proves about its money calls (docs/adr/015), from the operation log and the
 * services' own data, read after the stack healed and drained. Pure: load/chaos/effects.ts reads
 * the data, this judges it, so a test can feed it a log with a known duplicate.
 *
 * A call's effect, per kind:
 * - transfer: the posted P2P transfer under `p2p:<caller>:<key>` (the wallet's ledger key);
 * - purchase: the completed order(s) answered for its key — by the call, by a retry with the same
 *   key, or stored under the key (the order is its request's record, docs/adr/045; a unique index
 *   allows one, and this reads every one there is); a completed order of a buyer that no key
 *   answered is an effect of no call, i.e. a second effect of one of them. A refunded order was
 *   completed first (docs/adr/028): its purchase took effect, and its refund is judged apart
 *   (load/chaos/refunds.ts);
 * - top-up (create-order, then verify-payment): the credits of the top-up its provider order names.
 */

export interface TransferFact {
  key: string;
  state: string;
}
export interface OrderFact {
  id: number;
  buyerId: number;
  productId: number;
  quantity: number;
  status: string;
  /** What the refund checks read (load/chaos/refunds.ts). */
  reference?: string;
  totalPaise?: number;
  paymentStatus?: string;
  refund?: { status: string; held?: boolean | null; settled?: boolean };
}

/** The statuses of an order whose purchase took effect: completed, and refunded after it. */
export const PURCHASED = new Set(['completed', 'refunded']);
const purchased = (o: OrderFact | undefined) => o !== undefined && PURCHASED.has(o.status);
export interface TopUpFact {
  id: number;
  userId: number;
  providerOrderId: string;
  /** Posted top-up credits of this top-up. */
  credits: number;
}

export interface Effects {
  /** P2P transfers of the run's users, by ledger key. */
  transfers: Map<string, TransferFact>;
  /** Orders of the run's buyers. */
  orders: OrderFact[];
  /** `<buyer>:<key>` → the ids of the orders stored under that request key (its `requestKey`). */
  orderKeys: Map<string, number[]>;
  topUps: TopUpFact[];
  /** The sales' escrows of the run's buyers, by order reference. */
  escrows: Map<string, EscrowFact>;
}

/** The answer of a retry of an unknown call with the same key and body (load/chaos/resolve.ts). */
export interface Resolution {
  outcome: Outcome;
  status: number;
  answer?: Record<string, string | number | boolean>;
  /** The op's effect count just before the retry; the retry must not add to a landed effect. */
  effectsBefore: number;
}

export interface Break {
  invariant: InvariantName;
  detail: string;
}

export type InvariantName =
  'unknown-resolved' | 'key-at-most-once' | 'answer-matches-effect' | 'no-orphan-effect';

export const MONEY_OPS = new Set(['purchase', 'transfer', 'create-order', 'verify-payment']);

export const transferKey = (op: Pick<Op, 'user' | 'key'>) => `p2p:${op.user}:${op.key}`;
export const orderKey = (op: Pick<Op, 'user' | 'key'>) => `${op.user}:${op.key}`;

/** Completed orders per (buyer, key), and the completed orders no key accounts for. */
export function purchaseEffects(ops: Op[], effects: Effects, resolutions: Map<string, Resolution>) {
  const orderById = new Map(effects.orders.map((o) => [o.id, o]));
  const answeredIds = new Map<string, Set<number>>(); // op key → order ids answered for it
  for (const op of ops) {
    if (op.op !== 'purchase' || !op.key) continue;
    const ids = answeredIds.get(orderKey(op)) ?? new Set<number>();
    const answers = [op.outcome === 'ok' ? op.answer : undefined, resolutions.get(op.id)?.answer];
    for (const a of answers) if (a && typeof a.id === 'number') ids.add(a.id);
    for (const id of effects.orderKeys.get(orderKey(op)) ?? []) ids.add(id);
    answeredIds.set(orderKey(op), ids);
  }
  const completedOf = (k: string) =>
    [...(answeredIds.get(k) ?? [])].filter((id) => purchased(orderById.get(id)));
  const accounted = new Set([...answeredIds.values()].flatMap((s) => [...s]));
  const orphans = effects.orders.filter((o) => purchased(o) && !accounted.has(o.id));
  return { completedOf, answeredIds, orphans };
}

/** The number of times a money call took effect, as the data shows it now. */
export function effectCount(op: Op, effects: Effects, answeredIds?: Map<string, Set<number>>): number {
  switch (op.op) {
    case 'transfer':
      return effects.transfers.get(transferKey(op))?.state === 'posted' ? 1 : 0;
    case 'purchase': {
      const ids = answeredIds?.get(orderKey(op)) ?? new Set<number>();
      for (const id of effects.orderKeys.get(orderKey(op)) ?? []) ids.add(id);
      if (op.outcome === 'ok' && typeof op.answer?.id === 'number') ids.add(op.answer.id);
      const completed = new Set(effects.orders.filter(purchased).map((o) => o.id));
      return [...ids].filter((id) => completed.has(id)).length;
    }
    case 'create-order':
    case 'verify-payment': {
      const orderId = op.op === 'create-order' ? op.answer?.id : op.orderId;
      if (orderId === undefined) return 0;
      return effects.topUps.find((t) => t.providerOrderId === orderId)?.credits ?? 0;
    }
    default:
      return 0;
  }
}

export interface Verdict {
  breaks: Break[];
  /** Unknown money calls by what the data says they did. */
  unknownResolved: { zero: number; one: number; more: number; unresolved: number };
  moneyOps: number;
}

export function verifyMoney(log: OpLog, effects: Effects, resolutions: Map<string, Resolution>): Verdict {
  const breaks: Break[] = [];
  const broke = (invariant: InvariantName, detail: string) => breaks.push({ invariant, detail });
  const money = log.ops.filter((o) => MONEY_OPS.has(o.op) && o.key && o.user !== undefined);
  const { answeredIds, orphans } = purchaseEffects(money, effects, resolutions);
  const unknownResolved = { zero: 0, one: 0, more: 0, unresolved: 0 };

  // Calls under one key (a client's retries) share one effect.
  const byKey = new Map<string, Op[]>();
  for (const op of money) {
    const k = `${op.op}:${op.user}:${op.key}`;
    byKey.set(k, [...(byKey.get(k) ?? []), op]);
  }

  for (const calls of byKey.values()) {
    const first = calls[0]!;
    const n = Math.max(...calls.map((c) => effectCount(c, effects, answeredIds)));
    const name = `${first.op} ${first.key} of user ${first.user}`;
    if (n > 1) broke('key-at-most-once', `${name}: ${n} effects under one key`);
    if (first.op === 'purchase') {
      const ids = [...(answeredIds.get(orderKey(first)) ?? [])];
      const completed = ids.filter((id) => effects.orders.some((o) => o.id === id && purchased(o)));
      if (ids.length > 1)
        broke(
          'key-at-most-once',
          `${name}: answered with orders ${ids.join(', ')} (${completed.length} completed)`,
        );
    }
    for (const c of calls) {
      const res = resolutions.get(c.id);
      if (c.outcome === 'unknown') {
        if (!res || res.outcome === 'unknown') {
          unknownResolved.unresolved++;
          broke('unknown-resolved', `${name} (call ${c.id}): still unknown after retries`);
          continue;
        }
        const after = effectCount(c, effects, answeredIds);
        if (after > 1) unknownResolved.more++;
        else if (after === 1) unknownResolved.one++;
        else unknownResolved.zero++;
        if (after > 1) broke('unknown-resolved', `${name} (call ${c.id}): ${after} effects`);
        if (res.effectsBefore > 0 && after > res.effectsBefore)
          broke(
            'unknown-resolved',
            `${name} (call ${c.id}): the retry added an effect to one that had landed (${res.effectsBefore} → ${after})`,
          );
        checkAnswer(c, res.outcome, res.answer, after, name, broke);
      } else {
        checkAnswer(c, c.outcome, c.answer, effectCount(c, effects, answeredIds), name, broke);
      }
    }
  }

  for (const o of orphans) {
    const suspects = money.filter(
      (c) =>
        c.op === 'purchase' &&
        c.user === o.buyerId &&
        (c.body as { productId?: number; quantity?: number } | undefined)?.productId === o.productId &&
        (c.body as { quantity?: number } | undefined)?.quantity === o.quantity,
    );
    broke(
      'no-orphan-effect',
      `order ${o.id} of buyer ${o.buyerId} is ${o.status} but no call's key answers it` +
        (suspects.length
          ? ` (calls for that product and quantity: ${suspects.map((s) => `${s.key} ${s.outcome}`).join(', ')})`
          : ''),
    );
  }
  const runKeys = new Set(money.filter((o) => o.op === 'transfer').map(transferKey));
  for (const [key, t] of effects.transfers)
    if (t.state === 'posted' && !runKeys.has(key))
      broke('no-orphan-effect', `transfer ${key} is posted but no call of the run has its key`);
  for (const t of effects.topUps)
    if (t.credits > 1)
      broke('key-at-most-once', `top-up ${t.id} of user ${t.userId} credited ${t.credits} times`);

  return { breaks, unknownResolved, moneyOps: money.length };
}

/**
 * An answer must match the data: ok → the effect landed (a purchase answered pending may still
 * have been cancelled), a definite refusal → none. verify-payment's refusal may still see the
 * webhook credit the top-up, and create-order moves no money, so only their excess counts.
 */
function checkAnswer(
  op: Op,
  outcome: Outcome,
  answer: Op['answer'],
  n: number,
  name: string,
  broke: (i: InvariantName, d: string) => void,
) {
  if (op.op === 'create-order' || op.op === 'verify-payment') {
    if (op.op === 'verify-payment' && outcome === 'ok' && n !== 1)
      broke('answer-matches-effect', `${name}: verified, but its top-up was credited ${n} times`);
    return;
  }
  if (outcome === 'ok' && op.op === 'purchase') {
    // A purchase answers its order as it is: completed (or refunded since) has its effect, cancelled
    // none (a replayed key answers the order as it is now, e.g. cancelled by the sweeper since),
    // pending either.
    const status = String(answer?.status);
    const expected = PURCHASED.has(status) ? 1 : status === 'cancelled' ? 0 : undefined;
    if (expected === undefined ? n > 1 : n !== expected)
      broke('answer-matches-effect', `${name}: answered ${String(answer?.status)} order, yet ${n} effects`);
  } else if (outcome === 'ok') {
    if (n !== 1) broke('answer-matches-effect', `${name}: answered ok, yet ${n} effects`);
  } else if (outcome === 'failed' && n !== 0) {
    broke('answer-matches-effect', `${name}: refused (${op.status}), yet ${n} effects`);
  }
}
