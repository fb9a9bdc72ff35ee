import { addFeeds, type FeedPage, feedsOf, onlyDuplicateKeyErrors } from '@qm/platform';
import { type Connection, type Model, Schema } from 'mongoose';
import type { AccountId } from '../domain/ledger';

/**
 * Ledger entries: immutable, one per side of a posted transfer (`<transfer>:debit` with -amount,
 * `<transfer>:credit` with +amount), so the entries of all accounts sum to zero and each account's
 * entries sum to its balance. Filed in a feed per account, so reading an account's newest entries
 * costs the same however long the ledger grows (@qm/platform feeds).
 */
export interface Entry {
  _id: string;
  transferId: string;
  account: AccountId;
  /** Signed paise: negative for the debit side. */
  amount: number;
  createdAt: Date;
}

const entrySchema = new Schema<Entry>(
  {
    _id: { type: String, required: true },
    transferId: { type: String, required: true },
    account: { type: String, required: true },
    amount: { type: Number, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: 'entries', versionKey: false, strict: true, autoIndex: false },
);
entrySchema.index({ account: 1 });
addFeeds(entrySchema, ['account']);

export interface EntryStore {
  model: Model<Entry>;
  /** Writes both sides of a posted transfer; a retried step finds them there. */
  writePair(
    t: { _id: string; debitAccount: AccountId; creditAccount: AccountId; amount: number },
    at: Date,
  ): Promise<void>;
  /** The account's entries, newest first, read from its feed. */
  page(account: AccountId, page: number, pageSize: number): Promise<FeedPage<Entry>>;
}

export function createEntryStore(conn: Connection): EntryStore {
  const Entries = conn.model<Entry>('Entry', entrySchema);
  const feeds = feedsOf<Entry>(conn, Entries, { account: (e) => e.account });

  return {
    model: Entries,
    async writePair(
      t: { _id: string; debitAccount: AccountId; creditAccount: AccountId; amount: number },
      at: Date,
    ) {
      const sides: Entry[] = [
        {
          _id: `${t._id}:debit`,
          transferId: t._id,
          account: t.debitAccount,
          amount: -t.amount,
          createdAt: at,
        },
        {
          _id: `${t._id}:credit`,
          transferId: t._id,
          account: t.creditAccount,
          amount: t.amount,
          createdAt: at,
        },
      ];
      try {
        // Both sides in one command; each side is written once, so a retried step finds it there
        // (and leaves a gap in the feed, see feeds.ts).
        await feeds.insertMany(sides, { ordered: false });
      } catch (err) {
        if (!onlyDuplicateKeyErrors(err)) throw err;
      }
    },
    page: (account: AccountId, page: number, pageSize: number) =>
      feeds.page('account', account, page, pageSize),
  };
}
