import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { type RequestHandler, type Response, type Router } from 'express';
import expressStaticGzip from 'express-static-gzip';
import {
  FRAME_SENTINEL_BALANCE,
  formatINR,
  heldBalanceOf,
  PAGE_DATA_ELEMENT_ID,
  type PageData,
} from '@qm/contracts/rest';
import { escapeHtml } from '@qm/platform';
import { createProxyMiddleware } from 'http-proxy-middleware';
import type { PageDataSource } from '../routes/page-data';
import { SESSION_COOKIE } from '../session';

export const REMOTES = { market: 3001, wallet: 3002, admin: 3003 } as const;
export const SHELL_DEV_PORT = 3000;

/** Hands a websocket upgrade (the dev servers' hot reload) to the one proxy that owns its path. */
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * Serves the shell at / and each remote at /remotes/<name>/: from built folders in production, or
 * proxied to the rspack dev servers (with hot reload) when FRONTEND_DEV is set. In dev mode it
 * returns the upgrade handler for the HTTP server: the proxies are created without `ws` so that no
 * two of them answer the same upgrade (which corrupts the socket).
 */
export function frontendRoutes(
  router: Router,
  opts: { dist?: string; dev: boolean; pageData?: PageDataSource },
): UpgradeHandler | undefined {
  if (opts.dev) {
    const remotes = Object.entries(REMOTES).map(([name, port]) => ({
      prefix: `/remotes/${name}/`,
      proxy: createProxyMiddleware({ target: `http://127.0.0.1:${port}`, changeOrigin: true }),
    }));
    const shell = createProxyMiddleware({ target: `http://127.0.0.1:${SHELL_DEV_PORT}`, changeOrigin: true });
    const pick = (url = '/') => remotes.find((r) => url.startsWith(r.prefix))?.proxy ?? shell;
    router.use((req, res, next) => pick(req.originalUrl)(req, res, next));
    // Node types the upgrade socket as a Duplex; for HTTP servers it is always a net.Socket.
    return (req, socket, head) => pick(req.url).upgrade(req, socket as Socket, head);
  }
  if (!opts.dist) return undefined;
  for (const name of Object.keys(REMOTES)) {
    const dir = join(opts.dist, name, 'dist');
    if (existsSync(dir)) router.use(`/remotes/${name}`, staticDir(dir));
  }
  const shell = join(opts.dist, 'shell', 'dist');
  if (!existsSync(shell)) return undefined;
  router.use(staticDir(shell));
  // SPA fallback: any other GET that wants HTML gets the shell, which renders its own 404 page. A
  // visitor's / is the landing page prerendered at build time (frontends/shell/prerender, ADR 018); with
  // a session the page depends on who it is (redirect, admin links), so it is rendered in the browser.
  // A signed-in page with a prerendered frame (its heading while the session is checked) gets that, with
  // the page's data when it can be read (docs/adr/031).
  const landing = join(shell, 'landing.html');
  const frames = prerenderedFrames(join(shell, 'frames'));
  const framesWithData = prerenderedFrames(join(shell, 'frames', 'with-data'));
  const framesWithNoHistory = prerenderedFrames(join(shell, 'frames', 'with-data', 'no-history'));
  const { pageData } = opts;
  const hasSession = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=`);
  router.get(/^\/(?!api\/|remotes\/).*/, (req, res, next) => {
    if (!req.accepts('html')) return next();
    res.setHeader('Cache-Control', 'no-cache');
    // The same address is another page with a session or without: no cache may answer one with the other.
    res.setHeader('Vary', 'Cookie');
    const signedIn = hasSession.test(req.headers.cookie ?? '');
    const frame = signedIn ? frames.get(req.path) : undefined;
    if (frame && pageData) {
      pageData(req, res)
        .then(async (data) => {
          if (!data) return res.sendFile(frame);
          const withData =
            data.transactions?.total === 0 ? framesWithNoHistory.get(req.path) : framesWithData.get(req.path);
          sendWithData(res, await frameWithData(frame, withData, data), data);
        })
        .catch(next);
      return;
    }
    if (frame) return res.sendFile(frame);
    if (signedIn) return res.sendFile(join(shell, 'index.html'));
    if (req.path === '/' && existsSync(landing)) return res.sendFile(landing);
    // Without a session cookie nobody is signed in: the page says so, and the shell does not ask GET
    // /api/user for the 401 the browser would log as an error.
    readFile(join(shell, 'index.html'), 'utf8')
      .then((html) => res.type('html').send(withData(html, VISITOR)))
      .catch(next);
  });
  return undefined;
}

const SENTINEL_BALANCE = formatINR(FRAME_SENTINEL_BALANCE);

/**
 * The frame to send with the page's data: on /wallet the one that shows the balance (and, when the
 * history sent is empty, the empty history's card under it), with the caller's balance in place of the
 * build's sentinel (the page draws held funds under it, so not while any are held); otherwise the plain
 * frame.
 */
async function frameWithData(
  frame: string,
  withBalance: string | undefined,
  data: PageData,
): Promise<string> {
  if (withBalance && data.wallet && !heldBalanceOf(data.wallet)) {
    const html = await readFile(withBalance, 'utf8');
    // A frame from another build without the sentinel must not show anything but a real balance.
    if (html.includes(SENTINEL_BALANCE))
      return html.replace(SENTINEL_BALANCE, () => escapeHtml(formatINR(data.wallet!.balance)));
  }
  return readFile(frame, 'utf8');
}

/** What a page says of a request without a session. */
const VISITOR: PageData = { user: null };

/** The page with its data for the shell (`<` escaped: the JSON cannot end its element). */
function withData(html: string, data: PageData): string {
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  const element = `<script type="application/json" id="${PAGE_DATA_ELEMENT_ID}">${json}</script>`;
  // A replacer function: a string replacement would read `$&`, `$'` or `` $` `` in the user's own text.
  return html.replace('</body>', () => `${element}</body>`);
}

