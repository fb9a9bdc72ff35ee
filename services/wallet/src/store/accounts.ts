import {
  changeBuilt,
  containsText,
  insertBuilt,
  isDuplicateKeyError,
  nextSequence,
  orderedPage,
  sumEqual,
  windowOf,
} from '@qm/platform';
import { type Connection, type Model, Schema } from 'mongoose';
import { type AccountId, escrowAccount, isClearingAccount, isEscrowAccount, marker } from '../domain/ledger';
import { groupCommit } from './group-commit';

/**
 * Ledger accounts: one per user wallet, one clearing account per payment provider and one escrow
 * per sale (docs/adr/028). The balance
 * lives on the account document and changes only by single-document conditional updates, each
 * carrying the transfer step's marker so it is applied at most once:
 *
 * - `applied`: `<transfer>:debit` / `<transfer>:credit` of transfers not yet settled;
 * - `holds`: ids of pending transfers holding funds here (two different arrays, so posting a hold
 *   can remove it and record the debit in one update).
 */
export interface Account {
  _id: AccountId;
  kind: 'user' | 'clearing' | 'escrow';
  /** User wallets: the user's id and the wallet's numeric id (docs/product.md §3 wallets.id). */
  userId?: number;
  walletId?: number;
  /** The user's username as last seen (administrators' list). */
  username?: string;
  /** Posted balance (paise). */
  balance: number;
  /** Held by pending transfers. */
  held: number;
  /** balance - held, kept in the same updates so a conditional debit can test it. */
  available: number;
  /**
   * Every marker the sweeper cleared from this account was a transfer's that settled before this time
   * (ms): a step driven from a copy read earlier may be one of them, and is fenced off (`fence`).
   */
  markersClearedBefore?: number;
  currency: 'INR';
  /** False once identity deleted the user: nothing may leave the wallet; what it holds stays on it. */
  isActive: boolean;
  closedAt?: Date | null;
  lastTransactionAt?: Date | null;
  /** Escrows: the sale (its order reference), who sold and who bought. */
  reference?: string;
  sellerId?: number;
  buyerId?: number;
  /** Escrows: when the proceeds go to the seller (the end of the buyer's refund window). */
  releaseAt?: Date | null;
  /** Escrows: a refund request stops the release while it is open. */
  frozen?: boolean;
  /** Escrows: how many times it was frozen (names each release attempt: app/escrows.ts). */
  freezes?: number;
  /**
   * Escrows: true on every escrow whose balance is above zero (set by the update that pays money in,
   * removed once a debit emptied it), so a seller's held proceeds and the sum of all are read by
   * one equality, not from every escrow ever made (docs/adr/042).
   */
  proceedsHeld?: true;
  /**
   * Escrows: the window of RELEASE_WINDOW_MS in which the proceeds come due, moved on to the current
   * window whenever they become releasable later (paid in late, unfrozen, a release that failed).
   */
  releaseWindow?: number;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The markers an account carries (see above). Only the store's conditional updates name them: reads
 * leave them out (`select: false`), as a hot account carries hundreds and every read through the
 * local engine pays for each (docs/performance/2026-12-05-reads-without-markers.md).
 */
export interface AccountMarkers {
  applied: string[];
  holds: string[];
}

/** An account as stored: what reads answer, and its markers. */
export type StoredAccount = Account & AccountMarkers;

/** An account as reads answer it, from one read with its markers. */
function withoutMarkers({ applied: _applied, holds: _holds, ...account }: StoredAccount): Account {
  return account;
}

/** An escrow's proceeds as its seller sees them. */
export type HeldProceeds = Required<Pick<Account, 'reference' | 'available' | 'releaseAt'>> &
  Pick<Account, 'frozen'>;

const accountSchema = new Schema<StoredAccount>(
  {
    _id: { type: String, required: true },
    kind: { type: String, required: true },
    userId: { type: Number },
    walletId: { type: Number },
    username: { type: String },
    balance: { type: Number, required: true },
    held: { type: Number, required: true },
    available: { type: Number, required: true },
    applied: { type: [String], default: [], select: false },
    holds: { type: [String], default: [], select: false },
    markersClearedBefore: { type: Number },
    currency: { type: String, required: true },
    isActive: { type: Boolean, required: true },
    closedAt: { type: Date },
    lastTransactionAt: { type: Date },
    reference: { type: String },
    sellerId: { type: Number },
    buyerId: { type: Number },
    releaseAt: { type: Date },
    frozen: { type: Boolean },
    freezes: { type: Number },
    proceedsHeld: { type: Boolean },
    releaseWindow: { type: Number },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'accounts', versionKey: false, strict: true, autoIndex: false },
);
accountSchema.index({ userId: 1 }, { unique: true, sparse: true });
accountSchema.index({ walletId: 1 }, { unique: true, sparse: true });
accountSchema.index({ kind: 1 });
// The administrators' wallet list (orderedPage).
accountSchema.index({ kind: 1, walletId: 1 });
// A seller's held proceeds, all held proceeds, and the sweeper's question: what came due in a window.
accountSchema.index({ sellerId: 1, proceedsHeld: 1, releaseAt: 1 }, { sparse: true });
accountSchema.index({ proceedsHeld: 1, releaseAt: 1 }, { sparse: true });
accountSchema.index({ releaseWindow: 1 }, { sparse: true });

/** Escrows are released a window of time at a time (docs/adr/042). */
export const RELEASE_WINDOW_MS = 10_000;
export const releaseWindowOf = (at: Date) => windowOf(at, RELEASE_WINDOW_MS);

/**
 * An update that pays money into `id`; into an escrow it also marks the proceeds held, and due no
 * earlier than the window it is in now, so money that arrives after its window was swept is still
 * asked for.
 */
function payingIn(id: AccountId, at: Date, update: { $set: object } & Record<string, unknown>) {
  if (!isEscrowAccount(id)) return update;
  return {
    ...update,
    $set: { ...update.$set, proceedsHeld: true },
    $max: { releaseWindow: releaseWindowOf(at) },
  };
}

/** A debit applied; an escrow it emptied loses its flag (a credit since keeps it: its balance is above zero). */
async function debited(Accounts: Model<StoredAccount>, id: AccountId, after: Account): Promise<Debit> {
  if (isEscrowAccount(id) && after.balance === 0)
    await Accounts.updateOne({ _id: id, balance: 0 }, { $unset: { proceedsHeld: '' } }).exec();
  return { outcome: 'applied', after };
}

/**
 * A step's fence (docs/adr/006, amendment "a fence instead of a deadline"). The driver read its transfer
 * unsettled at `seen`, so it settles later, and its `settledAt`, stamped by the database's clock, is
 * no earlier than `seen - clockSkewMs`. A marker cleared from the account belonged to a transfer
 * settled before `markersClearedBefore`. While that is at most `seen - clockSkewMs`, this step's
 * marker, if it was ever applied, is still there to be found; otherwise the step is `stale`, and its
 * driver reads the transfer again.
 */
const fence = (seen: number, clockSkewMs: number) => ({
  markersClearedBefore: { $not: { $gt: seen - clockSkewMs } },
});

/** A step without a funds check, waiting to be applied with others to the same account. */
interface Posting {
  marker: string;
  amount: number;
  at: Date;
  /** When its driver read the transfer (SeenTransfer). */
  seen: number;
}

/** A step's filter on the markers: none of `markers` applied yet (one alone as before, a group at once). */
const notAmong = (markers: string[]) => (markers.length === 1 ? { $ne: markers[0] } : { $nin: markers });
/** A step's `$push` of its markers. */
const pushed = (markers: string[]) => (markers.length === 1 ? markers[0] : { $each: markers });

/** At most this many steps in one update: a hot account's document grows by their markers at once. */
const MAX_GROUPED_STEPS = 100;

/**
 * Steps without a funds check that reach one account while another of its steps is in flight
 * (groupCommit): applied `together` in one update when none of them is applied yet; otherwise (a
 * transfer driven twice, by a retry or the sweeper) `alone`, one by one, so each finds its own
 * marker. `together` answers null when its update changed nothing.
 */
function grouped<R>(
  together: (id: AccountId, markers: string[], amount: number, at: Date, seen: number) => Promise<R | null>,
  alone: (id: AccountId, step: Posting) => Promise<R>,
): (id: AccountId, step: Posting) => Promise<R> {
  return groupCommit(async (id: AccountId, steps: Posting[]) => {
    const markers = steps.map((s) => s.marker);
    if (steps.length > 1 && new Set(markers).size === markers.length) {
      const amount = steps.reduce((sum, s) => sum + s.amount, 0);
      const at = new Date(Math.max(...steps.map((s) => s.at.getTime())));
      // The oldest copy's fence holds for all; if it fails, each goes alone under its own.
      const seen = Math.min(...steps.map((s) => s.seen));
      const applied = await together(id, markers, amount, at, seen);
      if (applied !== null) return steps.map(() => applied);
    }
    const outcomes: R[] = [];
    for (const s of steps) outcomes.push(await alone(id, s));
    return outcomes;
  }, MAX_GROUPED_STEPS);
}

/**
 * Whether a step found its marker already applied, applied it now, could not (no funds), or was
 * fenced off: its driver's copy of the transfer is older than a clearing of the account's markers.
 */
export type StepOutcome = 'applied' | 'already' | 'refused' | 'stale';

/** A debit's outcome and, when this call applied it, the account as the debit left it. */
export interface Debit {
  outcome: StepOutcome;
  after?: Account;
}

const emptyAccount = (id: AccountId, kind: Account['kind']): StoredAccount => ({
  _id: id,
  kind,
  balance: 0,
  held: 0,
  available: 0,
  applied: [],
  holds: [],
  currency: 'INR',
  isActive: true,
  lastTransactionAt: null,
  createdAt: new Date(),
  updatedAt: new Date(),
});

/** A new, empty account; a user's wallet gets the next numeric wallet id. */
const newAccount = async (
  conn: Connection,
  id: AccountId,
  userId?: number,
  username?: string,
): Promise<StoredAccount> => ({
  ...emptyAccount(id, userId === undefined ? 'clearing' : 'user'),
  ...(userId === undefined ? {} : { userId, username, walletId: await nextSequence(conn, 'wallets') }),
});

/**
 * One page of the user wallets in wallet order, and how many there are: without a search, ordered and
 * counted by the engine through the index (every wallet ever stays); a search for a part of the
 * username (any case) reads every wallet.
 */
async function userWalletsPage(
  Accounts: Model<StoredAccount>,
  skip: number,
  limit: number,
  search?: string,
): Promise<{ items: Account[]; total: number }> {
  const username = containsText(search);
  if (!username)
    return orderedPage(Accounts, { equals: { kind: 'user' }, sort: [['walletId', 1]], skip, limit });
  const filter = { kind: 'user', username };
  const [items, total] = await Promise.all([
    Accounts.find(filter, null, { sort: { walletId: 1 }, skip, limit })
      .lean<Account[]>()
      .exec(),
    Accounts.countDocuments(filter).exec(),
  ]);
  return { items, total };
}

export interface AccountStore {
  model: Model<StoredAccount>;
  get(id: AccountId): Promise<Account | null>;
  /** The markers the account carries now, which reads leave out (tests, checks). */
  markers(id: AccountId): Promise<AccountMarkers | null>;
  /** Creates the account once; concurrent first uses all get the same one. A new username is recorded. */
  ensure(id: AccountId, userId?: number, username?: string): Promise<Account>;
  /**
   * Opens a payment provider's clearing account once. It is never closed, so each process asks the
   * database only the first time.
   */
  ensureClearing(id: AccountId): Promise<void>;
  /** Opens a sale's escrow once (an existing one is answered as it is). */
  ensureEscrow(sale: {
    reference: string;
    sellerId: number;
    buyerId: number;
    releaseAt: Date;
  }): Promise<Account>;
  /**
   * Closes a wallet for good (its user was deleted): debits and holds require `isActive`, so no
   * money leaves it from then on; its balance stays (money is never destroyed). Answers whether
   * there was an open one.
   */
  close(id: AccountId, at: Date): Promise<boolean>;
  /**
   * Takes amount off the account; a wallet or an escrow only while that much is available, and
   * with `unlessFrozen` an escrow only while no refund request holds it. `seen`: when the driver read
   * the transfer (SeenTransfer), for the step's fence, as for credit and hold.
   */
  debit(
    id: AccountId,
    transferId: string,
    amount: number,
    seen: number,
    opts?: { unlessFrozen?: boolean },
  ): Promise<Debit>;
  credit(id: AccountId, transferId: string, amount: number, at: Date, seen: number): Promise<StepOutcome>;
  /** Holds amount of the available balance for a pending transfer. */
  hold(id: AccountId, transferId: string, amount: number, seen: number): Promise<StepOutcome>;
  /** A posted hold becomes the debit: held and balance drop together; available is unchanged. */
  postHold(id: AccountId, transferId: string, amount: number, at: Date): Promise<StepOutcome>;
  /** Gives a voided or expired hold back to the available balance (no-op when not held). */
  releaseHold(id: AccountId, transferId: string, amount: number): Promise<boolean>;
  /** Puts back a debit of a transfer that ended failed (a debit that raced its failure), once. */
  refundDebit(id: AccountId, transferId: string, amount: number): Promise<boolean>;
  /**
   * Bars a transfer's debit or hold on the account for good, unless it was taken already: `applied`
   * when barred now, `already` when barred before, `refused` when the debit or hold is there (the
   * transfer goes on), `stale` when fenced. What the sweeper's abandonment does first.
   */
  voidDebit(id: AccountId, transferId: string, seen: number): Promise<StepOutcome>;
  /**
   * Drops settled transfers' markers (their effect stays; only the bookkeeping goes); they all
   * settled before `settledBefore` (ms), which fences off steps driven from older copies.
   */
  clearMarkers(id: AccountId, transferIds: string[], settledBefore: number): Promise<void>;
  /** User wallets in wallet order, optionally only those whose username contains `search`, and their count. */
  usersPage(skip: number, limit: number, search?: string): Promise<{ items: Account[]; total: number }>;
  /** The payment providers' clearing accounts. */
  clearing(): Promise<Account[]>;
  /** A seller's proceeds still in escrow, the soonest released first. */
  heldProceeds(sellerId: number): Promise<HeldProceeds[]>;
  /**
   * Escrows whose proceeds were due by `now`, still there and not frozen, read from every escrow
   * holding proceeds (the sweeper's catch-up).
   */
  dueEscrows(now: Date, limit: number): Promise<Account[]>;
  /** Escrows filed under a release window (releaseWindowOf), still there and not frozen. */
  escrowsDueIn(window: number): Promise<Account[]>;
  /** Files an escrow under a later release window (a release that failed is tried again then). */
  refileEscrow(id: AccountId, window: number): Promise<void>;
  /**
   * Sets `proceedsHeld` and `releaseWindow` on escrows written before they existed, and drops the
   * flag from an escrow emptied by a debit whose process died before it could (reads every escrow
   * once); how many it changed.
   */
  markHeldProceeds(): Promise<number>;
  /**
   * Stops an escrow's release for a refund request: `held` while its proceeds are there (frozen now
   * or already), `emptied` once released or refunded.
   */
  freeze(id: AccountId): Promise<'held' | 'emptied'>;
  /**
   * Lets a frozen escrow be released again (its request was rejected), in the current release window
   * if its own has passed.
   */
  unfreeze(id: AccountId): Promise<void>;
  /** What all escrows hold together (sales within their refund windows). */
  escrowed(): Promise<number>;
}

/** A step's update, which also stamps the account's updatedAt. */
const stamped = (update: Record<string, unknown>) => ({
  ...update,
  $set: { ...(update.$set as object | undefined), updatedAt: new Date() },
});

/** Escrows still holding proceeds (a released or refunded one is empty), asked by their flag. */
const funded = { proceedsHeld: true, available: { $gt: 0 } };
/** Escrows whose proceeds may be released: held and not frozen by a refund request. */
const releasable = { ...funded, frozen: { $ne: true } };

/** `open` for each id the first time only: for accounts that are never closed. */
function onceEach(open: (id: AccountId) => Promise<unknown>): (id: AccountId) => Promise<void> {
  const opened = new Set<AccountId>();
  return async (id) => {
    if (opened.has(id)) return;
    await open(id);
    opened.add(id);
  };
}

/**
 * The conditional updates that change an account's balance, each carrying its transfer step's marker
 * and fenced by when its driver read the transfer (docs/adr/006); steps without a funds check are
 * grouped per account (`grouped`). A transfer's own steps go to the model's driver collection: built
 * typed here, they leave mongoose nothing to cast (docs/adr/051).
 */
function markedSteps(Accounts: Model<StoredAccount>, clockSkewMs: number) {
  /** Whether the account now carries the marker (the step was applied by someone). */
  const carries = async (id: AccountId, field: 'applied' | 'holds', value: string) =>
    !!(await Accounts.exists({ _id: id, [field]: value }));

  /** Why a step's update changed nothing: applied by someone, fenced off, or refused. */
  async function unapplied(
    id: AccountId,
    proof: { field: 'applied' | 'holds'; value: string },
    seen: number,
  ) {
    if (await carries(id, proof.field, proof.value)) return 'already' as const;
    return (await Accounts.exists({ _id: id, ...fence(seen, clockSkewMs) }))
      ? ('refused' as const)
      : ('stale' as const);
  }

  async function step(
    id: AccountId,
    filter: Record<string, unknown>,
    update: Record<string, unknown>,
    proof: { field: 'applied' | 'holds'; value: string },
    seen: number,
  ): Promise<StepOutcome> {
    const r = await Accounts.collection.updateOne(
      { _id: id, ...filter, ...fence(seen, clockSkewMs) } as never,
      stamped(update),
    );
    return r.modifiedCount === 1 ? 'applied' : unapplied(id, proof, seen);
  }

  /**
   * Credits `amount` under `markers` (one step, or a group of them) unless one of them is already
   * there or the fence stops it; whether it did.
   */
  async function creditAll(id: AccountId, markers: string[], amount: number, at: Date, seen: number) {
    const r = await Accounts.collection.updateOne(
      { _id: id, applied: notAmong(markers), ...fence(seen, clockSkewMs) } as never,
      stamped(
        payingIn(id, at, {
          $inc: { balance: amount, available: amount },
          $push: { applied: pushed(markers) },
          $set: { lastTransactionAt: at },
        }),
      ),
    );
    return r.modifiedCount === 1 ? ('applied' as const) : null;
  }
  /** One credit, applied once: its marker is in the filter and the update. */
  const creditOne = async (id: AccountId, c: Posting): Promise<StepOutcome> =>
    (await creditAll(id, [c.marker], c.amount, c.at, c.seen)) ??
    unapplied(id, { field: 'applied', value: c.marker }, c.seen);
  const groupedCredit = grouped<StepOutcome>(creditAll, creditOne);

  /**
   * Debits `amount` under `markers` while `funds` hold, none of them nor of `barred` is there and the
   * fence lets it; the account as it left it, or null.
   */
  async function debitAll(
    id: AccountId,
    markers: string[],
    amount: number,
    seen: number,
    funds: object = {},
    barred: string[] = [],
  ) {
    // Answering the account as it left it spares the payer's response a read of it afterwards. The
    // local engine cannot leave fields out of a findAndModify's answer, so its markers are dropped here.
    const after = await changeBuilt(
      Accounts,
      { _id: id, ...funds, applied: notAmong([...markers, ...barred]), ...fence(seen, clockSkewMs) },
      stamped({ $inc: { balance: -amount, available: -amount }, $push: { applied: pushed(markers) } }),
    );
    return after && debited(Accounts, id, withoutMarkers(after));
  }
  /** One debit under its marker `m`, as debitAll; its outcome. */
  async function debitOne(
    id: AccountId,
    m: string,
    amount: number,
    seen: number,
    funds: object = {},
    barred: string[] = [],
  ): Promise<Debit> {
    const applied = await debitAll(id, [m], amount, seen, funds, barred);
    return applied ?? { outcome: await unapplied(id, { field: 'applied', value: m }, seen) };
  }
  // A clearing account may go below zero, so its debits need no funds and group like credits.
  const groupedClearingDebit = grouped<Debit>(
    (id, markers, amount, _at, seen) => debitAll(id, markers, amount, seen),
    (id, d) => debitOne(id, d.marker, d.amount, d.seen),
  );

  return {
    carries,
    step,
    debit(
      id: AccountId,
      transferId: string,
      amount: number,
      seen: number,
      opts: { unlessFrozen?: boolean } = {},
    ) {
      const m = marker(transferId, 'debit');
      if (isClearingAccount(id)) return groupedClearingDebit(id, { marker: m, amount, seen, at: new Date() });
      const funds = { available: { $gte: amount }, isActive: true };
      if (opts.unlessFrozen) Object.assign(funds, { frozen: { $ne: true } });
      // A debit its transfer's abandonment barred never applies (voidDebit).
      return debitOne(id, m, amount, seen, funds, [marker(transferId, 'void')]);
    },
    credit: (id: AccountId, transferId: string, amount: number, at: Date, seen: number) =>
      groupedCredit(id, { marker: marker(transferId, 'credit'), amount, at, seen }),
  };
}

/**
 * How far apart the wallet processes' clocks may be (docs/adr/006): a step's fence allows for it.
 * Markers must stay on the accounts well beyond it (MARKER_RETENTION_MS), or fresh steps are fenced.
 */
export const DEFAULT_CLOCK_SKEW_MS = 2_000;

export function createAccountStore(conn: Connection, opts: { clockSkewMs?: number } = {}): AccountStore {
  const Accounts = conn.model<StoredAccount>('Account', accountSchema);
  const now = () => new Date();

  const get = (id: AccountId) => Accounts.findById(id).lean<Account>().exec();

  /** Creates the account once; concurrent first uses all get the same one. */
  async function ensure(id: AccountId, userId?: number, username?: string): Promise<Account> {
    const found = await get(id);
    if (found) {
      if (!username || found.username === username) return found;
      await Accounts.updateOne({ _id: id }, { $set: { username } }).exec();
      return { ...found, username };
    }
    try {
      await Accounts.create(await newAccount(conn, id, userId, username));
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
    return (await get(id))!;
  }

  const { carries, step, credit, debit } = markedSteps(Accounts, opts.clockSkewMs ?? DEFAULT_CLOCK_SKEW_MS);

  return {
    model: Accounts,
    get,
    markers: (id) => Accounts.findById(id).select('applied holds').lean<AccountMarkers>().exec(),
    ensure,
    ensureClearing: onceEach(ensure),
    ...escrowQueries(Accounts, get),

    async close(id: AccountId, at: Date): Promise<boolean> {
      const r = await Accounts.updateOne(
        { _id: id, isActive: true },
        { $set: { isActive: false, closedAt: at, updatedAt: at } },
      ).exec();
      return r.modifiedCount === 1;
    },

    debit,
    credit,

    hold(id: AccountId, transferId: string, amount: number, seen: number): Promise<StepOutcome> {
      return step(
        id,
        {
          available: { $gte: amount },
          isActive: true,
          holds: { $ne: transferId },
          // A hold posted (its debit's marker) or released or abandoned (void) is not placed again.
          applied: { $nin: [marker(transferId, 'debit'), marker(transferId, 'void')] },
        },
        { $inc: { held: amount, available: -amount }, $push: { holds: transferId } },
        { field: 'holds', value: transferId },
        seen,
      );
    },

    async postHold(id: AccountId, transferId: string, amount: number, at: Date): Promise<StepOutcome> {
      const m = marker(transferId, 'debit');
      const r = await Accounts.updateOne(
        { _id: id, holds: transferId },
        {
          $inc: { held: -amount, balance: -amount },
          $pull: { holds: transferId },
          $push: { applied: m },
          $set: { updatedAt: now(), lastTransactionAt: at },
        },
      );
      if (r.modifiedCount === 1) return 'applied';
      return (await carries(id, 'applied', m)) ? 'already' : 'refused';
    },

    async releaseHold(id: AccountId, transferId: string, amount: number): Promise<boolean> {
      const r = await Accounts.updateOne(
        { _id: id, holds: transferId },
        {
          $inc: { held: -amount, available: amount },
          $pull: { holds: transferId },
          // Its debit will never be taken: a late copy's hold is refused.
          $push: { applied: marker(transferId, 'void') },
          $set: { updatedAt: now() },
        },
      );
      return r.modifiedCount === 1;
    },

    async refundDebit(id: AccountId, transferId: string, amount: number): Promise<boolean> {
      const at = now();
      const refund = marker(transferId, 'refund');
      // The debit's marker stays: a copy of the transfer driven later finds its debit applied.
      const r = await Accounts.updateOne(
        { _id: id, $and: [{ applied: marker(transferId, 'debit') }, { applied: { $ne: refund } }] },
        payingIn(id, at, {
          $inc: { balance: amount, available: amount },
          $push: { applied: refund },
          $set: { updatedAt: at },
        }),
      );
      return r.modifiedCount === 1;
    },

    async voidDebit(id: AccountId, transferId: string, seen: number): Promise<StepOutcome> {
      const debit = marker(transferId, 'debit');
      const barred = marker(transferId, 'void');
      return step(
        id,
        { applied: { $nin: [debit, barred] }, holds: { $ne: transferId } },
        { $push: { applied: barred } },
        { field: 'applied', value: barred },
        seen,
      );
    },

    async clearMarkers(id: AccountId, transferIds: string[], settledBefore: number): Promise<void> {
      const markers = transferIds.flatMap((t) =>
        (['debit', 'credit', 'refund', 'void'] as const).map((step) => marker(t, step)),
      );
      // One update: no step can find its marker gone without also meeting the fence.
      await Accounts.updateOne(
        { _id: id },
        { $pullAll: { applied: markers }, $max: { markersClearedBefore: settledBefore } },
      );
    },

    usersPage: (skip, limit, search) => userWalletsPage(Accounts, skip, limit, search),
    clearing: () => Accounts.find({ kind: 'clearing' }).lean<Account[]>().exec(),
  };
}

/** The escrows' part of the store (docs/adr/028). */
function escrowQueries(
  Accounts: Model<StoredAccount>,
  get: (id: AccountId) => Promise<Account | null>,
): Pick<
  AccountStore,
  | 'ensureEscrow'
  | 'heldProceeds'
  | 'dueEscrows'
  | 'escrowsDueIn'
  | 'refileEscrow'
  | 'markHeldProceeds'
  | 'freeze'
  | 'unfreeze'
  | 'escrowed'
> {
  return {
    async ensureEscrow(sale) {
      const id = escrowAccount(sale.reference);
      // Each sale opens its own, so it is written first and read only when a retry finds it there.
      const opened: StoredAccount = {
        ...emptyAccount(id, 'escrow'),
        ...sale,
        releaseWindow: releaseWindowOf(sale.releaseAt),
      };
      try {
        await insertBuilt(Accounts, [opened]);
        return withoutMarkers(opened);
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
      return (await get(id))!;
    },
    heldProceeds: (sellerId) =>
      Accounts.find(
        { ...funded, sellerId },
        { reference: 1, available: 1, releaseAt: 1, frozen: 1 },
        { sort: { releaseAt: 1 } },
      )
        .lean<HeldProceeds[]>()
        .exec(),
    dueEscrows: (now, limit) =>
      Accounts.find({ ...releasable, releaseAt: { $lte: now } }, null, { sort: { releaseAt: 1 }, limit })
        .lean<Account[]>()
        .exec(),
    escrowsDueIn: (window) =>
      Accounts.find({ releaseWindow: window, ...releasable })
        .lean<Account[]>()
        .exec(),
    async refileEscrow(id, window) {
      await Accounts.updateOne({ _id: id }, { $max: { releaseWindow: window } }).exec();
    },
    async markHeldProceeds() {
      const all = await Accounts.find(
        { kind: 'escrow' },
        { balance: 1, proceedsHeld: 1, releaseAt: 1, releaseWindow: 1 },
      )
        .lean<Pick<Account, '_id' | 'balance' | 'proceedsHeld' | 'releaseAt' | 'releaseWindow'>[]>()
        .exec();
      let changed = 0;
      // Each change is conditional on the balance it is right for, so a debit or credit racing it wins.
      for (const e of all) {
        if (e.balance > 0 && (!e.proceedsHeld || e.releaseWindow === undefined)) {
          const r = await Accounts.updateOne(
            { _id: e._id, balance: { $gt: 0 } },
            { $set: { proceedsHeld: true }, $max: { releaseWindow: releaseWindowOf(e.releaseAt!) } },
          ).exec();
          changed += r.modifiedCount;
        } else if (e.balance === 0 && e.proceedsHeld) {
          const r = await Accounts.updateOne(
            { _id: e._id, balance: 0 },
            { $unset: { proceedsHeld: '' } },
          ).exec();
          changed += r.modifiedCount;
        }
      }
      return changed;
    },
    async freeze(id) {
      await Accounts.updateOne(
        { _id: id, ...funded, frozen: { $ne: true } },
        { $set: { frozen: true, updatedAt: new Date() }, $inc: { freezes: 1 } },
      ).exec();
      // Whoever froze it, the proceeds are held exactly while the escrow is frozen and funded.
      const after = await get(id);
      return after?.frozen && after.available > 0 ? 'held' : 'emptied';
    },
    // Added up by the database; an escrow still flagged after a crash emptied it adds its 0.
    escrowed: () => sumEqual(Accounts, { proceedsHeld: true }, 'balance'),
    async unfreeze(id) {
      // Its window may have been swept while it was frozen: it is due again in the current one.
      await Accounts.updateOne(
        { _id: id, frozen: true },
        {
          $set: { frozen: false, updatedAt: new Date() },
          $max: { releaseWindow: releaseWindowOf(new Date()) },
        },
      ).exec();
    },
  };
}
