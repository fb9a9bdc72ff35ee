import { changeBuilt, insertBuilt, isDuplicateKeyError, type OutgoingEvent, windowOf } from '@qm/platform';
import { type Connection, type Model, Schema } from 'mongoose';
import type { AccountId, FailureReason, TransferKind, TransferState } from '../domain/ledger';
import type { Account } from './accounts';
import type { NewHistoryLine } from './history';

/**
 * Transfers: the record of every movement, unique by its key (a top-up's provider payment, a
 * purchase's order reference, a P2P transfer's idempotency key), created before any account
 * changes and moved through its states by compare-and-set (domain/ledger.ts).
 */
export interface Transfer {
  _id: string;
  key: string;
  kind: TransferKind;
  debitAccount: AccountId;
  creditAccount: AccountId;
  amount: number;
  twoPhase: boolean;
  state: TransferState;
  failureReason?: FailureReason;
  /** Two-phase: when an unresolved hold expires. */
  timeoutAt?: Date | null;
  /** Markers cleared and any failed step compensated: nothing left for the sweeper. */
  settled: boolean;
  settledAt?: Date | null;
  /**
   * The window of SETTLED_WINDOW_MS it settled in: the sweeper clears markers a window at a time, and
   * records the windows it cleared (store/marker-windows.ts), not the transfers.
   */
  settledWindow?: number;
  /**
   * Only on transfers written before 2026-12-07 (docs/adr/006), when each was marked as its markers
   * went: `false` until then. The sweeper's catch-up still clears and marks those.
   */
  markersCleared?: boolean;
  /** The users' history lines it writes (pending) and then completes or fails (store/history.ts). */
  history: NewHistoryLine[];
  /**
   * What the transfer tells others once it is posted (activities, the receiver's live receipt),
   * written with it so that whoever posts it, the request or the sweeper, publishes them, under the
   * ids they were given here (a repeat is the same event downstream). Absent on older transfers.
   */
  announcements?: OutgoingEvent[];
  description: string;
  /**
   * The payer's wallet (a user's) as this transfer's debit left it, stored with `posted` by the driver
   * that applied the debit: a repeat of the request answers it as the first time (docs/adr/044).
   * Absent when another account paid, or the driver that posted did not apply the debit itself.
   */
  payerAfter?: Account | null;
  createdAt: Date;
  updatedAt: Date;
}

const transferSchema = new Schema<Transfer>(
  {
    _id: { type: String, required: true },
    key: { type: String, required: true },
    kind: { type: String, required: true },
    debitAccount: { type: String, required: true },
    creditAccount: { type: String, required: true },
    amount: { type: Number, required: true },
    twoPhase: { type: Boolean, required: true },
    state: { type: String, required: true },
    failureReason: { type: String },
    timeoutAt: { type: Date },
    settled: { type: Boolean, required: true },
    settledAt: { type: Date },
    settledWindow: { type: Number },
    markersCleared: { type: Boolean },
    history: { type: Schema.Types.Mixed, default: [] },
    announcements: { type: Schema.Types.Mixed, default: [] },
    description: { type: String, default: '' },
    payerAfter: { type: Schema.Types.Mixed },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'transfers', versionKey: false, strict: true, autoIndex: false },
);
transferSchema.index({ key: 1 }, { unique: true });
// The sweeper's two questions: what is unsettled, and which holds outlived their timeout.
transferSchema.index({ settled: 1 });
transferSchema.index({ markersCleared: 1 });
transferSchema.index({ settledWindow: 1 }, { sparse: true });
transferSchema.index({ state: 1 });

export type NewTransfer = Omit<
  Transfer,
  'state' | 'settled' | 'markersCleared' | 'payerAfter' | 'createdAt' | 'updatedAt'
>;

/**
 * A transfer as a driver read it, with the time it asked, on this process's clock (`seenAt`, never
 * stored). The transfer was not yet settled at any time after that, if it was not settled in the
 * copy: a step on an account is fenced by it (store/accounts.ts `fence`).
 */
export type SeenTransfer = Transfer & { seenAt: number };

/** `read`'s answers, each stamped with when they were asked for. */
async function seenAll(read: () => Promise<Transfer[]>): Promise<SeenTransfer[]> {
  const seenAt = Date.now();
  return (await read()).map((t) => ({ ...t, seenAt }));
}

/** `read`'s answer, if any, stamped with when it was asked for. */
async function seen(read: () => Promise<Transfer | null>): Promise<SeenTransfer | null> {
  const seenAt = Date.now();
  const found = await read();
  return found && { ...found, seenAt };
}

