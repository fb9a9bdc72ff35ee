import { type OpLog, parseOpLog } from '../chaos/oplog';
import { type Effects, type Resolution, verifyMoney } from '../chaos/verify';

// The chaos checker's judgement (docs/adr/015) on hand-made logs and data: a run that lost or
// duplicated nothing passes, and each kind of duplicate or loss is caught and named.

/** A k6 JSON log line carrying one of load/chaos.js's records (not always one per line). */
const line = (record: object) =>
  JSON.stringify({
    level: 'info',
    msg: JSON.stringify(record),
    source: 'console',
    time: '2026-11-24T11:00:00Z',
  });

const users = [
  { chaos: 'user', id: 7, username: 'cbuy_7', cookie: 'qm_session=a' },
  { chaos: 'user', id: 8, username: 'cbuy_8', cookie: 'qm_session=b' },
];

function call(id: string, op: string, key: string, outcome: string, answer?: object, extra: object = {}) {
  const body = op === 'purchase' ? { productId: 3, quantity: 1, totalPrice: '10.00' } : { amount: '1.00' };
  return [
    { chaos: 'invoke', id, op, key, user: 7, method: 'POST', path: `/api/${op}`, body, at: 1, ...extra },
    ...(outcome === 'unended' ? [] : [{ chaos: 'end', id, op, outcome, status: 0, at: 2, answer }]),
  ];
}

/** The records written without a newline between them, as k6 does. */
const logOf = (...records: object[]) => parseOpLog([...users, ...records].map(line).join(''));

function effects(over: Partial<Effects> = {}): Effects {
  return { transfers: new Map(), orders: [], orderKeys: new Map(), topUps: [], escrows: new Map(), ...over };
}
const order = (id: number, status = 'completed') => ({ id, buyerId: 7, productId: 3, quantity: 1, status });
const resolved = (entries: [string, Resolution][]) => new Map(entries);

describe('the op log', () => {
  it('reads records run together without newlines, and an invoke without its end is unknown', () => {
    const log: OpLog = logOf(
      ...call('1-1', 'transfer', 'k1', 'ok'),
      ...call('1-2', 'transfer', 'k2', 'unended'),
    );
    expect([...log.users.keys()]).toEqual([7, 8]);
    expect(log.ops.map((o) => [o.id, o.outcome])).toEqual([
      ['1-1', 'ok'],
      ['1-2', 'unknown'],
    ]);
  });
});

