// What the services' periodic questions, and the reads on request paths that asked like them, cost as
// history grows (docs/adr/042, 013): each asked as it was before and as it is now, through the services' own stores, on
// a scratch database with the indexes the services declare (the engine's GIN indexes locally), priced
// in the same run's bare-update equivalents (BUE). History is what a marketplace accumulates: escrows
// of released sales, users long approved, orders long done with a refund now and then, sessions of
// people signed in.
//
//   npm run bench:history [-- 500,2000,5000]      (a running stack's databases; loopback only)
import { connectMongo, ensureIndexes, LOCAL_POSTGRESQL_URL, openStoreEngine, windowOf } from '@qm/platform';
import { INFRA } from '@qm/testkit';
import type { Connection } from 'mongoose';
import { mongoSessionStore, SESSION_WINDOW_MS } from '../gateway/src/session/store';
import { createUserStore } from '../services/identity/src/store/users';
import { USER_ROLES, USER_STATUSES } from '@qm/contracts/rest';
import { createOrderStore } from '../services/orders/src/store/orders';
import { createAccountStore, releaseWindowOf } from '../services/wallet/src/store/accounts';
import { createHistoryStore } from '../services/wallet/src/store/history';
import { loopbackOnly } from './lib/loopback.cjs';

const SIZES = (process.argv[2] ?? '500,2000,5000').split(',').map(Number);
const HOUR_AGO = new Date(Date.now() - 3_600_000);
type Ask = () => Promise<unknown>;
type Price = (what: string, asks: Record<string, Ask>) => Promise<void>;
const choice = INFRA.STORE_ENGINE;

/** A scratch database with the engine attached and the stores' indexes served, dropped after. */
async function scratch(name: string, use: (conn: Connection) => Promise<void>): Promise<void> {
  const conn = await connectMongo(INFRA.MONGO_URL, `qm_history_${name}_${Date.now().toString(36)}`);
  const engine = await openStoreEngine(conn, choice);
  try {
    await use(conn);
  } finally {
    await conn.dropDatabase();
    await engine.close();
    await conn.close();
  }
}
/** Grows `collection` to `size` documents made by `make(i)`. */
async function grow(
  conn: Connection,
  collection: string,
  size: number,
  make: (i: number) => object,
): Promise<void> {
  const col = conn.collection(collection);
  const have = await col.countDocuments();
  const docs = Array.from({ length: size - have }, (_, i) => make(have + i));
  for (let i = 0; i < docs.length; i += 500) await col.insertMany(docs.slice(i, i + 500) as never[]);
}

/** The wallet: escrows due (its sweep, every 5 s) and a seller's held proceeds. */
function walletQuestions(price: Price): Promise<void> {
  return scratch('wallet', async (conn) => {
    const accounts = createAccountStore(conn);
    await ensureIndexes(conn);
    const escrow = (i: number, held: boolean) => ({
      _id: `escrow:ORD-${i}`,
      kind: 'escrow',
      balance: held ? 10_000 : 0,
      available: held ? 10_000 : 0,
      held: 0,
      applied: [],
      holds: [],
      currency: 'INR',
      isActive: true,
      reference: `ORD-${i}`,
      sellerId: 7,
      buyerId: 9,
      releaseAt: held ? new Date(Date.now() + 86_400_000) : HOUR_AGO,
      releaseWindow: releaseWindowOf(held ? new Date(Date.now() + 86_400_000) : HOUR_AGO),
      ...(held ? { proceedsHeld: true } : {}),
      createdAt: HOUR_AGO,
      updatedAt: HOUR_AGO,
    });
    // One seller's sales: 20 within their refund window, the rest released.
    for (const size of SIZES) {
      await grow(conn, 'accounts', size, (i) => escrow(i, i < 20));
      const oldFunded = { kind: 'escrow', available: { $gt: 0 } };
      const now = new Date();
      await price(`escrows due, ${size} escrows made`, {
        before: () =>
          accounts.model
            .find({ ...oldFunded, frozen: { $ne: true }, releaseAt: { $lte: now } }, null, { limit: 200 })
            .lean()
            .exec(),
        'catch-up (hourly)': () => accounts.dueEscrows(now, 200),
        'a window (every 10 s)': () => accounts.escrowsDueIn(releaseWindowOf(now) - 1),
      });
      await price(`a seller's held proceeds (GET /api/wallet), ${size} sales`, {
        before: () =>
          accounts.model
            .find({ ...oldFunded, sellerId: 7 })
            .lean()
            .exec(),
        now: () => accounts.heldProceeds(7),
      });
    }
  });
}

/**
 * The wallet's administrators' list of wallets and their completed amount, and a user's lines of one
 * status (`GET /api/transactions?status=`).
 */