/**
 * Settled transfers are filed by the window they settled in, so that the sweeper asks for the
 * transfers whose markers came due by one equality, which every store engine serves from an index
 * (ADR 004), instead of reading every transfer still marked at every sweep.
 */
export const SETTLED_WINDOW_MS = 10_000;
export const settledWindowOf = (at: Date) => windowOf(at, SETTLED_WINDOW_MS);

/**
 * What settling a transfer sets on it. `settledAt` is the database's time of that very update, so a
 * driver that read the transfer unsettled asked before it: the accounts' fences rest on that
 * (store/accounts.ts `fence`). The window is this process's guess of the same moment; it only says
 * when the sweeper asks.
 */
const settling = () => ({
  $set: { settled: true, settledWindow: settledWindowOf(new Date()), updatedAt: new Date() },
  $currentDate: { settledAt: true as const },
});

/**
 * How long a settling write may take before its transfer is filed again, in the window of the moment
 * it answered (docs/adr/006, amendment of 2026-12-07). The sweeper asks for a window once, at least
 * MARKER_RETENTION_MS less CLOCK_SKEW_MS (at least 5 s, services/wallet/src/service.ts) after it
 * ended: a write that answered sooner than that landed before the sweeper asked; one that took longer
 * may have landed after, in a window recorded as cleared, and its markers would stay.
 */
export const REFILE_AFTER_MS = 2_500;

export interface TransferStore {
  model: Model<Transfer>;
  byId(id: string): Promise<SeenTransfer | null>;
  byKey(key: string): Promise<SeenTransfer | null>;
  /** Records a new transfer, or answers the one already recorded under its key. */
  insert(t: NewTransfer, now: Date): Promise<{ created: boolean; transfer: SeenTransfer }>;
  /**
   * Compare-and-set of the state; answers the transfer as it is afterwards, and whether it moved.
   * `settles`: the move settles it too (a posted transfer whose every step is done); `payerAfter`
   * is stored with it.
   */
  move(
    id: string,
    from: TransferState[],
    to: TransferState,
    opts?: MoveOptions,
  ): Promise<{ moved: boolean; transfer: SeenTransfer }>;
  /** As `move`, found by its key: the transfer as moved, or null when none under `key` was in `from`. */
  moveByKey(key: string, from: TransferState[], to: TransferState): Promise<SeenTransfer | null>;
  /** Settles a transfer whose every step is done (refiled, as a settling `move`, if the write was late). */
  markSettled(id: string): Promise<void>;
  /** Unsettled, unresolved-hold-free transfers last touched before `before`. */
  stale(before: Date, limit: number): Promise<SeenTransfer[]>;
  /** Holds past their timeout. */
  expiredHolds(now: Date, limit: number): Promise<SeenTransfer[]>;
  /**
   * Written before 2026-12-07, settled before `before` and not yet marked cleared (only the fields
   * clearing reads): the sweeper's catch-up, when a process starts and every hour.
   */
  settledWithMarkers(before: Date, limit: number): Promise<Transfer[]>;
  /** Settled in `window` (settledWindowOf), with the fields settledWithMarkers answers. */
  settledInWindow(window: number): Promise<Transfer[]>;
  /**
   * Records the markers of `ids` cleared, for transfers written before 2026-12-07 (settledWithMarkers):
   * one update per transfer, by its `_id`, sent as one command.
   */
  markMarkersCleared(ids: string[]): Promise<void>;
}

interface MoveOptions {
  failureReason?: FailureReason;
  settles?: boolean;
  payerAfter?: Account;
}

/** Only what clearing markers needs: not the history lines and announcements a transfer carries. */
const CLEARING = { debitAccount: 1, creditAccount: 1, settled: 1, settledAt: 1 };

