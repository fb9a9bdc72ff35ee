import type { ReactNode } from 'react';

/**
 * The contract between the shell and a remote's `./routes` module: its default export is a list of routes.
 * `path` is the absolute path of the shell's route table (spec §2); the shell owns guards and layout and
 * renders `element` inside its own matching route, so `useParams()` works as usual in remote pages.
 */
export interface RemoteRoute {
  path: string;
  element: ReactNode;
}

export interface RemoteRoutesModule {
  default: RemoteRoute[];
}

/** `./health` of every remote: a tiny component the shell renders on /_remotes. */
export interface RemoteHealthModule {
  default: () => ReactNode;
}