function walletListQuestions(price: Price): Promise<void> {
  return scratch('wallet_lists', async (conn) => {
    const accounts = createAccountStore(conn);
    const history = createHistoryStore(conn);
    await ensureIndexes(conn);
    const wallet = (i: number) => ({
      _id: `user:${i + 1}`,
      kind: 'user',
      userId: i + 1,
      walletId: i + 1,
      username: `user${i + 1}`,
      balance: 0,
      available: 0,
      held: 0,
      applied: [],
      holds: [],
      currency: 'INR',
      isActive: true,
      createdAt: HOUR_AGO,
      updatedAt: HOUR_AGO,
    });
    // One manufacturer's sales, each a completed line of theirs.
    const line = (i: number) => ({
      _id: `hold:ORD-${i}:in`,
      id: i + 1,
      userId: 7,
      amount: 10_000,
      type: 'credit',
      status: 'completed',
      description: 'Sale: Field Radio × 1',
      counterparty: 'army_buyer',
      transferId: `t${i}`,
      transferReference: `ORD-${i}`,
      providerOrderId: '',
      providerPaymentId: '',
      senderWalletId: null,
      receiverWalletId: null,
      createdAt: new Date(HOUR_AGO.getTime() + i * 1000),
      updatedAt: HOUR_AGO,
    });
    for (const size of SIZES) {
      await grow(conn, 'accounts', size, wallet);
      await grow(conn, 'transactions', size, line);
      await price(`the administrators' wallet list, ${size} wallets`, {
        before: () =>
          Promise.all([
            accounts.model
              .find({ kind: 'user' }, null, { sort: { walletId: 1 }, limit: 20 })
              .lean()
              .exec(),
            accounts.model.countDocuments({ kind: 'user' }).exec(),
          ]),
        now: () => accounts.usersPage(0, 20),
      });
      await price(`a seller's completed lines (GET /api/transactions?status=completed), ${size} sales`, {
        before: () =>
          Promise.all([
            history.model
              .find({ userId: 7, status: 'completed' }, null, { sort: { createdAt: -1, id: -1 }, limit: 20 })
              .lean()
              .exec(),
            history.model.countDocuments({ userId: 7, status: 'completed' }).exec(),
          ]),
        now: () => history.ofUser(7, 1, 20, 'completed'),
      });
      await price(`the completed amount (GET /api/admin/transactions), ${size} lines`, {
        before: () =>
          history.model
            .aggregate([
              { $match: { status: 'completed' } },
              { $group: { _id: null, total: { $sum: '$amount' } } },
            ])
            .exec(),
        now: () => history.completedAmount(),
      });
    }
  });
}

/** Identity's sweep (every 30 s) and the dashboard's user counts. */
function identityQuestions(price: Price): Promise<void> {
  return scratch('identity', async (conn) => {
    const users = createUserStore(conn);
    await ensureIndexes(conn);
    const user = (i: number) => ({
      id: i + 1,
      username: `user${i}`,
      usernameKey: `user${i}`,
      email: `user${i}@example.test`,
      emailKey: `user${i}@example.test`,
      firstName: 'Asha',
      lastName: 'Rao',
      role: i % 2 ? 'Army' : 'Manufacturer',
      status: i % 10 === 0 ? 'rejected' : 'approved',
      isAdmin: false,
      kcId: `kc-${i}`,
      kcEnabled: i % 10 !== 0,
      decisionMailPending: false,
      createdAt: HOUR_AGO,
      updatedAt: HOUR_AGO,
    });
    for (const size of SIZES) {
      await grow(conn, 'users', size, user);
      const cutoff = new Date(Date.now() - 120_000);
      await price(`identity's sweep (every 30 s), ${size} users`, {
        before: async () => {
          await users.model
            .find({ kcId: null, createdAt: { $lt: cutoff } })
            .limit(100)
            .lean()
            .exec();
          await users.model
            .find({ status: 'approved', kcEnabled: false, kcId: { $ne: null } })
            .limit(100)
            .lean()
            .exec();
        },
        now: async () => {
          await users.unlinkedBefore(cutoff);
          await users.approvedNotEnabled();
          await users.decisionMailsPending(cutoff);
        },
      });
      await price(`the dashboard's user counts (GET /api/admin/stats/users), ${size} users`, {
        before: () =>
          Promise.all([
            ...USER_STATUSES.map((status) => users.model.countDocuments({ status }).exec()),
            ...USER_ROLES.map((role) => users.model.countDocuments({ role }).exec()),
          ]),
        now: () =>
          Promise.all([
            ...USER_STATUSES.map((status) => users.count({ status })),
            ...USER_ROLES.map((role) => users.count({ role })),
          ]),
      });
    }
  });
}

