import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Router } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';

export const REMOTES = { market: 3001, wallet: 3002, admin: 3003 } as const;
const SHELL_DEV_PORT = 3000;

/**
 * Serves the shell at / and each remote at /remotes/<name>/: from built folders in production, or
 * proxied to the rspack dev servers (with hot reload) when FRONTEND_DEV is set.
 */
export function frontendRoutes(router: Router, opts: { dist?: string; dev: boolean }): void {
  if (opts.dev) {
    for (const [name, port] of Object.entries(REMOTES)) {
      router.use(
        `/remotes/${name}`,
        createProxyMiddleware({
          target: `http://127.0.0.1:${port}/remotes/${name}`,
          changeOrigin: true,
          ws: true,
        }),
      );
    }
    router.use(
      createProxyMiddleware({ target: `http://127.0.0.1:${SHELL_DEV_PORT}`, changeOrigin: true, ws: true }),
    );
    return;
  }
  if (!opts.dist) return;
  for (const name of Object.keys(REMOTES)) {
    const dir = join(opts.dist, name, 'dist');
    if (existsSync(dir)) router.use(`/remotes/${name}`, staticDir(dir));
  }
  const shell = join(opts.dist, 'shell', 'dist');
  if (!existsSync(shell)) return;
  router.use(staticDir(shell));
  // SPA fallback: any other GET that wants HTML gets the shell, which renders its own 404 page.
  router.get(/^\/(?!api\/|remotes\/).*/, (req, res, next) => {
    if (!req.accepts('html')) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(join(shell, 'index.html'));
  });
}

/** Entry files change on every deploy and must be revalidated; content-hashed chunks are immutable. */
const ENTRY_FILES = /(index\.html|mf-manifest\.json|mf-stats\.json|remoteEntry\.js)$/;

function staticDir(dir: string) {
  return express.static(dir, {
    index: false,
    cacheControl: false,
    setHeaders(res, path) {
      res.setHeader(
        'Cache-Control',
        ENTRY_FILES.test(path) ? 'no-cache' : 'public, max-age=31536000, immutable',
      );
    },
  });
}
