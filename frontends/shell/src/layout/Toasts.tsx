import { useNotifications } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';

// The renderer (transitions, portal) is fetched with the first toast, not with every page.
const ToastStack = lazy(() => import('./ToastStack'));

/**
 * Shows the toasts of `notifications.show` from anywhere (shell or remote). The store keeps a toast
 * raised before the renderer has arrived, and the renderer shows it once it has.
 */
export function Toasts() {
  const { notifications, queue } = useNotifications();
  const [wanted, setWanted] = useState(false);
  if (!wanted && notifications.length + queue.length > 0) setWanted(true);
  return wanted ? (
    <Suspense fallback={null}>
      <ToastStack />
    </Suspense>
  ) : null;
}
