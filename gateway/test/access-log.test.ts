import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import pino from 'pino';
import { accessLog } from '../src/http/access-log';

/** The access log of a real Express server, one parsed line per request. */
async function serveAndLog(handler: express.RequestHandler) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  const app = express();
  app.use((_req, res, next) => {
    res.setHeader('X-Request-Id', 'req-1');
    next();
  });
  app.use(accessLog(pino({ level: 'info' }, sink)));
  app.use(handler);
  const server = await new Promise<import('node:http').Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, lines, close: () => new Promise((r) => server.close(r)) };
}

describe('access log', () => {
  it('records method, path, status and time, and never a cookie, token or other header', async () => {
    const srv = await serveAndLog((_req, res) => {
      res.cookie('qm_session', 'fresh-session-secret').json({ ok: true });
    });
    try {
      await fetch(`${srv.url}/api/wallet?page=1`, {
        headers: { cookie: 'qm_session=session-secret-value', authorization: 'Bearer token-secret' },
      });
      await new Promise((r) => setTimeout(r, 50));
      expect(srv.lines).toHaveLength(1);
      const line = srv.lines[0]!;
      expect(line).toMatchObject({
        req: { id: 'req-1', method: 'GET', url: '/api/wallet?page=1' },
        res: { statusCode: 200 },
        msg: 'request completed',
      });
      expect(typeof line.responseTime).toBe('number');
      const text = JSON.stringify(line);
      for (const secret of ['session-secret-value', 'token-secret', 'fresh-session-secret', 'headers'])
        expect(text).not.toContain(secret);
    } finally {
      await srv.close();
    }
  });

  it('logs a 5xx as an error and leaves health probes out', async () => {
    const srv = await serveAndLog((req, res) => {
      res.status(req.path === '/healthz' ? 200 : 503).end();
    });
    try {
      await fetch(`${srv.url}/healthz`);
      await fetch(`${srv.url}/api/orders`);
      await new Promise((r) => setTimeout(r, 50));
      expect(srv.lines.map((l) => [l.level, (l.req as { url: string }).url])).toEqual([[50, '/api/orders']]);
    } finally {
      await srv.close();
    }
  });
});
