import { notifications, type NotificationData } from '@mantine/notifications';

/**
 * Shows a toast that replaces whatever toast is showing (docs/product.md §9: one toast visible at a time). Without
 * this, quick successive toasts (generate → copy → apply) would queue and trail the actions by seconds.
 */
export function toast(data: NotificationData) {
  notifications.clean();
  notifications.show(data);
}
