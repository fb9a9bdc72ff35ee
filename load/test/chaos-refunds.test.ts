import { ORDER_MESSAGES } from '@qm/contracts/rest';
import { parseOpLog } from '../chaos/oplog';
import { type EscrowFact, refundEffect, refundOrderOf, verifyRefunds } from '../chaos/refunds';
import type { OrderFact } from '../chaos/verify';

// The chaos checker's judgement of refunds (docs/adr/028) on hand-made logs and data: a run whose
// refund calls did what they answered passes, and each kind of lost, extra or unfinished refund is
// caught and named.

const line = (record: object) =>
  JSON.stringify({
    level: 'info',
    msg: JSON.stringify(record),
    source: 'console',
    time: '2026-11-28T11:00:00Z',
  });

const BUYER = 7;
let at = 0;

/** One logged refund call (as load/chaos.js writes it) on `order`, with its outcome and answer. */
function call(
  id: string,
  op: 'refund-request' | 'refund-approve' | 'refund-reject',
  order: number,
  outcome: 'ok' | 'failed' | 'unknown' | 'unended',
  {
    status = outcome === 'ok' ? 200 : outcome === 'failed' ? 409 : 0,
    message,
  }: { status?: number; message?: string } = {},
) {
  const request = op === 'refund-request';
  const invoke = {
    chaos: 'invoke',
    id,
    op,
    user: request ? BUYER : undefined,
    method: request ? 'POST' : 'PATCH',
    path: request ? `/api/orders/${order}/refund-request` : `/api/admin/refunds/${order}`,
    body: request
      ? { reason: 'Not as described' }
      : op === 'refund-approve'
        ? { decision: 'approved' }
        : { decision: 'rejected', reason: 'Used' },
    at: ++at,
  };
  if (outcome === 'unended') return [invoke];
  return [
    invoke,
    { chaos: 'end', id, op, outcome, status, at: ++at, answer: message ? { message } : { id: order } },
  ];
}

const logOf = (...records: object[]) =>
  parseOpLog(
    [{ chaos: 'user', id: BUYER, username: 'cbuy_7', cookie: 'qm_session=a' }, ...records].map(line).join(''),
  );

type Refund = OrderFact['refund'];
const requested: Refund = { status: 'requested', held: true, settled: false };
const approved: Refund = { status: 'approved', held: true, settled: true };
const rejected: Refund = { status: 'rejected', held: true, settled: true };

/** An order of the buyer for ₹10.00, completed, refunded or with `refund` as given. */
function order(id: number, refund?: Refund): OrderFact {
  const refunded = refund?.status === 'approved';
  return {
    id,
    reference: `order-${id}`,
    buyerId: BUYER,
    productId: 3,
    quantity: 1,
    totalPaise: 1000,
    status: refunded ? 'refunded' : 'completed',
    paymentStatus: refunded ? 'refunded' : 'paid',
    ...(refund ? { refund } : {}),
  };
}

/** Each order's escrow as its refund leaves it: frozen while open, empty once approved. */
function escrowsOf(orders: OrderFact[], over: Record<number, Partial<EscrowFact>> = {}) {
  return new Map(
    orders.map((o) => [
      o.reference!,
      {
        reference: o.reference!,
        available: o.refund?.status === 'approved' ? 0 : 1000,
        frozen: o.refund?.status === 'requested' || o.refund?.status === 'approved',
        ...over[o.id],
      },
    ]),
  );
}

const kinds = (v: ReturnType<typeof verifyRefunds>) => v.breaks.map((b) => b.invariant).sort();

