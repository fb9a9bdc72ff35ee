import {
  ACTIVITY_ACTIONS,
  AdminActivitiesQuery,
  activitySearchText,
  categoriesOf,
  categoryOf,
  prettyAction,
  RecordActivityBody,
} from '../src/api/activity';
import { ACTIVITY_SUBJECT, activityEvent } from '../src/events/activity';

describe('activity rules (docs/product.md §5 "Admin activity filters")', () => {
  it('files every action of docs/product.md §3 under at most one tab, by its substrings', () => {
    for (const action of ACTIVITY_ACTIONS)
      expect([action, categoriesOf(action).length <= 1]).toEqual([action, true]);
    expect(Object.fromEntries(ACTIVITY_ACTIONS.map((a) => [a, categoryOf(a) ?? null]))).toEqual({
      login: 'login',
      logout: null,
      failed_login: 'login',
      profile_view: 'profile',
      profile_update: 'profile',
      wallet_view: 'wallet',
      wallet_transaction: 'wallet',
      wallet_transfer: 'wallet',
      wallet_add_money: 'wallet',
      order_place: 'orders',
      order_view: 'orders',
      password_change: 'password',
      password_reset_request: 'password',
      password_change_otp_requested: 'password',
      product_view: 'orders',
      product_create: 'orders',
      product_update: 'orders',
      product_delete: 'orders',
      refund_requested: 'orders',
      refund_approved: 'orders',
      refund_rejected: 'orders',
      proceeds_released: 'wallet',
    });
    expect(categoryOf('update_user')).toBe('profile');
    expect(categoryOf('purchase_made')).toBe('orders');
    expect(categoryOf('money_transfer')).toBe('wallet');
  });

  it('prettifies action names for the filter and badges', () => {
    expect(prettyAction('wallet_add_money')).toBe('Wallet Add Money');
    expect(prettyAction('login')).toBe('Login');
  });

  it('searches a lowercase line per field', () => {
    expect(activitySearchText({ username: 'Ann', email: 'A@X.io', action: 'login', details: 'Hi' })).toBe(
      'ann\na@x.io\nlogin\nhi',
    );
  });

  it('takes only client-side actions and bounded, one-line filters', () => {
    expect(RecordActivityBody.safeParse({ action: 'profile_view' }).success).toBe(true);
    expect(RecordActivityBody.safeParse({ action: 'login' }).success).toBe(false);
    expect(AdminActivitiesQuery.parse({ userId: '7', category: 'wallet' })).toMatchObject({
      userId: 7,
      page: 1,
      pageSize: 20,
    });
    expect(AdminActivitiesQuery.safeParse({ search: 'a\nb' }).success).toBe(false);
    expect(AdminActivitiesQuery.safeParse({ category: 'logout' }).success).toBe(false);
  });
});

describe('activityEvent', () => {
  it("is the user's activity as an outbox event on activity.recorded", () => {
    const out = activityEvent({ userId: 7, username: 'army1' }, 'order_view', 'Viewed orders');
    expect(out.subject).toBe(ACTIVITY_SUBJECT);
    expect(out.event).toMatchObject({
      type: ACTIVITY_SUBJECT,
      data: { userId: 7, username: 'army1', action: 'order_view', details: 'Viewed orders' },
    });
    expect(out.event.id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
