import {
  CURRENT_USER_QUERY_KEY,
  type CurrentUser,
  type RemotePageLocation,
  type RemoteRoutesModule,
} from '@qm/ui';
import type { QueryClient } from '@tanstack/react-query';
import { queryClient } from '../queryClient';
import { federation } from './federation';
import { loadRemoteModule, type RemoteName } from './registry';
import { warmFormats } from './warmFormats';

/** The remote page the application was opened on (a route of the shell's table and where it matched). */
export interface OpenedPage extends RemotePageLocation {
  path: string;
}

/**
 * Fetches a remote page's frame and the federation runtime ahead of need, and loads the locale data of
 * prices and dates off the main thread (warmFormats.ts); with a remote, also its pages, and then the
 * first queries of the page opened. A failure here is not reported: the page that needs the remote
 * shows it (RemoteBoundary).
 */
export function warmRemotes(remote?: RemoteName, opened?: OpenedPage): void {
  void import('./RemotePage').catch(() => undefined);
  warmFormats();
  if (remote)
    loadRemoteModule<RemoteRoutesModule>(remote, 'routes').then(
      (mod) => opened && prefetchOpenedPage(queryClient, mod, opened),
      () => undefined,
    );
  else federation().catch(() => undefined);
}

/** Starts the opened page's queries (RemoteRoute.prefetch) when someone is known to be signed in. */
export function prefetchOpenedPage(
  client: QueryClient,
  mod: RemoteRoutesModule,
  { path, ...at }: OpenedPage,
): void {
  // A visitor is sent to sign in, and the page's calls would only answer 401.
  const user = client.getQueryData<CurrentUser | null>(CURRENT_USER_QUERY_KEY);
  if (!user) return;
  mod.default.find((route) => route.path === path)?.prefetch?.(client, at, user);
}
