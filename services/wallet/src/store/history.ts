import type { TransactionStatusName, TransactionTypeName } from '@qm/contracts/rest';
import {
  addFeeds,
  countEqual,
  feedsOf,
  isDuplicateKeyError,
  nextSequence,
  onlyDuplicateKeyErrors,
  orderedPage,
  sumEqual,
} from '@qm/platform';
import { type Connection, type Model, Schema } from 'mongoose';

/**
 * The users' transaction history (docs/product.md §3 transactions): one line per user side of a movement —
 * a top-up's credit, the sender's and the receiver's line of a transfer, a buyer's debit and a
 * seller's credit. A hold's and a top-up's lines are written pending before money moves and
 * completed or failed when the transfer ends; a movement that ends at once writes its lines once,
 * ended (docs/adr/027). The string `_id` is chosen by the use case so a retry finds it.
 */
export interface HistoryLine {
  _id: string;
  /** Numeric id shown to users. */
  id: number;
  userId: number;
  amount: number;
  type: TransactionTypeName;
  status: TransactionStatusName;
  description: string;
  counterparty: string;
  transferId: string;
  transferReference: string;
  providerOrderId: string;
  providerPaymentId: string;
  senderWalletId: number | null;
  receiverWalletId: number | null;
  /** Set when the line fails for a reason the user should read (a declined card, an expired checkout). */
  failureReason?: string;
  createdAt: Date;
  updatedAt: Date;
}

export type NewHistoryLine = Omit<HistoryLine, 'id' | 'status' | 'createdAt' | 'updatedAt' | 'failureReason'>;

const historySchema = new Schema<HistoryLine>(
  {
    _id: { type: String, required: true },
    id: { type: Number, required: true },
    userId: { type: Number, required: true },
    amount: { type: Number, required: true },
    type: { type: String, required: true },
    status: { type: String, required: true },
    description: { type: String, default: '' },
    counterparty: { type: String, default: '' },
    transferId: { type: String, default: '' },
    transferReference: { type: String, default: '' },
    providerOrderId: { type: String, default: '' },
    providerPaymentId: { type: String, default: '' },
    senderWalletId: { type: Number, default: null },
    receiverWalletId: { type: Number, default: null },
    failureReason: { type: String },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'transactions', versionKey: false, strict: true, autoIndex: false },
);
historySchema.index({ id: 1 }, { unique: true });
historySchema.index({ userId: 1 });
historySchema.index({ status: 1 });
historySchema.index({ transferId: 1 });
// The administrators' list: by date or amount, all lines or one status (orderedPage).
historySchema.index({ createdAt: -1, id: -1 });
historySchema.index({ amount: -1, id: -1 });
historySchema.index({ status: 1, createdAt: -1, id: -1 });
historySchema.index({ status: 1, amount: -1, id: -1 });
// A user's lines of one status, newest first (orderedPage): a manufacturer's sales are many.
historySchema.index({ userId: 1, status: 1, createdAt: -1, id: -1 });
historySchema.index({ providerOrderId: 1 });
addFeeds(historySchema, ['user']);

export type HistorySort = { field: 'createdAt' | 'amount'; direction: 1 | -1 };

export interface HistoryStore {
  model: Model<HistoryLine>;
  byKey(key: string): Promise<HistoryLine | null>;
  /** Writes the line once (pending); a retry answers the line already there. */
  open(line: NewHistoryLine, at: Date): Promise<HistoryLine>;
  /** Writes lines pending, numbered together (their transfer was recorded just now). */
  openNew(lines: NewHistoryLine[], at: Date): Promise<void>;
  /** Adds what became known of a pending line (a top-up's payment id, once paid). */
  annotate(id: string, fields: Pick<HistoryLine, 'providerPaymentId' | 'transferReference'>): Promise<void>;
  /** Ends pending lines; a line already ended keeps its status. */
  close(ids: string[], status: 'completed' | 'failed', patch?: Partial<HistoryLine>): Promise<void>;
  /**
   * Writes a movement's lines once, already ended, numbered together, and answers them as written;
   * lines someone wrote before (another driver of the same transfer, or pending) are ended instead,
   * keeping their number, and then none are answered.
   */
  finish(
    lines: NewHistoryLine[],
    status: 'completed' | 'failed',
    createdAt: Date,
  ): Promise<HistoryLine[] | undefined>;
  /** A user's newest lines: the feed when unfiltered, an indexed query by status otherwise. */
  ofUser(
    userId: number,
    page: number,
    pageSize: number,
    status?: TransactionStatusName,
  ): Promise<{ items: HistoryLine[]; total: number }>;
  /** Every line (administrators), or one user's, filtered and sorted. */
  all(
    page: number,
    pageSize: number,
    sort: HistorySort,
    status?: TransactionStatusName,
    userId?: number,
  ): Promise<{ items: HistoryLine[]; total: number }>;
  /** The sum of the amounts of every completed line (paise). */
  completedAmount(): Promise<number>;
  /**
   * Lines per status. Pending and failed lines are few and counted by index; completed ones are
   * the rest of the total (every line has one of the three statuses).
   */
  countByStatus(): Promise<Record<TransactionStatusName, number>>;
}

