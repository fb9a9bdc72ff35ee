import { notifications } from '@mantine/notifications';
import { useCurrentUser } from '@qm/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { applyLiveEvent, invalidateProducts, LIVE_EVENT_TYPES, type LiveContext } from './liveEvents';

/** How long product refreshes are gathered into one (a purchase moves stock twice, others buy too). */
const PRODUCTS_COALESCE_MS = 1000;
/** After the gateway refused the stream (signed out, too many tabs, no live updates): try again later. */
const REOPEN_AFTER_MS = 30_000;

/**
 * Live updates (docs/API.md) while someone is signed in: one EventSource on GET /api/live. The browser
 * reconnects by itself, with Last-Event-ID, after a dropped connection; the gateway replays what was
 * missed or says `reset`. The pages' own polling stays as the fallback.
 */
export function useLiveUpdates(): void {
  const { user } = useCurrentUser();
  const queryClient = useQueryClient();
  const userId = user?.id;

  useEffect(() => {
    if (userId === undefined || typeof EventSource === 'undefined') return;
    let source: EventSource | undefined;
    let reopen: ReturnType<typeof setTimeout> | undefined;
    let productsDue: ReturnType<typeof setTimeout> | undefined;

    const ctx: LiveContext = {
      queryClient,
      userId,
      notify: (toast) => notifications.show({ color: 'teal', ...toast }),
      refreshProducts() {
        productsDue ??= setTimeout(() => {
          productsDue = undefined;
          void invalidateProducts(queryClient);
        }, PRODUCTS_COALESCE_MS);
      },
    };

    function open() {
      source = new EventSource('/api/live', { withCredentials: true });
      for (const type of LIVE_EVENT_TYPES)
        source.addEventListener(type, (message) => {
          let data: unknown;
          try {
            data = JSON.parse((message as MessageEvent<string>).data);
          } catch {
            return;
          }
          void applyLiveEvent(type, data, ctx);
        });
      source.onerror = () => {
        // CONNECTING: the browser is reconnecting itself. CLOSED: the gateway answered with an error.
        if (source?.readyState !== EventSource.CLOSED) return;
        reopen = setTimeout(open, REOPEN_AFTER_MS);
      };
    }

    open();
    return () => {
      source?.close();
      clearTimeout(reopen);
      clearTimeout(productsDue);
    };
  }, [userId, queryClient]);
}
