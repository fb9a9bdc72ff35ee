import { federation } from './federation';
import { loadRemoteModule, type RemoteName } from './registry';

/**
 * Fetches a remote page's frame and the federation runtime ahead of need; with a remote, also its
 * pages. A failure here is not reported: the page that needs the remote shows it (RemoteBoundary).
 */
export function warmRemotes(remote?: RemoteName): void {
  void import('./RemotePage').catch(() => undefined);
  if (remote) loadRemoteModule(remote, 'routes').catch(() => undefined);
  else federation().catch(() => undefined);
}