/** A signed-in page with its data, never cached. */
function sendWithData(res: Response, html: string, data: PageData): void {
  res.setHeader('Cache-Control', 'no-store');
  res.type('html').send(withData(html, data));
}

/** Path → file of the frames the shell's build prerendered (dist/frames/market.html is /market). */
function prerenderedFrames(dir: string): Map<string, string> {
  if (!existsSync(dir)) return new Map();
  return new Map(
    readdirSync(dir)
      .filter((name) => name.endsWith('.html'))
      .map((name) => [`/${name.slice(0, -'.html'.length)}`, join(dir, name)]),
  );
}

/**
 * Entry files and the shell's unhashed public files (the theme script index.html loads before the
 * bundle, the icon) keep their names across deploys and must be revalidated; content-hashed chunks
 * are immutable.
 */
const ENTRY_FILES = /(\.html|mf-manifest\.json|mf-stats\.json|remoteEntry\.js|theme-init\.js|favicon\.svg)$/;

/** The encodings the build writes beside a file (frontends/rspack.shared.mjs, PrecompressPlugin). */
const PRECOMPRESSED = /\.br$/;

/**
 * A built folder's files, each as the build compressed it (brotli at its highest quality, written beside
 * the file as `<name>.br`) when the browser takes brotli: smaller than the compression middleware's
 * quick pass, and no CPU per request. Anything else (a client without brotli, a file without a `.br`)
 * is served as is and compressed on the way out as before.
 */
function staticDir(dir: string): RequestHandler {
  const serve = expressStaticGzip(dir, {
    enableBrotli: true,
    orderPreference: ['br'],
    index: false,
    serveStatic: {
      index: false,
      cacheControl: false,
      setHeaders(res, path) {
        res.setHeader(
          'Cache-Control',
          ENTRY_FILES.test(path.replace(PRECOMPRESSED, ''))
            ? 'no-cache'
            : 'public, max-age=31536000, immutable',
        );
      },
    },
  }) as RequestHandler;
  // The middleware lists the `.br` files once, at start, and labels the answer before it looks for
  // the file. When the file has gone since (a build replaced the folder), the request goes on to the
  // next handler, which must not send its own body under the compressed file's encoding and type.
  return (req, res, next) =>
    serve(req, res, (err?: unknown) => {
      if (!res.headersSent) {
        res.removeHeader('Content-Encoding');
        res.removeHeader('Content-Type');
      }
      next(err);
    });
}
