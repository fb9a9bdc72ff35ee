import type { Model } from 'mongoose';

/**
 * What a service's data code may ask of the database beyond the plain MongoDB API (mongoose and the
 * mongodb driver), each capability named for what it does. Every engine answers the same for each;
 * how fast, and through what, is the engine's business (docs/adr/024).
 */
export type StoreEngineName = 'mongodb' | 'ferretdb-postgresql';

/**
 * Named counters of a service database: numeric ids ("Order #42") and the per-owner numbers of
 * feeds (feeds.ts). Concurrent takers never share a number; a crash after taking one leaves a gap.
 */
export interface SequenceStep {
  name: string;
  count: number;
}

export interface Sequences {
  /** Takes `count` consecutive numbers of `name` and answers the last. */
  next(name: string, count?: number): Promise<number>;
  /**
   * `next` of several counters at once (a document numbered in several feeds): the last number of
   * each, in the order asked. A name may appear more than once; each gets its own numbers.
   */
  nextMany(steps: SequenceStep[]): Promise<number[]>;
  /** The last number taken of `name`, 0 before the first. */
  current(name: string): Promise<number>;
  /** Sets a counter: for bulk loaders that number documents themselves. */
  set(name: string, seq: number): Promise<void>;
  /** Forgets every counter whose name starts with `prefix`: for a loader that empties a collection. */
  clear(prefix: string): Promise<void>;
}

export type Scalar = string | number | boolean;

/** A sorted, skip-paged read (an administrator's list by date or amount, with an equality filter). */
export interface OrderedPageQuery {
  /** Top-level fields that must equal these values. */
  equals: Record<string, Scalar>;
  /** Sort keys in order; declare the same compound index on the schema. */
  sort: [field: string, direction: 1 | -1][];
  skip: number;
  limit: number;
}

/** Types of the fields a text search answers (a date as a Date, a missing string as null). */
export type SearchFieldType = 'string' | 'optional-string' | 'number' | 'date';

/** A collection searched by substring over one lowercase text field, newest first. */
export interface TextSearchSpec {
  collection: string;
  /** The lowercase text field a search looks into. */
  field: string;
  /** A numeric field: matches come highest first (a feed's sequence number). */
  order: string;
  /** Equality filters a search may combine with its text, and that get an index with `order` (a user). */
  orderedWithin: string[];
  /** The fields answered (besides `_id`, a string), and their types. */
  fields: Record<string, SearchFieldType>;
}

export interface TextSearchQuery {
  /** Lowercase, not empty; matched as a literal substring. */
  text: string;
  /** Top-level fields that must also equal these values. */
  equals: Record<string, Scalar>;
  skip: number;
  limit: number;
}

export interface TextSearch {
  /** Up to `limit` matches, highest `order` first, with `_id` and the product reference's fields. */
  find(q: TextSearchQuery): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** The engine a service's database runs on, bound to that database's connection. */
export interface StoreEngine {
  readonly name: StoreEngineName;
  /** The database's counters. */
  readonly sequences: Sequences;
  /**
   * Makes the database serve equality lookups on `fields` of `collection` (named in its declared
   * indexes, which ensureIndexes has created through the MongoDB API already). Idempotent.
   */
  serveIndexes(collection: string, fields: string[]): Promise<void>;
  /** One page of `model`'s documents in `q`'s order, and how many match. */
  orderedPage<T extends { _id: string | number }>(
    model: Model<T>,
    q: OrderedPageQuery,
  ): Promise<{ items: T[]; total: number }>;
  /** How many of `model`'s documents have these top-level values (a status count on a large collection). */
  countEqual<T>(model: Model<T>, equals: Record<string, Scalar>): Promise<number>;
  /** The sum of a numeric top-level `field` over the documents with these values, added up by the database. */
  sumEqual<T>(model: Model<T>, equals: Record<string, Scalar>, field: string): Promise<number>;
  /** Substring search of a collection, with whatever indexes it needs created now. */
  textSearch(spec: TextSearchSpec): Promise<TextSearch>;
  /**
   * Before a loader fills `collection` in bulk (load/seed-activity.ts): takes away the engine's own
   * indexes of it, which slow every insert down; ensureIndexes and textSearch make them again once
   * the data is in. Reads answer the same meanwhile, only slower.
   */
  beginBulkLoad(collection: string): Promise<void>;
  /** After a bulk load and the indexes made again: has the engine plan its reads over the new data. */
  endBulkLoad(collection: string): Promise<void>;
  /** Closes what the engine opened besides the MongoDB connection itself. */
  close(): Promise<void>;
}
