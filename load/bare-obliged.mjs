// The floor of the gateway's read with what every API request of ours must carry, for `make bench`:
// the floor of bare-express.mjs → bare-grpc.mjs (two processes, one gRPC hop, the same findOne), plus
// the obligations, each done the plain way with the library the gateway uses:
//   front: a request id in an AsyncLocalStorage context, an access log line, helmet's headers with
//   the gateway's policy, compression, a latency histogram, the session cookie (its id's HMAC looked
//   up in memory, as the gateway's session cache does), `Cache-Control: no-store`, and a signed
//   caller assertion (EdDSA, reused per user as the gateway's signer does) sent with a request id.
//   service: the assertion verified (remembered per token, as the services' verifier does) and the
//   read run in an AsyncLocalStorage context.
// No routing table, no zod, no protobuf, no tracing, no service code: what is left between this
// and the gateway path is ours (docs/performance/2026-12-03-gateway-read-obligations.md).
//   node load/bare-obliged.mjs front <grpc port> | service   (forked by load/bench.mjs)
// BARE_OBLIGED_WITHOUT=log,helmet,... leaves out the named obligations (context, log, helmet,
// compression, metrics, session, caller), to see what each one costs.
import { credentials, makeGenericClientConstructor, Metadata } from '@grpc/grpc-js';
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHmac, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { importPKCS8, importSPKI, jwtVerify, SignJWT } from 'jose';
import { CARD_FIELDS, connectUsers, GET_USER, serveUsers } from './bare-grpc.mjs';

// The gateway's own copies of its libraries (Express 5 among them), not whatever the root holds.
const gatewayRequire = createRequire(new URL('../gateway/package.json', import.meta.url));
const express = gatewayRequire('express');
const helmet = gatewayRequire('helmet');
const compression = gatewayRequire('compression');
const cookieParser = gatewayRequire('cookie-parser');
const { Histogram, Registry } = gatewayRequire('prom-client');
const pino = gatewayRequire('pino');

const context = new AsyncLocalStorage();
const [role, grpcPort] = process.argv.slice(2);
// The service the assertions are meant for, as the gateway names identity.
const AUDIENCE = 'identity';
const without = new Set((process.env.BARE_OBLIGED_WITHOUT ?? '').split(',').filter(Boolean));
const KNOWN = ['context', 'log', 'helmet', 'compression', 'metrics', 'session', 'caller'];
for (const name of without)
  if (!KNOWN.includes(name))
    throw new Error(`BARE_OBLIGED_WITHOUT: ${name} is not one of ${KNOWN.join(', ')}`);
const inContext = without.has('context') ? (_ctx, fn) => fn() : (ctx, fn) => context.run(ctx, fn);

