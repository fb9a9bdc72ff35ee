#!/usr/bin/env node
// Serves the built frontends in the same layout as the gateway, for local testing without it:
//   /                    frontends/shell/dist (SPA: unknown paths fall back to index.html)
//   /remotes/<name>/...  frontends/<name>/dist for market, wallet, admin
//   /api/user            401 (nobody signed in), or a fake user with --user=army|manufacturer|admin
//   /api/...             404 { message }
// Test aid: POST /__test/remote-failure?remote=<name>&mode=on|off makes a remote's files answer 503,
// to exercise the shell's error isolation and Retry.
//
// Usage: node e2e/serve-static.mjs [--port=8099] [--user=admin]
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'frontends');
const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value = 'true'] = arg.replace(/^--/, '').split('=');
    return [key, value];
  }),
);
const port = Number(args.port ?? process.env.PORT ?? 8099);
const REMOTES = ['market', 'wallet', 'admin'];
const failing = new Set();

const FAKE_USERS = {
  army: {
    id: 2,
    username: 'rsingh',
    firstName: 'Ravi',
    lastName: 'Singh',
    role: 'Army',
    status: 'approved',
    isAdmin: false,
  },
  manufacturer: {
    id: 3,
    username: 'bharatforge',
    firstName: 'Anita',
    lastName: 'Rao',
    role: 'Manufacturer',
    status: 'approved',
    isAdmin: false,
  },
  admin: {
    id: 1,
    username: 'admin',
    firstName: 'System',
    lastName: 'Admin',
    role: 'Admin',
    status: 'approved',
    isAdmin: true,
  },
};
const fakeUser = args.user ? FAKE_USERS[args.user] : null;
if (args.user && !fakeUser) throw new Error(`--user must be one of ${Object.keys(FAKE_USERS).join(', ')}`);

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Entry points must be revalidated; content-hashed files can be cached forever. */
function cacheControl(file) {
  const base = path.basename(file);
  if (base === 'index.html' || base === 'remoteEntry.js' || base.startsWith('mf-')) return 'no-cache';
  return /\.[0-9a-f]{8}\.(js|css)$/.test(base) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

function json(res, status, body) {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}

async function isFile(file) {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

async function sendFile(req, res, file) {
  const info = await stat(file);
  res.writeHead(200, {
    'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'Content-Length': info.size,
    'Cache-Control': cacheControl(file),
  });
  if (req.method === 'HEAD') return res.end();
  createReadStream(file).pipe(res);
}

/** Resolves a URL path under a directory, refusing anything that escapes it. */
function within(dir, urlPath) {
  const file = path.resolve(dir, `.${path.posix.normalize(`/${urlPath}`)}`);
  return file === dir || file.startsWith(dir + path.sep) ? file : null;
}

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const pathname = decodeURIComponent(url.pathname);

    if (req.method === 'POST' && pathname === '/__test/remote-failure') {
      const remote = url.searchParams.get('remote') ?? '';
      if (!REMOTES.includes(remote)) return json(res, 400, { message: 'unknown remote' });
      if (url.searchParams.get('mode') === 'off') failing.delete(remote);
      else failing.add(remote);
      return json(res, 200, { failing: [...failing] });
    }

    if (pathname.startsWith('/api/')) {
      if (pathname === '/api/user') {
        return fakeUser ? json(res, 200, fakeUser) : json(res, 401, { message: 'Not authenticated' });
      }
      return json(res, 404, { message: `No API here (static test server): ${req.method} ${pathname}` });
    }

    if (req.method !== 'GET' && req.method !== 'HEAD')
      return json(res, 405, { message: 'Method not allowed' });

    const remoteMatch = /^\/remotes\/([^/]+)(\/.*)?$/.exec(pathname);
    if (remoteMatch) {
      const [, remote, rest = '/'] = remoteMatch;
      if (!REMOTES.includes(remote)) return json(res, 404, { message: 'Unknown remote' });
      if (failing.has(remote)) return json(res, 503, { message: `${remote} is unavailable (test)` });
      const file = within(path.join(root, remote, 'dist'), rest);
      if (file && (await isFile(file))) return sendFile(req, res, file);
      return json(res, 404, { message: 'Not found' });
    }

    const shellDist = path.join(root, 'shell', 'dist');
    const file = within(shellDist, pathname);
    if (file && (await isFile(file))) return sendFile(req, res, file);
    // SPA fallback for page routes; a missing asset (path with an extension) is a real 404.
    if (path.extname(pathname) && pathname !== '/') return json(res, 404, { message: 'Not found' });
    return sendFile(req, res, path.join(shellDist, 'index.html'));
  } catch (error) {
    console.error(error);
    if (!res.headersSent) json(res, 500, { message: 'Internal error' });
    else res.end();
  }
});

server.listen(port, () => {
  console.log(
    `serve-static: http://localhost:${port} (frontends from ${root}${fakeUser ? `, user ${fakeUser.username}` : ''})`,
  );
});

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
