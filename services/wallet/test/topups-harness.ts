import { randomInt } from 'node:crypto';
import { WALLET_MESSAGES } from '@qm/contracts/rest';
import {
  type Caller,
  connectBus,
  connectMongo,
  createIdempotency,
  createOutbox,
  ensureIndexes,
  type EventBus,
  faultsFromEnv,
  openStoreEngine,
} from '@qm/platform';
import { STREAMS } from '@qm/roster';
import { INFRA, testLog, uniqueName } from '@qm/testkit';
import type { Connection } from 'mongoose';
import { createLedger } from '../src/app/ledger';
import { createTopUps, type TopUps } from '../src/app/topups';
import { providerAccount, userAccount } from '../src/domain/ledger';
import { topUpSettings } from '../src/providers/config';
import { createProviders, type Providers } from '../src/providers/providers';
import { createAccountStore } from '../src/store/accounts';
import { createEntryStore } from '../src/store/entries';
import { createHistoryStore } from '../src/store/history';
import { createTopUpStore } from '../src/store/topups';
import { createTransferStore } from '../src/store/transfers';

export const STRIPE_WEBHOOK_SECRET = 'whsec_test_quartermaster_topups';

/** User ids no other run uses. */
const base = 20_000_000 + randomInt(0, 70_000_000);
export const users = {
  asha: { userId: base + 1, username: 'asha', roles: ['Army'] },
  ravi: { userId: base + 2, username: 'ravi', roles: ['Manufacturer'] },
  admin: { userId: base + 3, username: 'admin', roles: ['Admin'] },
} satisfies Record<string, Caller>;

export interface World {
  conn: Connection;
  bus: EventBus;
  topUps: TopUps;
  providers: Providers;
  stores: {
    accounts: ReturnType<typeof createAccountStore>;
    entries: ReturnType<typeof createEntryStore>;
    history: ReturnType<typeof createHistoryStore>;
    topups: ReturnType<typeof createTopUpStore>;
    transfers: ReturnType<typeof createTransferStore>;
  };
  /** The user's posted balance, its entries' sum and count, and the clearing account's balance. */
  money(caller: Caller): Promise<{ balance: number; entriesSum: number; entries: number; clearing: number }>;
  /** What `fn` asks of the database through this world's models: `collection.method`, with its filter. */
  operations(fn: () => Promise<unknown>): Promise<{ op: string; filter: unknown }[]>;
  stop(): Promise<void>;
}

/**
 * The wallet's real stores, ledger, idempotency and outbox on a fresh database of the tests' store
 * engine, and the top-up use cases over them (the gRPC server is the lead's; these are the rules).
 * `env` is the top-up environment (WALLET_PROVIDER, keys, WALLET_WEBHOOK_URL, ...).
 */
export async function startWorld(
  env: Record<string, string> = {},
  opts: {
    creditLeaseMs?: number;
    /** Another replica of a running world: its own connections on that world's database, left in place by stop(). */
    join?: World;
  } = {},
): Promise<World> {
  const log = testLog('topups');
  const { join, ...useCaseOpts } = opts;
  const conn = await connectMongo(INFRA.MONGO_URL, join?.conn.name ?? uniqueName('qm_test_wallet_topups'));
  const engine = await openStoreEngine(conn, INFRA.STORE_ENGINE);
  const bus = await connectBus({ servers: INFRA.NATS_URL, name: 'topups-test', log });
  await bus.ensureStreams(STREAMS);
  const stores = {
    accounts: createAccountStore(conn),
    entries: createEntryStore(conn),
    history: createHistoryStore(conn),
    topups: createTopUpStore(conn),
    transfers: createTransferStore(conn),
  };
  const outbox = createOutbox({ conn, bus, log, confirm: async () => true });
  const ledger = createLedger({ ...stores, log, outbox });
  const idempotency = createIdempotency({
    conn,
    messages: {
      inProgress: WALLET_MESSAGES.idempotencyInProgress,
      mismatch: WALLET_MESSAGES.idempotencyMismatch,
    },
  });
  const settings = topUpSettings({
    NODE_ENV: 'test',
    WALLET_PROVIDER: 'auto',
    STRIPE_PUBLISHABLE_KEY: '',
    WALLET_WEBHOOK_URL: 'http://127.0.0.1:9/unused',
    WEBHOOK_RETRY_MS: 0,
    ...env,
  } as Parameters<typeof topUpSettings>[0]);
  // QM_FAULTS in env turns fault flags on, as in a service process.
  const faults = await faultsFromEnv(env, log);
  const providers = createProviders(conn, settings, log, faults);
  const topUps = createTopUps({ ...stores, ledger, providers, idempotency, log, faults, ...useCaseOpts });
  await ensureIndexes(conn);

  return {
    conn,
    bus,
    topUps,
    providers,
    stores,
    async money(caller) {
      const id = userAccount(caller.userId);
      const [account, clearing, entries] = await Promise.all([
        stores.accounts.get(id),
        stores.accounts.get(providerAccount(settings.provider)),
        stores.entries.model.find({ account: id }).lean().exec(),
      ]);
      return {
        balance: account?.balance ?? 0,
        entriesSum: entries.reduce((s, e) => s + e.amount, 0),
        entries: entries.length,
        clearing: clearing?.balance ?? 0,
      };
    },
    async operations(fn) {
      const sent: { op: string; filter: unknown }[] = [];
      conn.set('debug', (collection: string, method: string, filter: unknown) => {
        sent.push({ op: `${collection}.${method}`, filter });
      });
      try {
        await fn();
      } finally {
        conn.set('debug', false);
      }
      return sent;
    },
    async stop() {
      if (!join) await conn.dropDatabase().catch(() => undefined);
      await engine.close();
      await conn.close();
      await bus.close();
      await faults.close();
    },
  };
}

/** The sandbox's test cards (Stripe's numbers). */
export const cards = {
  ok: { cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' },
  declined: { cardNumber: '4000 0000 0000 0002', expiry: '12/39', cvc: '123' },
  insufficient: { cardNumber: '4000 0000 0000 9995', expiry: '12/39', cvc: '123' },
};

/** Rejects with `message`: the AppError a use case throws. */
export async function refusal(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (err) {
    const e = err as { code: number; message: string };
    return { code: e.code, message: e.message };
  }
  throw new Error('expected a refusal');
}