/** Orders: the refund sweep (every 5 s) and the administrators' refund list. */
function orderQuestions(price: Price): Promise<void> {
  return scratch('orders', async (conn) => {
    const orders = createOrderStore(conn);
    await ensureIndexes(conn);
    const order = (i: number) => ({
      _id: i + 1,
      id: i + 1,
      reference: `order-${i + 1}`,
      status: 'completed',
      buyerId: 9,
      sellerId: 7,
      quantity: 1,
      totalPaise: 10_000,
      buyer: { id: 9, name: 'Buyer', username: 'army_buyer', role: 'Army' },
      seller: { id: 7, name: 'Maker', username: 'maker', role: 'Manufacturer' },
      // One in a hundred was refunded, long settled.
      ...(i % 100 === 0
        ? {
            refund: { status: 'approved', settled: true, held: true, requestedAt: HOUR_AGO },
            refundAsked: true,
          }
        : {}),
      createdAt: HOUR_AGO,
      updatedAt: HOUR_AGO,
    });
    for (const size of SIZES) {
      await grow(conn, 'orders', size, order);
      const before = new Date(Date.now() - 10_000);
      await price(`the refund sweep (every 5 s), ${size} orders`, {
        before: () =>
          orders.model
            .find({
              'refund.settled': false,
              $or: [{ 'refund.status': { $ne: 'requested' } }, { 'refund.held': null }],
              updatedAt: { $lt: before },
            })
            .lean()
            .exec(),
        now: () => orders.unsettledRefunds(before),
      });
      await price(`the administrators' refund list, ${size} orders`, {
        before: () =>
          Promise.all([
            orders.model
              .find({ refund: { $exists: true } }, null, {
                sort: { 'refund.settled': 1, 'refund.requestedAt': -1 },
                limit: 20,
              })
              .lean()
              .exec(),
            orders.model.countDocuments({ refund: { $exists: true } }).exec(),
          ]),
        now: () => orders.refunds({ page: 1, pageSize: 20 }),
      });
    }
  });
}

/** The gateway's session sweep (every minute): every session lives a while before it ends. */
async function sessionQuestions(price: Price): Promise<void> {
  const db = `qm_history_gateway_${Date.now().toString(36)}`;
  const store = mongoSessionStore({ url: INFRA.MONGO_URL, db, engine: choice });
  const conn = await connectMongo(INFRA.MONGO_URL, db);
  try {
    const session = (i: number) => ({
      _id: `s${i}`,
      userId: i,
      username: `user${i}`,
      roles: ['Army' as const],
      clientId: 'qm-identity',
      accessToken: 'a'.repeat(800),
      refreshToken: 'r'.repeat(800),
      accessExpiresAt: new Date(Date.now() + 300_000),
      refreshExpiresAt: new Date(Date.now() + 1_800_000),
      expiresAt: new Date(Date.now() + 36_000_000),
      createdAt: new Date(),
      userAgent: 'Mozilla/5.0',
    });
    await store.insert(session(0)); // the store's indexes
    for (const size of SIZES) {
      await grow(conn, 'sessions', size, (i) => ({
        ...session(i),
        dueWindow: windowOf(session(i).refreshExpiresAt, SESSION_WINDOW_MS),
      }));
      const sessions = conn.collection('sessions');
      const now = new Date();
      const ended = { $or: [{ expiresAt: { $lt: now } }, { refreshExpiresAt: { $lt: now } }] };
      await price(`the session sweep (every minute), ${size} live sessions`, {
        before: () => sessions.deleteMany(ended),
        'a window': () => sessions.deleteMany({ dueWindow: windowOf(now, SESSION_WINDOW_MS) - 1, ...ended }),
      });
    }
  } finally {
    await conn.dropDatabase();
    await conn.close();
    await store.close();
  }
}

async function main() {
  const { bareUpdateCpuMs } = await import('./lib/bue.mjs');
  const { engineCpuPerCall } = await import('./lib/process-cpu.mjs');
  loopbackOnly(INFRA.MONGO_URL, choice.postgresqlUrl ?? LOCAL_POSTGRESQL_URL);
  const bue = (await bareUpdateCpuMs()).ms;
  console.log(`1 BUE = ${bue.toFixed(3)} ms (store engine: ${choice.engine})`);
  const price = async (what: string, asks: Record<string, Ask>) => {
    const cells: string[] = [];
    for (const [name, ask] of Object.entries(asks)) {
      const cpu = await engineCpuPerCall(10, ask, 2);
      cells.push(`${name} ${(cpu.total / bue).toFixed(1)} BUE`);
    }
    console.log(`${what}: ${cells.join(', ')}`);
  };

  await walletQuestions(price);
  await walletListQuestions(price);
  await identityQuestions(price);
  await orderQuestions(price);
  await sessionQuestions(price);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
