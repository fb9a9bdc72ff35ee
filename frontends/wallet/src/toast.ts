import { notifications, type NotificationData } from '@mantine/notifications';

/** Shows a toast in place of the one showing (docs/product.md §9: one toast visible at a time). */
export function toast(data: NotificationData) {
  notifications.clean();
  notifications.show(data);
}