/** The administrators' list reads through the store engine's ordered pages (docs/adr/013). */
export function createHistoryStore(conn: Connection): HistoryStore {
  const Lines = conn.model<HistoryLine>('HistoryLine', historySchema);
  const feeds = feedsOf<HistoryLine>(conn, Lines, { user: (l) => l.userId });

  /** One page of the lines matching `equals` in `sort` order (the numeric id breaks ties), and their count. */
  function sortedPage(
    equals: Record<string, string | number>,
    sort: HistorySort,
    page: number,
    pageSize: number,
  ) {
    return orderedPage(Lines, {
      equals,
      sort: [
        [sort.field, sort.direction],
        ['id', sort.direction],
      ],
      skip: (page - 1) * pageSize,
      limit: pageSize,
    });
  }

  async function insert(line: NewHistoryLine, id: number, at: Date): Promise<HistoryLine> {
    const doc: HistoryLine = { ...line, id, status: 'pending', createdAt: at, updatedAt: at };
    try {
      return await feeds.insert(doc);
    } catch (err) {
      // Written by a concurrent retry: the number and feed slot taken now stay unused.
      if (!isDuplicateKeyError(err)) throw err;
      return (await Lines.findById(line._id).lean<HistoryLine>().exec())!;
    }
  }

  /**
   * Writes lines with `status` in one insert, numbered (`id` and the user feeds) in one counter
   * step, and answers them as written; undefined if any of them was there already (those keep what
   * they had, their numbers become gaps).
   */
  async function writeNew(
    lines: NewHistoryLine[],
    status: TransactionStatusName,
    createdAt: Date,
  ): Promise<HistoryLine[] | undefined> {
    if (lines.length === 0) return [];
    const updatedAt = new Date();
    const docs = lines.map((line) => ({ ...line, id: 0, status, createdAt, updatedAt }));
    try {
      return await feeds.insertMany(docs, {
        ordered: false,
        numberFrom: { sequence: 'transactions', fields: (id) => ({ id }) },
      });
    } catch (err) {
      if (!onlyDuplicateKeyErrors(err)) throw err;
      return undefined;
    }
  }

  async function close(
    ids: string[],
    status: 'completed' | 'failed',
    patch: Partial<HistoryLine> = {},
  ): Promise<void> {
    const at = new Date();
    // One update per line, by _id: the local engine serves no `$in` from an index, so `updateMany` over
    // `{_id: {$in}, status: 'pending'}` read every pending line and, under that engine's
    // locks (ADR 008), held the whole collection while it did.
    await Promise.all(
      ids.map((id) =>
        Lines.updateOne({ _id: id, status: 'pending' }, { $set: { ...patch, status, updatedAt: at } }).exec(),
      ),
    );
  }

  return {
    model: Lines,
    close,
    byKey: (key: string) => Lines.findById(key).lean<HistoryLine>().exec(),

    async open(line: NewHistoryLine, at: Date): Promise<HistoryLine> {
      // Looked up first: a top-up's line exists before its credit, and a number taken for nothing
      // would leave a gap in the user's feed.
      const found = await Lines.findById(line._id).lean<HistoryLine>().exec();
      return found ?? insert(line, await nextSequence(conn, 'transactions'), at);
    },

    async openNew(lines: NewHistoryLine[], at: Date): Promise<void> {
      // A line already there was written by a concurrent retry, pending as well.
      await writeNew(lines, 'pending', at);
    },

    async annotate(
      id: string,
      fields: Pick<HistoryLine, 'providerPaymentId' | 'transferReference'>,
    ): Promise<void> {
      await Lines.updateOne({ _id: id, status: 'pending' }, { $set: fields }).exec();
    },

    async finish(lines: NewHistoryLine[], status: 'completed' | 'failed', createdAt: Date) {
      const written = await writeNew(lines, status, createdAt);
      // Lines written before were ended by another driver (unchanged by this), or opened pending
      // by a build before ADR 027 (ended now).
      if (!written)
        await close(
          lines.map((l) => l._id),
          status,
        );
      return written;
    },

    ofUser(userId: number, page: number, pageSize: number, status?: TransactionStatusName) {
      if (!status) return feeds.page('user', userId, page, pageSize);
      // Ordered by the engine through the index: a seller's completed lines grow with every sale.
      return sortedPage({ userId, status }, { field: 'createdAt', direction: -1 }, page, pageSize);
    },

    all: (
      page: number,
      pageSize: number,
      sort: HistorySort,
      status?: TransactionStatusName,
      userId?: number,
    ) => sortedPage({ ...(status ? { status } : {}), ...(userId ? { userId } : {}) }, sort, page, pageSize),

    // Added up by the database: FerretDB's own `$group` reads every completed line into its process.
    completedAmount: () => sumEqual(Lines, { status: 'completed' }, 'amount'),

    async countByStatus(): Promise<Record<TransactionStatusName, number>> {
      const count = (equals: Record<string, string>) => countEqual(Lines, equals);
      const [total, pending, failed] = await Promise.all([
        count({}),
        count({ status: 'pending' }),
        count({ status: 'failed' }),
      ]);
      return { pending, failed, completed: total - pending - failed };
    },
  };
}
