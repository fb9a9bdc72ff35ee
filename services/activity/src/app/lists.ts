import {
  ACTIVITY_CATEGORIES,
  ACTIVITY_LIMITS,
  ACTIVITY_MESSAGES as MSG,
  type ActivityCategoryName,
  categoryOf,
} from '@qm/contracts/rest';
import {
  type Caller,
  type FeedPage,
  forbidden,
  hasRole,
  invalid,
  type Paging,
  signedInCaller,
  validPaging,
} from '@qm/platform';
import type { ActivityRecord } from '../domain/activity';
import { type ActivityStore, feedFor } from '../store/activities';
import type { ActivitySearch } from '../store/search';

export interface AdminFilter extends Paging {
  userId?: number;
  category?: ActivityCategoryName;
  action?: string;
  search?: string;
}

export interface AdminPage {
  items: ActivityRecord[];
  /** Undefined with a text filter. */
  total?: number;
  hasMore: boolean;
}

const paging = (req: Partial<Paging>): Paging => validPaging(req, ACTIVITY_LIMITS.pageSizeMax);

/** Reading the log: one's own activity, and everyone's for administrators (docs/product.md §5 filters). */
export interface ActivityLists {
  /** The caller's own activity, newest first. */
  mine(caller: Caller | undefined, req: Partial<Paging>): Promise<FeedPage<ActivityRecord>>;
  /** Administrators only: everyone's, filtered; a text filter searches instead of reading a feed. */
  all(caller: Caller | undefined, req: Partial<AdminFilter>): Promise<AdminPage>;
}

export function createActivityLists(d: { store: ActivityStore; search: ActivitySearch }): ActivityLists {
  return {
    async mine(caller: Caller | undefined, req: Partial<Paging>) {
      const who = signedInCaller(caller);
      const { page, pageSize } = paging(req);
      return d.store.page('user', who.userId, page, pageSize);
    },

    async all(caller: Caller | undefined, req: Partial<AdminFilter>): Promise<AdminPage> {
      if (!hasRole(signedInCaller(caller), 'Admin')) throw forbidden(MSG.adminOnly);
      const { page, pageSize } = paging(req);
      const f = filterOf(req);
      // An action outside the chosen tab matches nothing (both filters hold, docs/product.md §5).
      if (f.action && f.category && categoryOf(f.action) !== f.category)
        return { items: [], total: 0, hasMore: false };
      const offset = (page - 1) * pageSize;
      if (f.search) {
        const found = await d.search.find({ ...f, text: f.search, offset, limit: pageSize });
        return { items: found.slice(0, pageSize), hasMore: found.length > pageSize };
      }
      const { feed, owner } = feedFor(f);
      const { items, total } = await d.store.page(feed, owner, page, pageSize);
      return { items, total, hasMore: offset + pageSize < total };
    },
  };
}

/** The filters checked as the gateway checks them, for callers that are not the gateway. */
function filterOf(req: Partial<AdminFilter>): Omit<AdminFilter, keyof Paging> {
  const userId = req.userId || undefined;
  if (userId !== undefined && (!Number.isSafeInteger(userId) || userId < 1))
    throw invalid('User id must be positive');
  if (req.category !== undefined && !ACTIVITY_CATEGORIES.includes(req.category))
    throw invalid(MSG.categoryUnknown);
  const action = req.action?.trim() || undefined;
  if (action !== undefined && !/^[a-z][a-z0-9_]{1,63}$/.test(action)) throw invalid(MSG.actionUnknown);
  const search = req.search?.trim().toLowerCase() || undefined;
  if (search !== undefined && search.length > ACTIVITY_LIMITS.searchMax) throw invalid(MSG.searchMax);
  // eslint-disable-next-line no-control-regex
  if (search !== undefined && /[\u0000-\u001f\u007f]/.test(search)) throw invalid(MSG.searchLine);
  return { userId, category: req.category, action, search };
}
