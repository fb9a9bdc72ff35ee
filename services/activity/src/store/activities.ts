import type { ActivityCategoryName } from '@qm/contracts/rest';
import { addFeeds, BUCKET_SIZE, type FeedPage, feedsOf, onlyDuplicateKeyErrors } from '@qm/platform';
import { type Connection, type Model, Schema } from 'mongoose';
import { type ActivityRecord, searchTextOf } from '../domain/activity';

/**
 * The activity log, the largest collection: one document per activity.recorded event, its `_id`
 * the event id, so a redelivered event meets the unique `_id` and changes nothing.
 *
 * Every filter of the admin's page without text is a feed (@qm/platform feeds): the whole log, a
 * user's, a category's, an action's, and a user's within a category or an action. A page of any of
 * them is at most two indexed equality reads at any size, on every store engine (docs/adr/004).
 * Text filters use the engine's text search over `search` (./search.ts, docs/adr/011).
 */
export interface ActivityDoc extends Omit<ActivityRecord, 'id'> {
  _id: string;
  /** searchTextOf(): lowercase username, email, action and details, a line each. */
  search: string;
}

export const ACTIVITY_COLLECTION = 'activities';

const activitySchema = new Schema<ActivityDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: Number, required: true },
    username: { type: String, required: true },
    email: { type: String, default: '' },
    action: { type: String, required: true },
    details: { type: String, default: '' },
    category: { type: String, default: null },
    createdAt: { type: Date, required: true },
    search: { type: String, required: true },
  },
  { collection: ACTIVITY_COLLECTION, versionKey: false, strict: true, autoIndex: false },
);

/** Owner of the feed of records with no category (an action of no tab). */
const UNCATEGORISED = '-';
const ALL = 'all';

export const ACTIVITY_FEEDS = {
  all: () => ALL,
  user: (d: Pick<ActivityDoc, 'userId'>) => d.userId,
  category: (d: Pick<ActivityDoc, 'category'>) => d.category ?? UNCATEGORISED,
  action: (d: Pick<ActivityDoc, 'action'>) => d.action,
  userCategory: (d: Pick<ActivityDoc, 'userId' | 'category'>) => `${d.userId}:${d.category ?? UNCATEGORISED}`,
  userAction: (d: Pick<ActivityDoc, 'userId' | 'action'>) => `${d.userId}:${d.action}`,
} as const;
export type ActivityFeed = keyof typeof ACTIVITY_FEEDS;
addFeeds(activitySchema, Object.keys(ACTIVITY_FEEDS));

/** The number a document has in the whole log's feed: newest first is this, descending. */
export const ORDER_FIELD = 'feedSeq_all';

export function registerActivityModel(conn: Connection) {
  return (
    (conn.models.Activity as Model<ActivityDoc> | undefined) ??
    conn.model<ActivityDoc>('Activity', activitySchema)
  );
}

export function toDoc(r: ActivityRecord): ActivityDoc {
  const { id, ...rest } = r;
  return { _id: id, ...rest, search: searchTextOf(r) };
}

export function fromDoc(d: Pick<ActivityDoc, Exclude<keyof ActivityDoc, 'search'>>): ActivityRecord {
  return {
    id: d._id,
    userId: d.userId,
    username: d.username,
    email: d.email ?? '',
    action: d.action,
    details: d.details ?? '',
    category: (d.category ?? null) as ActivityCategoryName | null,
    createdAt: new Date(d.createdAt),
  };
}

/** Which feed and owner serve a filter of user, category and action (no text). */
export function feedFor(f: { userId?: number; category?: ActivityCategoryName; action?: string }): {
  feed: ActivityFeed;
  owner: string | number;
} {
  if (f.userId !== undefined && f.action !== undefined)
    return { feed: 'userAction', owner: ACTIVITY_FEEDS.userAction({ userId: f.userId, action: f.action }) };
  if (f.userId !== undefined && f.category !== undefined)
    return {
      feed: 'userCategory',
      owner: ACTIVITY_FEEDS.userCategory({ userId: f.userId, category: f.category }),
    };
  if (f.userId !== undefined) return { feed: 'user', owner: f.userId };
  if (f.action !== undefined) return { feed: 'action', owner: f.action };
  if (f.category !== undefined) return { feed: 'category', owner: f.category };
  return { feed: 'all', owner: ALL };
}

export interface ActivityStore {
  model: Model<ActivityDoc>;
  /**
   * Which of these event ids have no record yet (a redelivery costs a point read, not a lookup).
   * One equality read per id, side by side: the local engine serves `$in` from no index (ADR 004).
   */
  missing(ids: string[]): Promise<Set<string>>;
  /**
   * Stores records not there yet, in one write and one counter step per feed and owner. Two
   * deliveries racing both pass `missing`; the unique `_id` stops the second copy (its feed numbers
   * become a gap of one in a page, never a duplicate) while the batch's other records are stored.
   */
  addMany(records: ActivityRecord[]): Promise<void>;
  /** Page `page` of an owner's feed, newest first (at most a bucket's worth). */
  page(
    feed: ActivityFeed,
    owner: string | number,
    page: number,
    pageSize: number,
  ): Promise<FeedPage<ActivityRecord>>;
}

export function createActivityStore(conn: Connection): ActivityStore {
  const model = registerActivityModel(conn);
  const feeds = feedsOf<ActivityDoc>(conn, model, ACTIVITY_FEEDS);
  return {
    model,
    async missing(ids: string[]): Promise<Set<string>> {
      const stored = await Promise.all(ids.map((id) => model.exists({ _id: id })));
      return new Set(ids.filter((_, i) => !stored[i]));
    },
    async addMany(records: ActivityRecord[]): Promise<void> {
      if (!records.length) return;
      try {
        await feeds.insertMany(records.map(toDoc), { ordered: false });
      } catch (err) {
        if (!onlyDuplicateKeyErrors(err)) throw err;
      }
    },
    async page(
      feed: ActivityFeed,
      owner: string | number,
      page: number,
      pageSize: number,
    ): Promise<FeedPage<ActivityRecord>> {
      const out = await feeds.page(feed, owner, page, Math.min(pageSize, BUCKET_SIZE));
      return { items: out.items.map(fromDoc), total: out.total };
    },
  };
}
