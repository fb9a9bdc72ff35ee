// HTTPS with HTTP/2 in front of the local gateway, on loopback: what the chart's ingress gives a browser
// (TLS, then HTTP/2 on one connection), where the local stack serves HTTP/1.1, on which a browser, and
// Lighthouse's simulation of it, fetch at most six files at a time. A page of some forty scripts and
// requests (a remote page: the shell, the shared modules, the remote) waits for that queue on HTTP/1.1;
// measured through the ingress it would not (docs/adr/036-phone-budget-over-http2.md).
//
//   const front = await startHttpsFront({ target: 'http://localhost:8080' });
//   front.url  // https://localhost:<port>, a self-signed certificate: Chromium with --ignore-certificate-errors
//   await front.close();
//
// Each request is passed on as it came, with Origin and Referer stated as the gateway's own origin: the
// gateway accepts state-changing requests from its configured origins only, and this front stands where
// the ingress does, at an origin the gateway would be configured with.
import http from 'node:http';
import http2 from 'node:http2';
import selfsigned from 'selfsigned';
import { loopbackOnly } from './loopback.cjs';

/** Connection-level headers, which HTTP/2 forbids and the hop to the gateway sets for itself. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'http2-settings',
  'host',
]);

const passable = (headers) =>
  Object.fromEntries(
    Object.entries(headers).filter(([name]) => !name.startsWith(':') && !HOP_BY_HOP.has(name)),
  );

async function localhostCertificate() {
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    days: 1,
    keySize: 2048,
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

/** Starts the front for `target` (the gateway's base URL, loopback only); `url` is its HTTPS base. */
export async function startHttpsFront({ target }) {
  loopbackOnly(target);
  const upstream = new URL(target);
  const server = http2.createSecureServer({ ...(await localhostCertificate()), allowHTTP1: true });
  // Its own, so that close() can end the connections to the gateway too.
  const agent = new http.Agent({ keepAlive: true });
  let front;
  server.on('request', (req, res) => {
    const headers = { ...passable(req.headers), host: upstream.host };
    if (headers.origin) headers.origin = upstream.origin;
    if (headers.referer) headers.referer = headers.referer.replace(front.origin, upstream.origin);
    const hop = http.request(
      { agent, host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, passable(answer.headers));
        answer.pipe(res);
      },
    );
    hop.on('error', (error) => {
      if (res.headersSent) res.destroy(error);
      else res.writeHead(502, { 'content-type': 'text/plain' }).end(`gateway unreachable: ${error.message}`);
    });
    // A stream that never ends by itself (the live events) ends with the browser's request: left open,
    // it kept the process of a finished audit running.
    res.on('close', () => hop.destroy());
    req.pipe(hop);
  });
  // Chromium keeps its HTTP/2 connection open: close() alone would wait for it.
  const sessions = new Set();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  front = new URL(`https://localhost:${server.address().port}`);
  return {
    url: front.origin,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        for (const session of sessions) session.destroy();
        agent.destroy();
      }),
  };
}
