import type { Connection, Model, Schema } from 'mongoose';
import { type SequenceStep, sequencesOf } from './store/engine';
import { insertBuilt } from './mongo';

/**
 * Newest-first, paged reads of one owner's documents (a wallet's entries, a buyer's orders, a
 * user's activity) that cost the same at any collection or owner size, on every backend.
 *
 * The local store engine sorts in its own process and serves only equality from an index
 * (docs/adr/004, 024), so `find({owner}).sort().limit()` reads all of an owner's rows. A feed instead numbers each owner's documents (one atomic counter
 * per owner) and files them in buckets of BUCKET_SIZE under an equality key `<owner>:<bucket>`;
 * any page then needs at most two indexed equality reads. docs/adr/004 has the measurements.
 *
 * A crash between taking a number and inserting leaves a gap: that page shows one entry fewer.
 */
export const BUCKET_SIZE = 32;

/** Name of a feed and how to find a document's owner in it (a constant for a global feed). */
export type FeedOwners<T> = Record<string, (doc: T) => string | number>;

const keyField = (feed: string) => `feed_${feed}`;
const seqField = (feed: string) => `feedSeq_${feed}`;
/** The counter (sequences.ts) that numbers `owner`'s documents in a feed (bulk loaders set it too). */
export const feedCounterId = (collection: string, feed: string, owner: string | number) =>
  `feed:${collection}:${feed}:${owner}`;
const bucketKey = (owner: string | number, seq: number) => `${owner}:${Math.floor(seq / BUCKET_SIZE)}`;

/** The fields that file a document as number `seq` of `owner` in `feed` (for bulk loaders). */
export function feedFields(feed: string, owner: string | number, seq: number): Record<string, unknown> {
  return { [keyField(feed)]: bucketKey(owner, seq), [seqField(feed)]: seq };
}

/** Adds a feed's fields and its index to a schema (ensureIndexes then creates them). */
export function addFeeds(schema: Schema, feeds: string[]): void {
  for (const feed of feeds) {
    schema.add({ [keyField(feed)]: String, [seqField(feed)]: Number });
    schema.index({ [keyField(feed)]: 1 });
  }
}

export interface FeedPage<T> {
  items: T[];
  /** Documents ever filed for the owner (counting any gap a crash left). */
  total: number;
}

/**
 * Also numbers the documents from the sequence `sequence`, in the same counter step as their feed
 * numbers: `fields` gives what a document's number sets (a user-visible id, and what derives from it).
 */
export interface NumberFrom {
  sequence: string;
  fields: (n: number) => Record<string, unknown>;
}

export interface InsertOptions {
  numberFrom?: NumberFrom;
}

export interface InsertManyOptions extends InsertOptions {
  ordered?: boolean;
}

export interface Feeds<T> {
  /** Numbers the document in every feed (and from `numberFrom`) and inserts it. */
  insert(doc: T, options?: InsertOptions): Promise<T>;
  /**
   * Numbers the documents in every feed, in their order, and inserts them in one write: one counter
   * step per feed and owner however many there are (e.g. a question and its answer, or a batch of
   * activity records). `ordered: false` inserts the others when one fails (a duplicate `_id`), then
   * throws; the failed one's numbers become gaps. Answers the documents as written, numbers included.
   */
  insertMany(docs: T[], options?: InsertManyOptions): Promise<T[]>;
  /** Documents ever filed for the owner (its counter: no document is read). */
  size(feed: string, owner: string | number): Promise<number>;
  /** Page `page` (1-based) of `pageSize` (at most BUCKET_SIZE) of the owner's documents, newest first. */
  page(feed: string, owner: string | number, page: number, pageSize: number): Promise<FeedPage<T>>;
}

export function feedsOf<T extends object>(
  conn: Connection,
  model: Model<T>,
  owners: FeedOwners<T>,
): Feeds<T> {
  const collection = model.collection.collectionName;
  const size = async (feed: string, owner: string | number) => {
    if (!owners[feed]) throw new Error(`unknown feed ${feed}`);
    return sequencesOf(conn).current(feedCounterId(collection, feed, owner));
  };
  /**
   * Numbers `docs` in every feed (and from `numberFrom`) with one counter step for all: the fields
   * to add to each document, in their order.
   */
  async function numbered(docs: T[], numberFrom?: NumberFrom) {
    const filed = docs.map((d) => ({ ...(d as Record<string, unknown>) }));
    const groups: { step: SequenceStep; file: (last: number) => void }[] = [];
    if (numberFrom)
      groups.push({
        step: { name: numberFrom.sequence, count: docs.length },
        file: (last) =>
          filed.forEach((d, i) => Object.assign(d, numberFrom.fields(last - docs.length + 1 + i))),
      });
    for (const [feed, ownerOf] of Object.entries(owners)) {
      const byOwner = new Map<string | number, number[]>();
      docs.forEach((d, i) => byOwner.set(ownerOf(d), [...(byOwner.get(ownerOf(d)) ?? []), i]));
      for (const [owner, indexes] of byOwner)
        groups.push({
          step: { name: feedCounterId(collection, feed, owner), count: indexes.length },
          file: (last) =>
            indexes.forEach((i, k) =>
              Object.assign(filed[i]!, feedFields(feed, owner, last - indexes.length + 1 + k)),
            ),
        });
    }
    const lasts = await sequencesOf(conn).nextMany(groups.map((g) => g.step));
    groups.forEach((g, i) => g.file(lasts[i]!));
    return filed;
  }

  return {
    size,
    async insert(doc, options) {
      const [filed] = await numbered([doc], options?.numberFrom);
      const [stored] = await insertBuilt(model, [filed as T]);
      return stored!;
    },
    async insertMany(docs, options) {
      const filed = await numbered(docs, options?.numberFrom);
      return insertBuilt(model, filed as T[], { ordered: options?.ordered ?? true });
    },
    async page(feed, owner, page, pageSize) {
      if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > BUCKET_SIZE)
        throw new RangeError(`pageSize must be 1..${BUCKET_SIZE}`);
      const total = await size(feed, owner);
      const newest = total - (page - 1) * pageSize; // sequence numbers start at 1
      const oldest = Math.max(1, newest - pageSize + 1);
      if (newest < 1) return { items: [], total };
      const keys = [...new Set([bucketKey(owner, newest), bucketKey(owner, oldest)])];
      // One equality read per bucket: the form every backend serves from an index.
      const buckets = await Promise.all(
        keys.map((key) => model.find({ [keyField(feed)]: key } as never).lean<T[]>()),
      );
      const seqOf = (d: T) => (d as Record<string, number | undefined>)[seqField(feed)] ?? 0;
      const items = buckets
        .flat()
        .filter((d) => seqOf(d) >= oldest && seqOf(d) <= newest)
        .sort((a, b) => seqOf(b) - seqOf(a));
      return { items, total };
    },
  };
}
