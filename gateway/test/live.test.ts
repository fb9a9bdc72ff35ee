import { CATALOG_SUBJECTS, ORDERS_SUBJECTS, SUPPORT_SUBJECTS, WALLET_SUBJECTS } from '@qm/contracts/events';
import { createLiveBuffer } from '../src/live/buffer';
import { audienceOf, concerns, type LiveEvent, toLiveEvent } from '../src/live/events';

const order = (id: number, buyerId: number, sellerId: number): LiveEvent => ({
  type: 'order',
  data: { id, status: 'completed', buyerId, sellerId },
});
const product = (productId: number): LiveEvent => ({ type: 'product', data: { productId } });

describe('live events: who hears what', () => {
  it('tells everyone of a product, its two parties of an order, its receiver of a transfer', () => {
    expect(audienceOf(product(1))).toBe('everyone');
    expect(audienceOf(order(9, 3, 4))).toEqual([3, 4]);
    const transfer = toLiveEvent(WALLET_SUBJECTS.transferReceived, {
      receiverId: 5,
      senderUsername: 'sepoy',
      amountPaise: 1025,
      reference: 'p2p:3:k',
    });
    expect(audienceOf(transfer!)).toEqual([5]);
    expect(concerns(transfer!, 3)).toBe(false);
    expect(concerns(order(9, 3, 4), 5)).toBe(false);
  });

  it("tells a query's sender of its reply, without the administrator or the response; none when sent signed out", () => {
    const replied = {
      queryId: 12,
      status: 'resolved',
      byUserId: 1,
      at: '2026-11-24T10:00:00.000Z',
      subject: 'Delivery to Leh',
    };
    const told = toLiveEvent(SUPPORT_SUBJECTS.replied, { ...replied, userId: 8 });
    expect(told).toEqual({
      type: 'query',
      data: { id: 12, status: 'resolved', subject: 'Delivery to Leh', userId: 8 },
    });
    expect(audienceOf(told!)).toEqual([8]);
    expect(concerns(told!, 1)).toBe(false);
    expect(toLiveEvent(SUPPORT_SUBJECTS.replied, replied)).toBeUndefined();
    expect(
      toLiveEvent(SUPPORT_SUBJECTS.replied, { ...replied, userId: 8, status: 'pending' }),
    ).toBeUndefined();
  });

  it('passes on only public market data of a product: its id, and its stock when the event says it', () => {
    const created = toLiveEvent(CATALOG_SUBJECTS.created, {
      id: 7,
      name: 'Helmet',
      pricePaise: 100,
      stock: 12,
      manufacturerId: 4,
    });
    expect(created).toEqual({ type: 'product', data: { productId: 7, stock: 12 } });
    const moved = toLiveEvent(CATALOG_SUBJECTS.updated, {
      id: 7,
      manufacturerId: 4,
      stockDelta: -2,
      reference: 'r',
    });
    expect(moved).toEqual({ type: 'product', data: { productId: 7 } });
    expect(toLiveEvent(CATALOG_SUBJECTS.deleted, { id: 7, manufacturerId: 4, name: 'x' })).toEqual({
      type: 'product',
      data: { productId: 7, deleted: true },
    });
  });

  it('passes on an order without its money or reference, and ignores malformed or other events', () => {
    const ended = toLiveEvent(ORDERS_SUBJECTS.cancelled, {
      id: 2,
      reference: 'secret',
      productId: 1,
      buyerId: 3,
      sellerId: 4,
      quantity: 1,
      totalPaise: 500,
      status: 'cancelled',
    });
    expect(ended).toEqual({ type: 'order', data: { id: 2, status: 'cancelled', buyerId: 3, sellerId: 4 } });
    expect(toLiveEvent(ORDERS_SUBJECTS.completed, { id: 2, buyerId: 'x', sellerId: 4 })).toBeUndefined();
    expect(toLiveEvent('activity.recorded', { userId: 3 })).toBeUndefined();
    expect(toLiveEvent(CATALOG_SUBJECTS.created, null)).toBeUndefined();
  });

  it("passes on a refund's step to both parties without its reasons or reference", () => {
    const decided = toLiveEvent(ORDERS_SUBJECTS.refundRejected, {
      id: 9,
      reference: 'order-9',
      buyerId: 3,
      sellerId: 4,
      totalPaise: 2000,
      status: 'rejected',
      reason: 'Arrived damaged',
      decisionReason: 'Opened and used',
      at: '2026-11-28T10:00:00.000Z',
    });
    expect(decided).toEqual({
      type: 'refund',
      data: { id: 9, status: 'rejected', totalPaise: 2000, buyerId: 3, sellerId: 4 },
    });
    expect(audienceOf(decided!)).toEqual([3, 4]);
    expect(
      toLiveEvent(ORDERS_SUBJECTS.refundApproved, { id: 9, buyerId: 3, sellerId: 4, status: 'refunded' }),
    ).toBeUndefined();
  });
});

describe('live buffer: resuming after Last-Event-ID', () => {
  it('replays exactly the events after the id, in order', () => {
    const buffer = createLiveBuffer({ boot: 'b1' });
    const first = buffer.push(product(1));
    const second = buffer.push(order(2, 3, 4));
    const third = buffer.push(product(3));
    expect([first.id, second.id, third.id]).toEqual(['b1-1', 'b1-2', 'b1-3']);
    expect(buffer.after('b1-1')).toEqual({ events: [second, third] });
    expect(buffer.after('b1-3')).toEqual({ events: [] });
    expect(buffer.lastId()).toBe('b1-3');
  });

  it('keeps at most maxEvents: an id older than what is kept is a gap', () => {
    const buffer = createLiveBuffer({ boot: 'b1', maxEvents: 2 });
    for (let i = 1; i <= 4; i++) buffer.push(product(i));
    expect(buffer.size).toBe(2);
    expect(buffer.after('b1-2')).toEqual({
      events: [expect.objectContaining({ seq: 3 }), expect.objectContaining({ seq: 4 })],
    });
    expect(buffer.after('b1-1')).toBe('gap');
  });

  it('forgets events older than maxAgeMs', () => {
    let now = 0;
    const buffer = createLiveBuffer({ boot: 'b1', maxAgeMs: 1000, now: () => now });
    buffer.push(product(1));
    now = 500;
    buffer.push(product(2));
    now = 1200;
    expect(buffer.after('b1-1')).toEqual({ events: [expect.objectContaining({ seq: 2 })] });
    expect(buffer.after('b1-0')).toBe('gap');
  });

  it('an id of another process (a restart or another replica) or a garbled one is a gap', () => {
    const buffer = createLiveBuffer({ boot: 'b2' });
    buffer.push(product(1));
    expect(buffer.after('b1-1')).toBe('gap');
    expect(buffer.after('b2-9')).toBe('gap');
    expect(buffer.after('nonsense')).toBe('gap');
    // A stream that connected before any event resumes from the start without a gap.
    expect(buffer.after('b2-0')).toEqual({ events: [expect.objectContaining({ seq: 1 })] });
  });
});
