import { notifications, notificationsStore } from '@mantine/notifications';
import { toastCarriesOver } from '@qm/ui';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * Toasts belong to the page they were raised on: when the path changes, the toasts shown (and any
 * queued behind them) close, so that none follows the user around the site. The one exception is a
 * toast raised with `nextPage` (@qm/ui toast) on the page being left: it announces this navigation
 * ("Product created" and the move to /market), and closes at the next one.
 */
export function useToastsFollowPage() {
  const { pathname } = useLocation();
  const lastNavigation = useRef(0);

  useEffect(() => {
    const previous = lastNavigation.current;
    lastNavigation.current = Date.now();
    if (previous === 0) return; // the first page
    for (const { id } of notificationsStore.getState().notifications)
      if (id && !toastCarriesOver(id, previous)) notifications.hide(id);
    notifications.cleanQueue();
  }, [pathname]);
}
