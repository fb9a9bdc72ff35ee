import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { frontendRoutes } from '../src/http/frontends';

/** The built shell as the gateway serves it in production: its entry, a hashed chunk, public files. */
describe('frontend files (production)', () => {
  let dist: string;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'qm-frontends-'));
    const shell = join(dist, 'shell', 'dist');
    mkdirSync(shell, { recursive: true });
    writeFileSync(join(shell, 'index.html'), '<!doctype html><script src="/theme-init.js"></script>');
    writeFileSync(join(shell, 'landing.html'), '<!doctype html><div id="root" data-prerendered="visitor">');
    mkdirSync(join(shell, 'frames'));
    writeFileSync(join(shell, 'frames', 'market.html'), '<div id="root" data-prerendered="frame">Military');
    writeFileSync(join(shell, 'theme-init.js'), 'document.documentElement.dataset.x = "1";');
    writeFileSync(join(shell, 'main.0123abcd.js'), 'console.log(1);');
    const app = express();
    frontendRoutes(app, { dist, dev: false });
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
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

  it("answers a visitor's / with the prerendered landing page and every other page with the plain shell", async () => {
    const landing = await fetch(`${url}/`, { headers: { Accept: 'text/html' } });
    expect(landing.headers.get('cache-control')).toBe('no-cache');
    expect(await landing.text()).toContain('data-prerendered');
    const other = await fetch(`${url}/about`, { headers: { Accept: 'text/html' } });
    expect(await other.text()).not.toContain('data-prerendered');
  });

  it('renders / in the browser for someone signed in (the page depends on who it is)', async () => {
    const page = await fetch(`${url}/`, {
      headers: { Accept: 'text/html', Cookie: 'theme=x; qm_session=abc' },
    });
    expect(await page.text()).not.toContain('data-prerendered');
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
