/** Activity of a signed-in user, consumed by the activity service (docs/product.md §7 action names). */
export interface ActivityData {
  userId: number;
  username: string;
  action: string;
  details: string;
}

export const ACTIVITY_SUBJECT = 'activity.recorded';
