import type { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { CurrentUser } from './user';

/** Where a page is opened: its path parameters and query string. */
export interface RemotePageLocation {
  params: Readonly<Record<string, string | undefined>>;
  search: URLSearchParams;
}

/**
 * The contract between the shell and a remote's `./routes` module: its default export is a list of routes.
 * `path` is the absolute path of the shell's route table (docs/product.md §2); the shell owns guards and layout and
 * renders `element` inside its own matching route, so `useParams()` works as usual in remote pages.
 */
export interface RemoteRoute {
  path: string;
  element: ReactNode;
  /**
   * Starts the page's first queries (the same options the page's own hooks use) as soon as the remote
   * has loaded, so that they run while its code evaluates and renders instead of after. The shell calls
   * it once, on the page a signed-in user opens the application on, with that user: start only the
   * queries the page itself runs for them.
   */
  prefetch?: (client: QueryClient, at: RemotePageLocation, user: CurrentUser) => void;
}

export interface RemoteRoutesModule {
  default: RemoteRoute[];
}

/** `./health` of every remote: a tiny component the shell renders on /_remotes. */
export interface RemoteHealthModule {
  default: () => ReactNode;
}
