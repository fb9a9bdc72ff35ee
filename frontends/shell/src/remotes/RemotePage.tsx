import { Alert, Container } from '@mantine/core';
import type { RemoteRoute, RemoteRoutesModule } from '@qm/ui';
import { PageFrame } from '../layout/PageFrame';
import { RemoteBoundary } from './RemoteBoundary';
import { REMOTE_LABELS, type RemoteName } from './registry';

function renderRoute(remote: RemoteName, path: string, routes: RemoteRoute[]) {
  const route = routes.find((candidate) => candidate.path === path);
  if (!route) {
    return (
      <Alert color="yellow" title="Page not available">
        The {REMOTE_LABELS[remote]} module has no page for {path}.
      </Alert>
    );
  }
  return route.element;
}

/** A shell route whose page lives in a remote: loads `<remote>/routes` lazily and renders the matching page. */
export function RemotePage({ remote, path }: { remote: RemoteName; path: string }) {
  return (
    <Container size="lg" py="xl">
      <RemoteBoundary<RemoteRoutesModule>
        remote={remote}
        expose="routes"
        render={(mod) => renderRoute(remote, path, mod.default)}
        loading={<PageFrame message={`Loading ${REMOTE_LABELS[remote]}...`} container={false} />}
      />
    </Container>
  );
}
