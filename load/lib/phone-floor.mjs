// The phone floor of /market (load/lighthouse.mjs --floor): the same first cards, drawn by pages that
// carry less than the product does, built here and served from this process, so that one Lighthouse run
// can say how far /market is from what a client-rendered page of the same data can score at all.
//   html   no framework: the products request and the cards' text, drawn with the DOM;
//   react  React alone, the same request and cards as plain elements;
//   stack  React, React Router, React Query and Mantine in one bundle with the market's own ProductCard,
//          without the shell, its frame or Module Federation.
// Each page's HTML holds the frame's heading, so the text painted first is what /market paints first.
// Scripts and styles are served as the gateway serves them: brotli at build, hashed and immutable.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rspack } from '@rspack/core';
import { PrecompressPlugin, REACT_ROUTER_PRODUCTION, sourceRule } from '../../frontends/rspack.shared.mjs';
import { loopbackOnly } from './loopback.cjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SOURCES = path.join(HERE, '..', 'phone-floor');
const OUT = path.join(HERE, '..', 'results', 'phone-floor');
export const FLOOR_PAGES = ['html', 'react', 'stack'];

/** The heading /market's frame paints first (@qm/ui PAGE_HEADINGS), as plain HTML. */
const FRAME_TEXT = '<h1>Military Market</h1><p>Browse and acquire military-grade equipment and supplies</p>';

function config() {
  return {
    mode: 'production',
    context: SOURCES,
    entry: Object.fromEntries(
      FLOOR_PAGES.map((name) => [name, `./src/${name}.${name === 'html' ? 'ts' : 'tsx'}`]),
    ),
    output: {
      path: OUT,
      filename: '[name].[contenthash:8].js',
      cssFilename: '[name].[contenthash:8].css',
      publicPath: '/',
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'],
      extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
      alias: REACT_ROUTER_PRODUCTION,
    },
    experiments: { css: true },
    module: {
      rules: [sourceRule(), { test: /\.css$/, type: 'css/auto' }],
    },
    // One script per page: the floor is the best case, with no chunk to wait for.
    optimization: { splitChunks: false, runtimeChunk: false },
    plugins: [new PrecompressPlugin()],
    performance: { hints: false },
    devtool: false,
  };
}

/** Builds the pages; answers each page's script and stylesheet files. */
async function build() {
  const stats = await new Promise((resolve, reject) =>
    rspack(config()).run((err, result) => (err ? reject(err) : resolve(result))),
  );
  if (stats.hasErrors()) throw new Error(`the phone floor's build failed:\n${stats.toString('errors-only')}`);
  const { entrypoints } = stats.toJson({ all: false, entrypoints: true });
  return Object.fromEntries(
    FLOOR_PAGES.map((name) => [name, entrypoints[name].assets.map((asset) => asset.name)]),
  );
}

function pageHtml(name, files) {
  const styles = files.filter((f) => f.endsWith('.css')).map((f) => `<link rel="stylesheet" href="/${f}">`);
  const scripts = files.filter((f) => f.endsWith('.js')).map((f) => `<script defer src="/${f}"></script>`);
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width,initial-scale=1"><link rel="icon" href="data:,">' +
    `<title>Phone floor: ${name}</title>${styles.join('')}${scripts.join('')}</head>` +
    `<body><main>${FRAME_TEXT}<div id="root"></div></main></body></html>`
  );
}

const TYPES = { '.js': 'text/javascript', '.css': 'text/css', '.woff2': 'font/woff2', '.woff': 'font/woff' };

/** A built file as the gateway sends it: its brotli when the browser takes it, immutable (hashed names). */
function sendAsset(req, res, file) {
  const br = `${file}.br`;
  const compressed = /\bbr\b/.test(req.headers['accept-encoding'] ?? '') && existsSync(br);
  res.writeHead(200, {
    'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'Cache-Control': 'public, max-age=31536000, immutable',
    ...(compressed ? { 'Content-Encoding': 'br' } : {}),
  });
  res.end(readFileSync(compressed ? br : file));
}

/** The stack's answer to GET /api/..., read with the signed-in buyer's session: the data is real. */
async function proxyApi(base, cookie, req, res) {
  const answer = await fetch(`${base}${req.url}`, { headers: { cookie, accept: 'application/json' } });
  const headers = { 'Content-Type': answer.headers.get('content-type') ?? 'application/json' };
  const total = answer.headers.get('x-total-count');
  res.writeHead(answer.status, total ? { ...headers, 'X-Total-Count': total } : headers);
  res.end(Buffer.from(await answer.arrayBuffer()));
}

/**
 * Builds the floor pages and serves them on a loopback port; the API requests go to `base` with the
 * session `cookie`. Answers each page's URL and a way to stop.
 */
export async function startPhoneFloor({ base, cookie }) {
  loopbackOnly(base);
  const files = await build();
  const html = new Map(FLOOR_PAGES.map((name) => [name, pageHtml(name, files[name])]));
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://floor');
    const name = url.pathname.slice(1);
    if (url.pathname.startsWith('/api/'))
      return void proxyApi(base, cookie, req, res).catch((err) => {
        res.writeHead(502).end(String(err));
      });
    if (html.has(name)) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' });
      return void res.end(html.get(name));
    }
    // path.join keeps a normalised absolute path under OUT; a folder (/ itself) is not a file to send.
    const file = path.join(OUT, path.normalize(url.pathname));
    if (statSync(file, { throwIfNoEntry: false })?.isFile()) return sendAsset(req, res, file);
    res.writeHead(404).end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    pages: FLOOR_PAGES.map((name) => ({ name: `floor: ${name}`, url: `${origin}/${name}` })),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