describe('verifyRefunds', () => {
  it('passes a run whose refund calls did what they answered, unknown ones either way', () => {
    const orders = [
      order(100, approved),
      order(101, rejected),
      order(102, requested),
      order(103),
      order(104, approved),
    ];
    const log = logOf(
      ...call('1-1', 'refund-request', 100, 'ok', { status: 201 }),
      ...call('1-2', 'refund-request', 100, 'failed', { message: ORDER_MESSAGES.refundAlreadyRequested }),
      ...call('1-3', 'refund-request', 101, 'unknown'),
      ...call('1-4', 'refund-request', 102, 'ok', { status: 201 }),
      ...call('1-5', 'refund-request', 103, 'unknown'), // never landed
      ...call('1-6', 'refund-request', 104, 'unended'),
      ...call('2-1', 'refund-approve', 100, 'ok'),
      ...call('2-2', 'refund-reject', 100, 'failed', { message: ORDER_MESSAGES.refundAlreadyDecided }),
      ...call('2-3', 'refund-reject', 101, 'ok'),
      ...call('2-4', 'refund-approve', 104, 'unknown'),
      ...call('2-5', 'refund-approve', 102, 'unknown'), // never landed: the request is still open
    );
    const v = verifyRefunds(log, orders, escrowsOf(orders));
    expect(v.breaks).toEqual([]);
    expect(v.refunds).toEqual({ open: 1, approved: 2, rejected: 1 });
    expect(v.calls).toEqual({ 'refund-request': 6, 'refund-approve': 3, 'refund-reject': 2 });
  });

  it('fails a request answered 201 that left no refund, and one refused as already requested with none', () => {
    const orders = [order(100), order(101)];
    const log = logOf(
      ...call('1-1', 'refund-request', 100, 'ok', { status: 201 }),
      ...call('1-2', 'refund-request', 101, 'failed', { message: ORDER_MESSAGES.refundAlreadyRequested }),
    );
    expect(kinds(verifyRefunds(log, orders, escrowsOf(orders)))).toEqual(['refund-answer', 'refund-answer']);
  });

  it('fails an approval answered ok whose order is not refunded, and a rejection answered ok whose order is', () => {
    const orders = [order(100, requested), order(101, approved)];
    const log = logOf(
      ...call('1-1', 'refund-request', 100, 'ok'),
      ...call('1-2', 'refund-request', 101, 'ok'),
      ...call('2-1', 'refund-approve', 100, 'ok'),
      ...call('2-2', 'refund-approve', 101, 'unknown'),
      ...call('2-3', 'refund-reject', 101, 'ok'),
    );
    const v = verifyRefunds(log, orders, escrowsOf(orders));
    expect(v.breaks).toEqual([
      expect.objectContaining({
        invariant: 'refund-answer',
        detail: expect.stringContaining('refund-approve of order 100'),
      }),
      expect.objectContaining({
        invariant: 'refund-answer',
        detail: expect.stringContaining('refund-reject of order 101'),
      }),
    ]);
  });

  it('fails a decision refused as already decided while the request is still open', () => {
    const orders = [order(100, requested)];
    const log = logOf(
      ...call('1-1', 'refund-request', 100, 'ok'),
      ...call('2-1', 'refund-approve', 100, 'failed', { message: ORDER_MESSAGES.refundAlreadyDecided }),
    );
    expect(kinds(verifyRefunds(log, orders, escrowsOf(orders)))).toEqual(['refund-answer']);
  });

  it('fails a refund, an approval or a rejection that no call answered ok or left unknown', () => {
    const orders = [order(100, requested), order(101, approved), order(102, rejected)];
    const log = logOf(
      ...call('1-1', 'refund-request', 100, 'failed', { status: 400, message: 'window closed' }),
      ...call('1-2', 'refund-request', 101, 'ok'),
      ...call('1-3', 'refund-request', 102, 'ok'),
      ...call('2-1', 'refund-approve', 101, 'failed', { status: 503 }),
      ...call('2-2', 'refund-approve', 102, 'unknown'),
    );
    const v = verifyRefunds(log, orders, escrowsOf(orders));
    expect(v.breaks.map((b) => b.detail)).toEqual([
      expect.stringContaining('order 100 of buyer 7 has a refund (requested) but no request call'),
      expect.stringContaining('order 101 of buyer 7 is refunded, its refund approved, but no approval call'),
      expect.stringContaining('order 102 of buyer 7: its refund is rejected but no rejection call'),
    ]);
  });

  it('fails a refund left under way, or refunded without being approved', () => {
    const orders = [
      order(100, { status: 'approving', held: true, settled: false }),
      order(101, { status: 'rejected', held: true, settled: false }),
      order(102, { status: 'requested', held: null, settled: false }),
      { ...order(103), status: 'refunded', paymentStatus: 'refunded' },
    ];
    const log = logOf(
      ...[100, 101, 102].flatMap((id) => call(`1-${id}`, 'refund-request', id, 'ok')),
      ...call('2-1', 'refund-approve', 100, 'unknown'),
      ...call('2-2', 'refund-reject', 101, 'unknown'),
      ...call('2-3', 'refund-approve', 103, 'unknown'),
    );
    const v = verifyRefunds(
      log,
      orders,
      escrowsOf(orders, { 101: { frozen: false }, 102: { frozen: false } }),
    );
    expect(kinds(v)).toEqual(['refund-state', 'refund-state', 'refund-state', 'refund-state']);
  });

  it("fails a sale's proceeds held while no request is open, or let go while one is", () => {
    const orders = [order(100, requested), order(101, rejected), order(102), order(103, approved)];
    const log = logOf(
      ...[100, 101, 103].flatMap((id) => call(`1-${id}`, 'refund-request', id, 'ok')),
      ...call('2-1', 'refund-reject', 101, 'ok'),
      ...call('2-2', 'refund-approve', 103, 'ok'),
    );
    const escrows = escrowsOf(orders, {
      100: { frozen: false },
      101: { frozen: true },
      102: { frozen: true },
      103: { available: 1000 },
    });
    const v = verifyRefunds(log, orders, escrows);
    expect(v.breaks.map((b) => [b.invariant, b.detail.split(':')[0]])).toEqual([
      ['refund-proceeds', 'order 100 of buyer 7'],
      ['refund-proceeds', 'order 101 of buyer 7'],
      ['refund-proceeds', 'order 102 of buyer 7'],
      ['refund-proceeds', 'order 103 of buyer 7'],
    ]);
  });
});

describe('a refund call', () => {
  it('names its order by its path, and its effect is on that order', () => {
    const log = logOf(
      ...call('1-1', 'refund-request', 100, 'unknown'),
      ...call('2-1', 'refund-approve', 100, 'unknown'),
      ...call('2-2', 'refund-reject', 101, 'unknown'),
    );
    expect(log.ops.map(refundOrderOf)).toEqual([100, 100, 101]);
    expect(refundOrderOf({ op: 'purchase', path: '/api/orders' })).toBeUndefined();
    const byId = new Map([order(100, approved), order(101, requested)].map((o) => [o.id, o]));
    expect(log.ops.map((op) => refundEffect(op, byId))).toEqual([1, 1, 0]);
  });
});
