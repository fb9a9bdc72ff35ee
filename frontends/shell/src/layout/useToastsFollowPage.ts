import { notifications, useNotifications } from '@mantine/notifications';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * A toast raised this long before a navigation is the action's own announcement ("Product created"
 * and the move to /market): it stays on the page the action led to. An older one belongs to the page
 * being left.
 */
export const TOAST_CARRIES_OVER_MS = 1000;

/**
 * Toasts belong to the page they were raised on: when the path changes, the toasts shown before the
 * navigation (and any queued behind them) are closed, so that none follows the user around the site.
 */
export function useToastsFollowPage() {
  const { pathname } = useLocation();
  const { notifications: shown } = useNotifications();
  const seen = useRef(new Map<string, number>());

  useEffect(() => {
    const now = Date.now();
    const ids = new Set(shown.map((n) => n.id).filter((id): id is string => Boolean(id)));
    for (const id of ids) if (!seen.current.has(id)) seen.current.set(id, now);
    for (const id of seen.current.keys()) if (!ids.has(id)) seen.current.delete(id);
  }, [shown]);

  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const before = Date.now() - TOAST_CARRIES_OVER_MS;
    for (const [id, at] of seen.current) if (at < before) notifications.hide(id);
    notifications.cleanQueue();
  }, [pathname]);
}
