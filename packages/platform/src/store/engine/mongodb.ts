import type { Connection, Model } from 'mongoose';
import { isDuplicateKeyError } from '../../mongo';
import { askedTogether, takeInOrder } from './sequence-steps';
import {
  type OrderedPageQuery,
  type Sequences,
  type StoreEngine,
  type TextSearch,
  type TextSearchSpec,
} from './types';

/**
 * The `mongodb` engine: the MongoDB API and nothing else, so it runs on any server that speaks the
 * MongoDB protocol (the Helm chart's MongoDB; FerretDB too, where CI runs it, docs/adr/024).
 */

interface CounterDoc {
  _id: string;
  seq: number;
}

/** The collection that holds counters on this engine (and that the other engine moves out of). */
export const COUNTERS_COLLECTION = 'counters';
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Counters as documents of the database's `counters` collection, one `$inc` a step. */
export function collectionSequences(conn: Connection): Sequences {
  const counters = () => conn.collection<CounterDoc>(COUNTERS_COLLECTION);
  const sequences: Sequences = {
    async next(name, count = 1) {
      for (let attempt = 0; ; attempt++) {
        try {
          const doc = await counters().findOneAndUpdate(
            { _id: name },
            { $inc: { seq: count } },
            { upsert: true, returnDocument: 'after' },
          );
          if (!doc) throw new Error(`sequence ${name} did not return a value`);
          return doc.seq;
        } catch (err) {
          // Two first-ever upserts race on inserting the counter; the loser retries as an update.
          if (!isDuplicateKeyError(err) || attempt >= 5) throw err;
        }
      }
    },
    // One command a counter: MongoDB has no multi-document findOneAndUpdate, and each is cheap there.
    nextMany: askedTogether((steps) =>
      takeInOrder(
        steps,
        async (totals) =>
          new Map(
            await Promise.all(
              [...totals].map(async ([name, count]) => [name, await sequences.next(name, count)] as const),
            ),
          ),
      ),
    ),
    current: async (name) => (await counters().findOne({ _id: name }))?.seq ?? 0,
    async set(name, seq) {
      await counters().updateOne({ _id: name }, { $set: { seq } }, { upsert: true });
    },
    async clear(prefix) {
      await counters().deleteMany({ _id: { $regex: `^${escapeRegex(prefix)}` } } as never);
    },
  };
  return sequences;
}

/** `find().sort().skip().limit()` and `countDocuments`, served by the declared compound index. */
export async function plainOrderedPage<T extends { _id: string | number }>(
  model: Model<T>,
  q: OrderedPageQuery,
): Promise<{ items: T[]; total: number }> {
  const [items, total] = await Promise.all([
    model.find(q.equals).sort(Object.fromEntries(q.sort)).skip(q.skip).limit(q.limit).lean<T[]>().exec(),
    model.countDocuments(q.equals).exec(),
  ]);
  return { items, total };
}

/**
 * A case-sensitive regex over the lowercase field, in the order's index: MongoDB walks the order
 * and stops at the page (on a server that pushes no regex down it reads the collection).
 */
export function regexTextSearch(conn: Connection, spec: TextSearchSpec): TextSearch {
  const projection = Object.fromEntries(Object.keys(spec.fields).map((f) => [f, 1]));
  return {
    async find(q) {
      const docs = await conn
        .collection(spec.collection)
        .find({ ...q.equals, [spec.field]: { $regex: escapeRegex(q.text) } }, { projection })
        .sort({ [spec.order]: -1 })
        .skip(q.skip)
        .limit(q.limit)
        .toArray();
      return docs.map((d) => {
        const out: Record<string, unknown> = { _id: d._id };
        for (const [f, type] of Object.entries(spec.fields))
          out[f] = type === 'optional-string' ? (d[f] ?? null) : d[f];
        return out;
      });
    },
    close: async () => undefined,
  };
}

export function mongodbEngine(conn: Connection): StoreEngine {
  return {
    name: 'mongodb',
    sequences: collectionSequences(conn),
    serveIndexes: async () => undefined,
    orderedPage: plainOrderedPage,
    countEqual: (model, equals) => model.countDocuments(equals as never).exec(),
    async sumEqual(model, equals, field) {
      const [out] = await model
        .aggregate<{ total: number }>([
          { $match: equals },
          { $group: { _id: null, total: { $sum: `$${field}` } } },
        ])
        .exec();
      return out?.total ?? 0;
    },
    textSearch: async (spec) => regexTextSearch(conn, spec),
    // MongoDB keeps no indexes of its own beyond the declared ones, and plans from the data itself.
    beginBulkLoad: async () => undefined,
    endBulkLoad: async () => undefined,
    close: async () => undefined,
  };
}
