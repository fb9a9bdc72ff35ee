import type { ActivityCategoryName } from '@qm/contracts/rest';
import type { StoreEngine, TextSearchSpec } from '@qm/platform';
import type { ActivityRecord } from '../domain/activity';
import { ACTIVITY_COLLECTION, type ActivityDoc, fromDoc, ORDER_FIELD } from './activities';

/** A text filter, optionally with the other filters (docs/product.md §5 "Admin activity filters"). */
export interface SearchQuery {
  /** Lowercase, one line, not empty. */
  text: string;
  userId?: number;
  category?: ActivityCategoryName;
  action?: string;
  /** 0-based. */
  offset: number;
  limit: number;
}

/**
 * Newest-first matches of a case-insensitive substring (docs/adr/011). Returns up to limit + 1,
 * so the caller knows whether a further page has any; no total (it would cost a full count).
 */
export interface ActivitySearch {
  find(q: SearchQuery): Promise<ActivityRecord[]>;
  close(): Promise<void>;
}

/** The log's text search as the store engine runs it (docs/adr/024: a regex, or the engine's index). */
export const ACTIVITY_SEARCH: TextSearchSpec = {
  collection: ACTIVITY_COLLECTION,
  field: 'search',
  order: ORDER_FIELD,
  // The admin searches within one user's log.
  orderedWithin: ['userId'],
  fields: {
    userId: 'number',
    username: 'string',
    email: 'string',
    action: 'string',
    details: 'string',
    category: 'optional-string',
    createdAt: 'date',
  },
};

/** The search over the engine's text search capability; creates what it needs at once. */
export async function createActivitySearch(engine: StoreEngine): Promise<ActivitySearch> {
  const search = await engine.textSearch(ACTIVITY_SEARCH);
  return {
    async find(q) {
      const equals: Record<string, string | number> = {};
      if (q.userId !== undefined) equals.userId = q.userId;
      if (q.category !== undefined) equals.category = q.category;
      if (q.action !== undefined) equals.action = q.action;
      const docs = await search.find({ text: q.text, equals, skip: q.offset, limit: q.limit + 1 });
      return docs.map((d) => fromDoc(d as unknown as Omit<ActivityDoc, 'search'>));
    },
    close: () => search.close(),
  };
}