describe('verifyMoney', () => {
  it('passes a run where every call took effect as answered and unknowns resolved to 0 or 1', () => {
    const log = logOf(
      ...call('1-1', 'transfer', 'k1', 'ok'),
      ...call('1-2', 'transfer', 'k2', 'failed'),
      ...call('1-3', 'transfer', 'k3', 'unknown'),
      ...call('1-4', 'purchase', 'k4', 'ok', { id: 100, status: 'completed' }),
      ...call('1-5', 'purchase', 'k5', 'unknown'),
    );
    const v = verifyMoney(
      log,
      effects({
        transfers: new Map([
          ['p2p:7:k1', { key: 'p2p:7:k1', state: 'posted' }],
          ['p2p:7:k2', { key: 'p2p:7:k2', state: 'failed' }],
          ['p2p:7:k3', { key: 'p2p:7:k3', state: 'posted' }],
        ]),
        orders: [order(100), order(101)],
        orderKeys: new Map([
          ['7:k4', [100]],
          ['7:k5', [101]],
        ]),
      }),
      resolved([
        ['1-3', { outcome: 'ok', status: 200, effectsBefore: 1 }],
        ['1-5', { outcome: 'ok', status: 201, answer: { id: 101, status: 'completed' }, effectsBefore: 1 }],
      ]),
    );
    expect(v.breaks).toEqual([]);
    expect(v.unknownResolved).toEqual({ zero: 0, one: 2, more: 0, unresolved: 0 });
  });

  it('fails a purchase key whose retry placed a second order beside the first (an orphan completed order)', () => {
    const log = logOf(...call('1-1', 'purchase', 'k1', 'unknown'));
    const v = verifyMoney(
      log,
      effects({ orders: [order(100), order(101)], orderKeys: new Map([['7:k1', [101]]]) }),
      resolved([
        ['1-1', { outcome: 'ok', status: 201, answer: { id: 101, status: 'completed' }, effectsBefore: 0 }],
      ]),
    );
    expect(v.breaks).toEqual([
      expect.objectContaining({
        invariant: 'no-orphan-effect',
        detail: expect.stringContaining('order 100'),
      }),
    ]);
  });

  it('fails a key answered with two different completed orders', () => {
    const log = logOf(...call('1-1', 'purchase', 'k1', 'ok', { id: 100, status: 'completed' }));
    const v = verifyMoney(
      log,
      effects({ orders: [order(100), order(101)], orderKeys: new Map([['7:k1', [101]]]) }),
      resolved([]),
    );
    expect(v.breaks.map((b) => b.invariant)).toContain('key-at-most-once');
  });

  it('fails an unknown purchase whose retry answered a second order beside the one that had landed', () => {
    // Before the retry the key had its order 100 (effectsBefore 1); the retry placed order 101.
    const v = verifyMoney(
      logOf(...call('1-2', 'purchase', 'k2', 'unknown')),
      effects({ orders: [order(100), order(101)], orderKeys: new Map([['7:k2', [101]]]) }),
      resolved([
        ['1-2', { outcome: 'ok', status: 201, answer: { id: 100, status: 'completed' }, effectsBefore: 1 }],
      ]),
    );
    expect(v.breaks.map((b) => b.invariant)).toEqual(
      expect.arrayContaining(['unknown-resolved', 'key-at-most-once']),
    );
    expect(v.unknownResolved.more).toBe(1);
  });

  it('fails an unknown call that stays unknown after the retries', () => {
    const v = verifyMoney(
      logOf(...call('1-1', 'transfer', 'k1', 'unknown')),
      effects(),
      resolved([['1-1', { outcome: 'unknown', status: 503, effectsBefore: 0 }]]),
    );
    expect(v.breaks).toEqual([expect.objectContaining({ invariant: 'unknown-resolved' })]);
    expect(v.unknownResolved.unresolved).toBe(1);
  });

  it('fails a transfer answered ok with no posted transfer (lost money), and one refused yet posted', () => {
    const v = verifyMoney(
      logOf(...call('1-1', 'transfer', 'k1', 'ok'), ...call('1-2', 'transfer', 'k2', 'failed')),
      effects({ transfers: new Map([['p2p:7:k2', { key: 'p2p:7:k2', state: 'posted' }]]) }),
      resolved([]),
    );
    expect(v.breaks.map((b) => b.invariant)).toEqual(['answer-matches-effect', 'answer-matches-effect']);
  });

  it('takes a purchase answered with a cancelled order as no effect, and fails one answered completed without it', () => {
    const log = logOf(
      ...call('1-1', 'purchase', 'k1', 'ok', { id: 100, status: 'cancelled' }),
      ...call('1-2', 'purchase', 'k2', 'ok', { id: 101, status: 'completed' }),
    );
    const v = verifyMoney(
      log,
      effects({ orders: [order(100, 'cancelled'), order(101, 'cancelled')] }),
      resolved([]),
    );
    expect(v.breaks).toEqual([
      expect.objectContaining({ invariant: 'answer-matches-effect', detail: expect.stringContaining('k2') }),
    ]);
  });

  it('counts a refunded order as its purchase having taken effect (docs/adr/028), and an unasked refunded one as an orphan', () => {
    const v = verifyMoney(
      logOf(
        ...call('1-1', 'purchase', 'k1', 'ok', { id: 100, status: 'completed' }),
        ...call('1-2', 'purchase', 'k2', 'unknown'),
      ),
      effects({ orders: [order(100, 'refunded'), order(101, 'refunded'), order(102, 'refunded')] }),
      resolved([
        ['1-2', { outcome: 'ok', status: 201, answer: { id: 101, status: 'refunded' }, effectsBefore: 1 }],
      ]),
    );
    expect(v.breaks).toEqual([
      expect.objectContaining({
        invariant: 'no-orphan-effect',
        detail: expect.stringContaining('order 102'),
      }),
    ]);
    expect(v.unknownResolved.one).toBe(1);
  });

  it('fails a posted transfer no call of the run asked for, and a top-up credited twice', () => {
    const v = verifyMoney(
      logOf(...call('1-1', 'create-order', 'k1:order', 'ok', { id: 'order_1' })),
      effects({
        transfers: new Map([['p2p:7:elsewhere', { key: 'p2p:7:elsewhere', state: 'posted' }]]),
        topUps: [{ id: 5, userId: 7, providerOrderId: 'order_1', credits: 2 }],
      }),
      resolved([]),
    );
    expect(v.breaks.map((b) => b.invariant).sort()).toEqual([
      'key-at-most-once',
      'key-at-most-once',
      'no-orphan-effect',
    ]);
  });
});

describe('verifyMoney: the orders stored under a purchase key (docs/adr/045)', () => {
  it('fails a key under which two orders are stored, however the calls were answered', () => {
    const log = logOf(...call('1-1', 'purchase', 'k1', 'ok', { id: 100, status: 'completed' }));
    const v = verifyMoney(
      log,
      effects({ orders: [order(100), order(101)], orderKeys: new Map([['7:k1', [100, 101]]]) }),
      resolved([]),
    );
    expect(v.breaks.map((b) => b.invariant)).toContain('key-at-most-once');
  });
});
