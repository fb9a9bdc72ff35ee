import type { Db } from 'mongodb';
import type { EscrowFact } from './refunds';
import type { Effects, OrderFact, TopUpFact, TransferFact } from './verify';

/**
 * Reads the run's effects from the services' own databases, read-only: the P2P transfers, top-ups
 * and sale escrows of the wallet, and the orders (with their refunds and the request keys they were
 * placed under). Only documents of `users` (the run's users) are read, so a stack with other
 * data checks the same.
 */
export async function readEffects(dbs: { wallet: Db; orders: Db }, users: number[]): Promise<Effects> {
  const accounts = users.map((u) => `user:${u}`);
  const transfers = new Map<string, TransferFact>();
  for await (const t of dbs.wallet
    .collection<{ key: string; state: string }>('transfers')
    .find({ kind: 'p2p', debitAccount: { $in: accounts } }, { projection: { _id: 0, key: 1, state: 1 } }))
    transfers.set(t.key, { key: t.key, state: t.state });

  const orders: OrderFact[] = [];
  const orderKeys = new Map<string, number[]>();
  for await (const o of dbs.orders.collection<OrderFact>('orders').find(
    { buyerId: { $in: users } },
    {
      projection: {
        _id: 0,
        id: 1,
        reference: 1,
        buyerId: 1,
        productId: 1,
        quantity: 1,
        totalPaise: 1,
        status: 1,
        paymentStatus: 1,
        'refund.status': 1,
        'refund.held': 1,
        'refund.settled': 1,
        requestKey: 1,
      },
    },
  )) {
    const { requestKey, ...order } = o as OrderFact & { requestKey?: string };
    orders.push(order);
    // Every order stored under a request key (`<buyer>:<Idempotency-Key>`), the key's record.
    if (requestKey) orderKeys.set(requestKey, [...(orderKeys.get(requestKey) ?? []), o.id]);
  }

  // The sales' escrows (docs/adr/028): where a purchase's proceeds wait out the refund window.
  const escrows = new Map<string, EscrowFact>();
  for await (const e of dbs.wallet
    .collection<{ reference: string; available: number; frozen?: boolean }>('accounts')
    .find(
      { kind: 'escrow', buyerId: { $in: users } },
      { projection: { reference: 1, available: 1, frozen: 1 } },
    ))
    escrows.set(e.reference, { reference: e.reference, available: e.available, frozen: e.frozen === true });

  // Top-ups and their posted credits (a credit's description names its top-up: services/wallet
  // app/topups.ts), counted per top-up rather than trusted from the top-up's own transferId.
  const credits = new Map<number, number>();
  for await (const t of dbs.wallet
    .collection<{ description: string; state: string }>('transfers')
    .find(
      { kind: 'topup', state: 'posted', creditAccount: { $in: accounts } },
      { projection: { description: 1 } },
    )) {
    const id = /^Top-up (\d+) via /.exec(t.description)?.[1];
    if (id) credits.set(Number(id), (credits.get(Number(id)) ?? 0) + 1);
  }
  const topUps: TopUpFact[] = [];
  for await (const t of dbs.wallet
    .collection<{ _id: number; userId: number; providerOrderId: string }>('topups')
    .find({ userId: { $in: users } }, { projection: { _id: 1, userId: 1, providerOrderId: 1 } }))
    topUps.push({
      id: t._id,
      userId: t.userId,
      providerOrderId: t.providerOrderId,
      credits: credits.get(t._id) ?? 0,
    });
  return { transfers, orders, orderKeys, topUps, escrows };
}
