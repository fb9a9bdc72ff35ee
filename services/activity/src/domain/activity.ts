import { type ActivityCategoryName, activitySearchText, categoryOf } from '@qm/contracts/rest';
import { z } from 'zod';

/** One stored activity (docs/product.md §3 "Activity record"); its id is the id of the event that recorded it. */
export interface ActivityRecord {
  id: string;
  userId: number;
  username: string;
  email: string;
  action: string;
  details: string;
  /** Filed under one tab (docs/product.md §5 substrings), so the category filter is an equality; null: none. */
  category: ActivityCategoryName | null;
  createdAt: Date;
}

/** The payload of activity.recorded (@qm/contracts/events ActivityData), checked on the way in. */
export const ActivityEventData = z.object({
  userId: z.number().int().positive(),
  username: z.string().max(200),
  action: z.string().regex(/^[a-z][a-z0-9_]{1,63}$/),
  details: z.string().max(10_000).default(''),
});

export function toRecord(
  event: { id: string; occurredAt: string },
  data: z.infer<typeof ActivityEventData>,
  email: string,
): ActivityRecord {
  const at = new Date(event.occurredAt);
  return {
    id: event.id,
    userId: data.userId,
    username: data.username,
    email,
    action: data.action,
    details: data.details,
    category: categoryOf(data.action) ?? null,
    // The publisher's clock: when it happened, not when this service got to it.
    createdAt: Number.isNaN(at.getTime()) ? new Date() : at,
  };
}

/** The lowercase text the free-text filter matches (username, email, action, details). */
export const searchTextOf = activitySearchText;
