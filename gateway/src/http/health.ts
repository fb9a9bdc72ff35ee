import type { Router } from 'express';
import { checkHealth } from '@qm/platform';

/** /healthz: the process is alive. /readyz: every configured downstream service answers SERVING. */
export function healthRoutes(router: Router, downstreams: Record<string, string>): void {
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const entries = await Promise.all(
      Object.entries(downstreams).map(async ([name, addr]) => [name, await checkHealth(addr, 1000)] as const),
    );
    const checks = Object.fromEntries(entries.map(([n, ok]) => [n, ok ? 'serving' : 'unavailable']));
    const ready = entries.every(([, ok]) => ok);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', checks });
  });
}
