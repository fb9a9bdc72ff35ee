import type { QueryStatusName } from '@qm/contracts/rest';
import { addFeeds, countEqual, feedsOf, nextSequence, orderedPage } from '@qm/platform';
import { type Connection, Schema } from 'mongoose';
import type { QueryRecord, QueryReply } from '../domain/query';

/**
 * Queries, one document each with the replies that moved it. A reply is one conditional update on
 * the status it starts from, so of two administrators answering at once only one moves the query.
 *
 * The unfiltered list is a feed (@qm/platform feeds: a page costs the same at any size); a status
 * filter is an ordered page (@qm/platform orderedPage, ADR 013) of the {status, _id} index.
 */
interface QueryDoc extends QueryRecord {
  _id: number;
}

const replySchema = new Schema<QueryReply>(
  {
    id: { type: String, required: true },
    status: { type: String, required: true },
    response: { type: String, required: true },
    byUserId: { type: Number, required: true },
    at: { type: Date, required: true },
  },
  { _id: false },
);

const querySchema = new Schema<QueryDoc>(
  {
    _id: { type: Number, required: true },
    id: { type: Number, required: true },
    fullName: { type: String, required: true },
    email: { type: String, required: true },
    subject: { type: String, required: true },
    message: { type: String, required: true },
    status: { type: String, required: true },
    response: { type: String, default: '' },
    replies: { type: [replySchema], default: [] },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    userId: { type: Number },
  },
  { collection: 'queries', versionKey: false, strict: true, autoIndex: false },
);
// The status filter (newest first) and the cards' counts.
querySchema.index({ status: 1, _id: -1 });

const ALL = 'all';
addFeeds(querySchema, [ALL]);

const toRecord = ({ _id, ...d }: QueryDoc & Record<string, unknown>): QueryRecord => {
  for (const k of Object.keys(d)) if (k.startsWith('feed')) delete d[k];
  return d as QueryRecord;
};

export interface QueryStore {
  nextId(): Promise<number>;
  insert(q: QueryRecord): Promise<QueryRecord>;
  get(id: number): Promise<QueryRecord | null>;
  /**
   * Records the reply and its status if the query is still `from`. Answers the query as it is
   * now, or null when it had moved on (or never existed).
   */
  reply(id: number, from: QueryStatusName, reply: QueryReply): Promise<QueryRecord | null>;
  /** Page `page` of every query, newest first. */
  pageAll(page: number, pageSize: number): Promise<{ queries: QueryRecord[]; total: number }>;
  /** Page `page` of the queries of one status, newest first (an ordered page, docs/adr/013). */
  pageByStatus(
    status: QueryStatusName,
    page: number,
    pageSize: number,
  ): Promise<{ queries: QueryRecord[]; total: number }>;
  /** How many queries were ever submitted (the feed's counter: no query is read). */
  size(): Promise<number>;
  countByStatus(status: QueryStatusName): Promise<number>;
}

export function createQueryStore(conn: Connection): QueryStore {
  const Queries = conn.model<QueryDoc>('Query', querySchema);
  const feeds = feedsOf<QueryDoc>(conn, Queries, { [ALL]: () => ALL });

  return {
    nextId: () => nextSequence(conn, 'queries'),

    async insert(q: QueryRecord): Promise<QueryRecord> {
      return toRecord((await feeds.insert({ _id: q.id, ...q })) as never);
    },

    async get(id: number): Promise<QueryRecord | null> {
      const d = await Queries.findById(id).lean<QueryDoc>().exec();
      return d ? toRecord(d as never) : null;
    },

    async reply(id: number, from: QueryStatusName, reply: QueryReply): Promise<QueryRecord | null> {
      const d = await Queries.findOneAndUpdate(
        { _id: id, status: from },
        {
          $set: { status: reply.status, response: reply.response, updatedAt: reply.at },
          $push: { replies: reply },
        },
        { new: true },
      )
        .lean<QueryDoc>()
        .exec();
      return d ? toRecord(d as never) : null;
    },

    async pageAll(page: number, pageSize: number) {
      const { items, total } = await feeds.page(ALL, ALL, page, pageSize);
      return { queries: items.map((d) => toRecord(d as never)), total };
    },

    async pageByStatus(status: QueryStatusName, page: number, pageSize: number) {
      const { items: docs, total } = await orderedPage(Queries, {
        equals: { status },
        sort: [['_id', -1]],
        skip: (page - 1) * pageSize,
        limit: pageSize,
      });
      return { queries: docs.map((d) => toRecord(d as never)), total };
    },

    size: (): Promise<number> => feeds.size(ALL, ALL),

    countByStatus: (status: QueryStatusName) => countEqual(Queries, { status }),
  };
}
