import { z } from 'zod';
import { idParam, pagingQuery } from './numbers';

/**
 * REST shapes of docs/product.md §7 for the activity log (POST/GET /api/user/activity, GET
 * /api/admin/user-activities) and the rules of docs/product.md §5 "Admin activity filters", shared by the
 * gateway, the activity service (which files each record under its category) and the admin remote.
 */

/** docs/product.md §3 "Activity action values". */
export const ACTIVITY_ACTIONS = [
  'login',
  'logout',
  'failed_login',
  'profile_view',
  'profile_update',
  'wallet_view',
  'wallet_transaction',
  'wallet_transfer',
  'wallet_add_money',
  'order_place',
  'order_view',
  'password_change',
  'password_reset_request',
  'password_change_otp_requested',
  'product_view',
  'product_create',
  'product_update',
  'product_delete',
  // Refunds (docs/adr/028): the buyer's request, an administrator's decision, a sale's proceeds
  // reaching its seller's balance when the refund window closes.
  'refund_requested',
  'refund_approved',
  'refund_rejected',
  'proceeds_released',
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/**
 * The actions only a browser knows happened (it opened a page); every other action is recorded by
 * the service that performed it, so a client can neither forge nor double it.
 */
export const CLIENT_ACTIVITY_ACTIONS = ['profile_view'] as const satisfies readonly ActivityAction[];
export type ClientActivityAction = (typeof CLIENT_ACTIVITY_ACTIONS)[number];

/** The category tabs of /admin/user-activities, in their order (All is no category). */
export const ACTIVITY_CATEGORIES = ['login', 'profile', 'wallet', 'orders', 'password'] as const;
export type ActivityCategoryName = (typeof ACTIVITY_CATEGORIES)[number];

export const ACTIVITY_CATEGORY_LABELS: Record<ActivityCategoryName, string> = {
  login: 'Login',
  profile: 'Profile',
  wallet: 'Wallet',
  orders: 'Orders',
  password: 'Password',
};

/** docs/product.md §5: a tab matches an action containing any of its substrings. */
const CATEGORY_SUBSTRINGS: Record<ActivityCategoryName, readonly string[]> = {
  login: ['login'],
  profile: ['profile', 'update_user'],
  // 'proceeds' and 'refund' extend §5 for the refund actions it predates (docs/adr/028).
  wallet: ['wallet', 'transfer', 'transaction', 'proceeds'],
  orders: ['order', 'purchase', 'product', 'refund'],
  password: ['password'],
};

/** The tabs whose substrings `action` contains (docs/product.md §5 matching, case-insensitive). */
export function categoriesOf(action: string): ActivityCategoryName[] {
  const a = action.toLowerCase();
  return ACTIVITY_CATEGORIES.filter((c) => CATEGORY_SUBSTRINGS[c].some((s) => a.includes(s)));
}

/**
 * The one category a record is filed under, so the tab filter is an equality: the first tab that
 * matches (no action of ACTIVITY_ACTIONS matches two; a unit test holds that), or undefined when
 * none does (logout: it contains no "login", so it shows under All only).
 */
export function categoryOf(action: string): ActivityCategoryName | undefined {
  return categoriesOf(action)[0];
}

/** "wallet_add_money" → "Wallet Add Money" (the action filter's and badges' labels, docs/product.md §2). */
export function prettyAction(action: string): string {
  return action
    .split('_')
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

/** What docs/product.md §5's text search matches, lowercased: username, email, action and details. */
export function activitySearchText(r: {
  username: string;
  email: string;
  action: string;
  details: string;
}): string {
  // A line each: the search term may hold no line break, so a match never spans two fields.
  return [r.username, r.email, r.action, r.details].join('\n').toLowerCase();
}

export const ACTIVITY_LIMITS = {
  detailsMax: 2000,
  searchMax: 100,
  /** Lists are read in feed buckets (@qm/platform feeds): at most this many per page. */
  pageSizeMax: 32,
} as const;

export const ACTIVITY_MESSAGES = {
  actionRequired: 'Action is required',
  actionNotClient: `Action must be one of ${CLIENT_ACTIVITY_ACTIONS.join(', ')} (the server records the others itself)`,
  detailsText: 'Details must be text',
  detailsMax: `Details must be at most ${ACTIVITY_LIMITS.detailsMax} characters`,
  actionUnknown: 'Action must be one of the activity actions',
  categoryUnknown: `Category must be one of ${ACTIVITY_CATEGORIES.join(', ')}`,
  searchMax: `Search must be at most ${ACTIVITY_LIMITS.searchMax} characters`,
  searchLine: 'Search must be one line of text',
  adminOnly: 'Only administrators can read every activity',
  fetchFailed: 'Failed to fetch user activities',
  noActivities: 'No activities found matching your filter criteria',
  noUsers: 'No users found matching your search criteria',
} as const;

/** POST /api/user/activity: the server stamps who and when. */
export const RecordActivityBody = z.object({
  action: z.enum(CLIENT_ACTIVITY_ACTIONS, { error: ACTIVITY_MESSAGES.actionNotClient }),
  details: z
    .preprocess(
      (v) => (v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : v),
      z
        .string({ error: ACTIVITY_MESSAGES.detailsText })
        .max(ACTIVITY_LIMITS.detailsMax, ACTIVITY_MESSAGES.detailsMax),
    )
    // Objects and arrays are stored as their JSON text; null as no details.
    .meta({ type: ['string', 'object', 'array', 'null'], maxLength: ACTIVITY_LIMITS.detailsMax })
    .optional(),
});
export type RecordActivityBody = z.infer<typeof RecordActivityBody>;

/** GET /api/user/activity. */
export const MyActivitiesQuery = z.object(pagingQuery(ACTIVITY_LIMITS.pageSizeMax));
export type MyActivitiesQuery = z.infer<typeof MyActivitiesQuery>;

/** GET /api/admin/user-activities: every filter optional (docs/product.md §5 "Admin activity filters"). */
export const AdminActivitiesQuery = MyActivitiesQuery.extend({
  userId: idParam('User id').optional(),
  category: z.enum(ACTIVITY_CATEGORIES, { error: ACTIVITY_MESSAGES.categoryUnknown }).optional(),
  action: z.enum(ACTIVITY_ACTIONS, { error: ACTIVITY_MESSAGES.actionUnknown }).optional(),
  search: z
    .string()
    .trim()
    .max(ACTIVITY_LIMITS.searchMax, ACTIVITY_MESSAGES.searchMax)
    // Unicode's control characters (Cc) spelled out: the API fuzzer cannot generate from \p{Cc}.
    // eslint-disable-next-line no-control-regex -- refusing control characters is the point
    .regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, ACTIVITY_MESSAGES.searchLine)
    .optional(),
});
export type AdminActivitiesQuery = z.infer<typeof AdminActivitiesQuery>;

/** docs/product.md §3 "Activity record" as read by admins (plus userId and the category it is filed under). */
export const ActivityViewSchema = z.object({
  id: z.string(),
  userId: z.number().int(),
  username: z.string(),
  email: z.string(),
  action: z.string(),
  category: z.enum(ACTIVITY_CATEGORIES).nullable(),
  details: z.string(),
  created_at: z.string(),
});
export type ActivityView = z.infer<typeof ActivityViewSchema>;

export const MyActivitiesPageSchema = z.object({
  activities: z.array(ActivityViewSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type MyActivitiesPage = z.infer<typeof MyActivitiesPageSchema>;

export const AdminActivitiesPageSchema = z.object({
  activities: z.array(ActivityViewSchema),
  /** How many match; null with a text search (counting every match would cost what paging saves). */
  total: z.number().int().nullable(),
  hasMore: z.boolean(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AdminActivitiesPage = z.infer<typeof AdminActivitiesPageSchema>;
