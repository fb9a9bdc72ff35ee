import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import express from 'express';
import { FRAME_SENTINEL_BALANCE, formatINR, type PageData } from '@qm/contracts/rest';
import { frontendRoutes } from '../src/http/frontends';
import type { PageDataSource } from '../src/routes/page-data';

/** The frontend routes alone, on a port of their own. */
async function serve(opts: Parameters<typeof frontendRoutes>[1]): Promise<{ server: Server; url: string }> {
  const app = express();
  frontendRoutes(app, opts);
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** The built shell as the gateway serves it in production: its entry, a hashed chunk, public files. */
describe('frontend files (production)', () => {
  const CHUNK = `console.log(${JSON.stringify('chunk '.repeat(200))});`;
  const ENTRY = `var market = ${JSON.stringify('entry '.repeat(200))};`;
  let dist: string;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'qm-frontends-'));
    const shell = join(dist, 'shell', 'dist');
    mkdirSync(shell, { recursive: true });
    writeFileSync(
      join(shell, 'index.html'),
      '<!doctype html><script src="/theme-init.js"></script><body><div id="root"></div></body>',
    );
    writeFileSync(join(shell, 'landing.html'), '<!doctype html><div id="root" data-prerendered="visitor">');
    mkdirSync(join(shell, 'frames'));
    writeFileSync(join(shell, 'frames', 'market.html'), '<div id="root" data-prerendered="frame">Military');
    writeFileSync(join(shell, 'theme-init.js'), 'document.documentElement.dataset.x = "1";');
    writeFileSync(join(shell, 'main.0123abcd.js'), CHUNK);
    writeFileSync(join(shell, 'main.0123abcd.js.br'), brotliCompressSync(CHUNK));
    // Listed at start and removed by the test below, as a build replacing the folder would.
    writeFileSync(join(shell, 'gone.0123abcd.js'), CHUNK);
    writeFileSync(join(shell, 'gone.0123abcd.js.br'), brotliCompressSync(CHUNK));
    const market = join(dist, 'market', 'dist');
    mkdirSync(market, { recursive: true });
    writeFileSync(join(market, 'remoteEntry.js'), ENTRY);
    writeFileSync(join(market, 'remoteEntry.js.br'), brotliCompressSync(ENTRY));
    ({ server, url } = await serve({ dist, dev: false }));
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves the theme script as JavaScript that is revalidated (its name never changes)', async () => {
    const res = await fetch(`${url}/theme-init.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it('keeps content-hashed chunks for a year and the SPA entry revalidated', async () => {
    const chunk = await fetch(`${url}/main.0123abcd.js`);
    expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const page = await fetch(`${url}/market`, { headers: { Accept: 'text/html' } });
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(await page.text()).toContain('<script src="/theme-init.js"></script>');
  });

  it('answers a browser that takes brotli with the file the build compressed, keeping its caching', async () => {
    const chunk = await fetch(`${url}/main.0123abcd.js`, { headers: { 'Accept-Encoding': 'gzip, br' } });
    expect(chunk.headers.get('content-encoding')).toBe('br');
    expect(chunk.headers.get('content-type')).toMatch(/javascript/);
    expect(chunk.headers.get('vary')).toMatch(/Accept-Encoding/);
    expect(Number(chunk.headers.get('content-length'))).toBe(brotliCompressSync(CHUNK).length);
    expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await chunk.text()).toBe(CHUNK);
    // A remote's entry keeps its name across deploys: revalidated, compressed or not.
    const entry = await fetch(`${url}/remotes/market/remoteEntry.js`, {
      headers: { 'Accept-Encoding': 'br' },
    });
    expect(entry.headers.get('content-encoding')).toBe('br');
    expect(entry.headers.get('cache-control')).toBe('no-cache');
    expect(await entry.text()).toBe(ENTRY);
  });

  it('answers a client without brotli with the file as built (the compression middleware takes it from there)', async () => {
    const chunk = await fetch(`${url}/main.0123abcd.js`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(chunk.headers.get('content-encoding')).toBeNull();
    expect(Number(chunk.headers.get('content-length'))).toBe(Buffer.byteLength(CHUNK));
    expect(await chunk.text()).toBe(CHUNK);
    // A file the build left uncompressed is served as it is to everyone.
    const theme = await fetch(`${url}/theme-init.js`, { headers: { 'Accept-Encoding': 'br' } });
    expect(theme.headers.get('content-encoding')).toBeNull();
  });

  it('never labels another answer with the encoding of a compressed file that has gone since start', async () => {
    rmSync(join(dist, 'shell', 'dist', 'gone.0123abcd.js.br'));
    rmSync(join(dist, 'shell', 'dist', 'gone.0123abcd.js'));
    const res = await fetch(`${url}/gone.0123abcd.js`, { headers: { 'Accept-Encoding': 'br' } });
    // The SPA fallback's page, as for any other missing file, and labelled as what it is.
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('<script src="/theme-init.js"></script>');
  });

  it("answers a visitor's / with the prerendered landing page and every other page with the shell saying nobody is signed in", async () => {
    const landing = await fetch(`${url}/`, { headers: { Accept: 'text/html' } });
    expect(landing.headers.get('cache-control')).toBe('no-cache');
    expect(await landing.text()).toContain('data-prerendered');
    const other = await fetch(`${url}/about`, { headers: { Accept: 'text/html', Cookie: 'theme=x' } });
    const html = await other.text();
    expect(html).not.toContain('data-prerendered');
    // The shell starts as a visitor's without asking GET /api/user (whose 401 the browser logs).
    expect(html).toContain(
      '<div id="root"></div><script type="application/json" id="qm-page-data">{"user":null}</script></body>',
    );
    expect(other.headers.get('content-type')).toMatch(/^text\/html/);
    expect(other.headers.get('cache-control')).toBe('no-cache');
    // The same URL is another page with a session: no cache may answer one with the other.
    expect(other.headers.get('vary')).toMatch(/Cookie/);
  });

  it('renders / in the browser for someone signed in (the page depends on who it is), saying nothing of them', async () => {
    const page = await fetch(`${url}/`, {
      headers: { Accept: 'text/html', Cookie: 'theme=x; qm_session=abc' },
    });
    const html = await page.text();
    expect(html).not.toContain('data-prerendered');
    expect(page.headers.get('vary')).toMatch(/Cookie/);
    // Who it is comes from GET /api/user: a session cookie may be one that has ended.
    expect(html).not.toContain('qm-page-data');
  });

  it('answers a signed-in page with its prerendered frame, and the same path without a session with the shell', async () => {
    const signedIn = { Accept: 'text/html', Cookie: 'qm_session=abc' };
    const market = await fetch(`${url}/market?page=2`, { headers: signedIn });
    expect(market.headers.get('cache-control')).toBe('no-cache');
    expect(await market.text()).toContain('data-prerendered="frame"');
    // A visitor is sent to /auth by the shell: no heading of a page they cannot see.
    const visitor = await fetch(`${url}/market`, { headers: { Accept: 'text/html' } });
    expect(await visitor.text()).not.toContain('data-prerendered');
    const noFrame = await fetch(`${url}/profile`, { headers: signedIn });
    expect(await noFrame.text()).not.toContain('data-prerendered');
    const file = await fetch(`${url}/frames/market.html`);
    expect(file.headers.get('cache-control')).toBe('no-cache');
  });
});

/** A signed-in page's frame sent with its data (docs/adr/031). */
describe('frames with the page data', () => {
  let dist: string;
  let server: Server;
  let url: string;
  let answer: PageData | undefined;
  const asked: string[] = [];
  const signedIn = { Accept: 'text/html', Cookie: 'qm_session=abc' };
  const user = { id: 7, username: 'army_7', role: 'Army' } as NonNullable<PageData['user']>;
  const wallet = (balance: string, heldBalance = '0.00') =>
    ({ balance, heldBalance, availableBalance: balance }) as PageData['wallet'];
  const dataOf = (html: string) =>
    JSON.parse(
      html.match(/<script type="application\/json" id="qm-page-data">(.*?)<\/script>/)![1]!,
    ) as PageData;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'qm-frames-'));
    const frames = join(dist, 'shell', 'dist', 'frames');
    mkdirSync(join(frames, 'with-data', 'no-history'), { recursive: true });
    writeFileSync(
      join(frames, 'market.html'),
      '<body><div id="root" data-prerendered="frame">Military</div></body>',
    );
    writeFileSync(
      join(frames, 'wallet.html'),
      '<body><div id="root" data-prerendered="frame">Wallet</div></body>',
    );
    const sentinel = formatINR(FRAME_SENTINEL_BALANCE);
    writeFileSync(
      join(frames, 'with-data', 'wallet.html'),
      `<body><div id="root"><h2>${sentinel}</h2></div></body>`,
    );
    writeFileSync(
      join(frames, 'with-data', 'no-history', 'wallet.html'),
      `<body><div id="root"><h2>${sentinel}</h2><p>No transactions found</p></div></body>`,
    );
    const pageData: PageDataSource = async (req) => {
      asked.push(req.path);
      return answer;
    };
    ({ server, url } = await serve({ dist, dev: false, pageData }));
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dist, { recursive: true, force: true });
  });

  it("writes the caller's balance into /wallet's frame and the data into the page, never cached", async () => {
    answer = { user, wallet: wallet('1234.50') };
    const res = await fetch(`${url}/wallet`, { headers: signedIn });
    const html = await res.text();
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(html).toContain('<h2>₹1,234.50</h2>');
    expect(html).not.toContain(formatINR(FRAME_SENTINEL_BALANCE));
    expect(dataOf(html)).toEqual(answer);
  });

  it("draws an empty history's card under the balance when the history sent is empty, and only then", async () => {
    const history = (total: number) => ({ transactions: [], total, page: 1, pageSize: 20 });
    answer = { user, wallet: wallet('0.00'), transactions: history(0) };
    const empty = await (await fetch(`${url}/wallet`, { headers: signedIn })).text();
    expect(empty).toContain('<h2>₹0.00</h2><p>No transactions found</p>');
    expect(dataOf(empty).transactions).toEqual(history(0));
    answer = { user, wallet: wallet('10.00'), transactions: history(3) };
    const some = await (await fetch(`${url}/wallet`, { headers: signedIn })).text();
    expect(some).toContain('<h2>₹10.00</h2></div>');
    expect(some).not.toContain('No transactions found');
  });

  it('sends the plain frame with the data while funds are held (the page draws them under the balance)', async () => {
    answer = { user, wallet: wallet('1234.50', '100.00') };
    const html = await (await fetch(`${url}/wallet`, { headers: signedIn })).text();
    expect(html).toContain('>Wallet</div>');
    expect(html).not.toContain('₹');
    expect(dataOf(html).wallet?.heldBalance).toBe('100.00');
  });

  it('keeps the data from ending its element, whatever text it holds', async () => {
    const bio = "</script><script>alert(1)</script> $` $& $' $$";
    answer = { user: { ...user, bio } };
    const html = await (await fetch(`${url}/market`, { headers: signedIn })).text();
    expect(html).not.toContain('<script>alert(1)');
    expect(dataOf(html).user?.bio).toBe(bio);
    expect(html.match(/<\/body>/g)).toHaveLength(1);
  });

  it('sends the plain frame when there is no data (a session that ended, a service that did not answer)', async () => {
    answer = undefined;
    const res = await fetch(`${url}/wallet`, { headers: signedIn });
    const html = await res.text();
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(html).toContain('>Wallet</div>');
    expect(html).not.toContain('qm-page-data');
  });

  it('asks for data only for a signed-in page with a frame', async () => {
    asked.length = 0;
    await fetch(`${url}/wallet`, { headers: { Accept: 'text/html' } });
    await fetch(`${url}/profile`, { headers: signedIn });
    expect(asked).toEqual([]);
  });
});