if (role === 'service') {
  const { publicKey } = JSON.parse(process.env.BARE_OBLIGED_KEYS ?? '{}');
  const verifyKey = await importSPKI(publicKey, 'EdDSA');
  const verified = new Map();
  async function callerOf(token) {
    const hit = verified.get(token);
    if (hit && hit.expiresAt > Date.now()) return hit.caller;
    const { payload } = await jwtVerify(token, verifyKey, {
      algorithms: ['EdDSA'],
      audience: AUDIENCE,
      requiredClaims: ['sub', 'exp'],
    });
    const entry = {
      caller: { userId: Number(payload.sub), roles: payload.roles },
      expiresAt: payload.exp * 1000,
    };
    verified.set(token, entry);
    return entry.caller;
  }
  const { mongo, users } = await connectUsers();
  serveUsers(({ request, metadata }, done) => {
    const [token] = metadata.get('x-qm-caller');
    const ctx = { requestId: String(metadata.get('x-request-id')[0] ?? randomUUID()) };
    inContext(ctx, () =>
      (without.has('caller') ? Promise.resolve(undefined) : callerOf(String(token)))
        .then((caller) => {
          ctx.caller = caller;
          return users.findOne({ id: request.id }, { projection: CARD_FIELDS });
        })
        .then(
          (user) => done(null, { user }),
          (err) => done(err),
        ),
    );
  }, mongo);
} else if (role === 'front') {
  const { privateKey } = JSON.parse(process.env.BARE_OBLIGED_KEYS ?? '{}');
  const signingKey = await importPKCS8(privateKey, 'EdDSA');
  const Users = makeGenericClientConstructor({ get: GET_USER }, 'bare.Users');
  const client = new Users(`127.0.0.1:${grpcPort}`, credentials.createInsecure());
  // The services' log format (packages/platform/src/logger.ts) on stdout, which the bench drains
  // as the stack's log collector drains the gateway's.
  const log = pino({
    name: 'bare-obliged',
    base: { service: 'bare-obliged' },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin() {
      const ctx = context.getStore();
      return ctx ? { requestId: ctx.requestId, userId: ctx.caller?.userId } : {};
    },
  });
  const registry = new Registry();
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const secret = randomBytes(32).toString('hex');
  const sessionKey = (id) => createHmac('sha256', secret).update(id).digest('base64url');
  // Sessions signed in so far, by the HMAC of their id; any cookie value signs in on first sight.
  const sessions = new Map();
  const assertions = new Map();
  async function assertionFor(caller) {
    const key = JSON.stringify([caller.userId, caller.roles, AUDIENCE]);
    const hit = assertions.get(key);
    if (hit && Date.now() - hit.at < 30_000) return hit.token;
    const iat = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ roles: caller.roles })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
      .setSubject(String(caller.userId))
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + 60)
      .sign(signingKey);
    assertions.set(key, { token, at: Date.now() });
    return token;
  }

  const app = express();
  app.disable('x-powered-by');
  app.use((req, res, next) => {
    const ctx = { requestId: randomUUID(), started: process.hrtime.bigint() };
    res.setHeader('X-Request-Id', ctx.requestId);
    if (!without.has('log'))
      res.once('finish', () =>
        log.info(
          {
            req: { id: ctx.requestId, method: req.method, url: req.originalUrl, remoteAddress: req.ip },
            res: { statusCode: res.statusCode },
            responseTime: Number(process.hrtime.bigint() - ctx.started) / 1e6,
          },
          'request completed',
        ),
      );
    inContext(ctx, next);
  });
  if (!without.has('helmet'))
    app.use(
      helmet({
        contentSecurityPolicy: {
          directives: {
            'script-src': ["'self'"],
            'connect-src': ["'self'", 'http://127.0.0.1:8081'],
            'frame-src': ["'self'", 'http://127.0.0.1:8081'],
            'form-action': ["'self'", 'http://127.0.0.1:8081'],
            'img-src': ["'self'", 'data:', 'blob:'],
            'style-src': ["'self'", "'unsafe-inline'"],
            'upgrade-insecure-requests': null,
          },
        },
        crossOriginEmbedderPolicy: false,
      }),
    );
  if (!without.has('compression')) app.use(compression());
  if (!without.has('metrics'))
    app.use((req, res, next) => {
      const end = duration.startTimer();
      res.on('finish', () =>
        end({ method: req.method, route: '/users/:id', status: String(res.statusCode) }),
      );
      next();
    });
  if (!without.has('session')) app.use(cookieParser());
  app.get('/bare-obliged/users/:id', async (req, res) => {
    let caller = { userId: 1, roles: ['Army'] };
    if (!without.has('session')) {
      const sessionId = req.cookies.qm_session;
      if (!sessionId) return res.status(401).json({ message: 'Sign in first' });
      const key = sessionKey(sessionId);
      if (sessions.has(key)) caller = sessions.get(key);
      else sessions.set(key, caller);
    }
    const ctx = context.getStore();
    if (ctx) ctx.caller = caller;
    res.setHeader('Cache-Control', 'no-store');
    const id = Number(req.params.id);
    if (!Number.isSafeInteger(id) || id < 1) return res.status(400).json({ message: 'Invalid id' });
    const md = new Metadata();
    md.set('x-request-id', ctx?.requestId ?? randomUUID());
    if (!without.has('caller')) md.set('x-qm-caller', await assertionFor(caller));
    client.get({ id }, md, { deadline: Date.now() + 5_000 }, (err, reply) => {
      if (err) return res.status(502).json({ message: err.message });
      if (!reply.user) return res.status(404).json({ message: 'User not found' });
      res.json(reply.user);
    });
  });
  const server = app.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

/** The caller key pair, made by the bench before forking: the front signs, the service verifies. */
export function obligedKeys() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return JSON.stringify({
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }),
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }),
  });
}
