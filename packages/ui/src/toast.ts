import { notifications, type NotificationData } from '@mantine/notifications';

const NEXT_PAGE = 'qm-next-page-';
let made = 0;

/**
 * Shows a toast in place of the one showing (docs/product.md §9: one toast visible at a time).
 * `nextPage`: the action moves to another page right after ("Product created", then /market), and the
 * toast is its announcement there; every other toast closes when the user leaves the page it was
 * raised on (the shell's useToastsFollowPage).
 */
export function toast(data: NotificationData, options: { nextPage?: boolean } = {}): string {
  notifications.clean();
  const id = options.nextPage ? `${NEXT_PAGE}${Date.now()}-${++made}` : data.id;
  return notifications.show({ ...data, id });
}

/**
 * Whether the toast `id` stays across a navigation: it announces that navigation, i.e. it was raised
 * with `nextPage` after the navigation before (on the page being left).
 */
export function toastCarriesOver(id: string | undefined, previousNavigationAt: number): boolean {
  if (!id?.startsWith(NEXT_PAGE)) return false;
  const raisedAt = Number(id.slice(NEXT_PAGE.length).split('-')[0]);
  return raisedAt >= previousNavigationAt;
}