export function createTransferStore(conn: Connection): TransferStore {
  const Transfers = conn.model<Transfer>('Transfer', transferSchema);
  const byId = (id: string) => seen(() => Transfers.findById(id).lean<Transfer>().exec());
  const byKey = (key: string) => seen(() => Transfers.findOne({ key }).lean<Transfer>().exec());

  /**
   * Compare-and-set of the state of the transfer `which` names (by `_id` or by key, both unique), on
   * the model's driver collection: a step of every transfer, with nothing to cast (docs/adr/051).
   */
  const moveWhere = async (
    which: { _id: string } | { key: string },
    from: TransferState[],
    to: TransferState,
    { failureReason, settles = false, payerAfter }: MoveOptions = {},
  ) => {
    const began = Date.now();
    const settled = settles ? settling() : { $set: {} };
    const update = {
      ...settled,
      $set: {
        ...settled.$set,
        state: to,
        updatedAt: new Date(),
        ...(failureReason && { failureReason }),
        ...(payerAfter && { payerAfter }),
      },
    };
    const moved = await seen(async () => changeBuilt(Transfers, { ...which, state: { $in: from } }, update));
    if (moved && settles) moved.settledWindow = await refiledIfLate(moved._id, began, moved.settledWindow!);
    return moved;
  };

  /**
   * Files a settled transfer again, in the current window, while its settling write (and then its last
   * filing) took longer than REFILE_AFTER_MS. By `$max`: a window is never moved back.
   */
  async function refiledIfLate(id: string, began: number, window: number): Promise<number> {
    let filed = window;
    for (let since = began; Date.now() - since > REFILE_AFTER_MS;) {
      since = Date.now();
      filed = Math.max(filed, settledWindowOf(new Date(since)));
      await Transfers.updateOne({ _id: id, settled: true }, { $max: { settledWindow: filed } }).exec();
    }
    return filed;
  }

  return {
    model: Transfers,
    byId,
    byKey,

    async insert(t: NewTransfer, now: Date): Promise<{ created: boolean; transfer: SeenTransfer }> {
      const doc: Transfer = {
        ...t,
        state: 'initiated',
        settled: false,
        createdAt: now,
        updatedAt: now,
      };
      try {
        const seenAt = Date.now();
        await insertBuilt(Transfers, [doc]);
        return { created: true, transfer: { ...doc, seenAt } };
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        const existing = await byKey(t.key);
        if (!existing) throw err;
        return { created: false, transfer: existing };
      }
    },

    async move(id, from, to, opts = {}): Promise<{ moved: boolean; transfer: SeenTransfer }> {
      const moved = await moveWhere({ _id: id }, from, to, opts);
      if (moved) return { moved: true, transfer: moved };
      return { moved: false, transfer: (await byId(id))! };
    },

    moveByKey: (key, from, to) => moveWhere({ key }, from, to),

    async markSettled(id: string): Promise<void> {
      const began = Date.now();
      const update = settling();
      const { modifiedCount } = await Transfers.updateOne({ _id: id, settled: false }, update).exec();
      if (modifiedCount > 0) await refiledIfLate(id, began, update.$set.settledWindow);
    },

    // The sweeper's questions ask by one equality, which every store engine answers from an index (ADR 004);
    // the rest is filtered here, on the few rows that match.

    async stale(before: Date, limit: number): Promise<SeenTransfer[]> {
      const unsettled = await seenAll(() => Transfers.find({ settled: false }).lean<Transfer[]>().exec());
      return unsettled.filter((t) => t.state !== 'pending' && new Date(t.updatedAt) < before).slice(0, limit);
    },

    async expiredHolds(now: Date, limit: number): Promise<SeenTransfer[]> {
      const held = await seenAll(() => Transfers.find({ state: 'pending' }).lean<Transfer[]>().exec());
      return held.filter((t) => t.timeoutAt && new Date(t.timeoutAt) < now).slice(0, limit);
    },

    async settledWithMarkers(before: Date, limit: number): Promise<Transfer[]> {
      // Under load these are every transfer of the last minutes.
      const marked = await Transfers.find({ markersCleared: false })
        .select(CLEARING)
        .lean<Transfer[]>()
        .exec();
      return marked.filter((t) => t.settled && t.settledAt && new Date(t.settledAt) < before).slice(0, limit);
    },

    settledInWindow: (window: number) =>
      Transfers.find({ settledWindow: window }).select(CLEARING).lean<Transfer[]>().exec(),

    // One command of single-document updates, each found by its `_id`, which every engine reads from
    // its index (ADR 004). An updateMany over the window read and rewrote all of its documents in one
    // statement, and on the local engine the transfers' own moves waited for it: 0.25–0.6 s every ten
    // seconds under load (docs/performance/2026-12-06-transfers-stall-every-ten-seconds.md).
    async markMarkersCleared(ids: string[]): Promise<void> {
      if (ids.length === 0) return;
      await Transfers.bulkWrite(
        ids.map((_id) => ({
          updateOne: { filter: { _id, markersCleared: false }, update: { $set: { markersCleared: true } } },
        })),
        { ordered: false },
      );
    },
  };
}
