import { connectMongo } from '@qm/platform';
import { INFRA, uniqueName } from '@qm/testkit';
import { headerSessions, startGateway } from '@qm/testkit/src/gateway';
import { mongoHitCounter, RATE_LIMIT_COLLECTION } from '../src/http/rate-limit-store';
import { LIMITS } from '../src/routes/identity/context';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

const LOGIN_LIMIT = LIMITS.login.limit;
const CODE_LIMIT = LIMITS.code.limit;

/** A sign-in attempt; no identity service is configured, so an attempt the limits let through is a 503. */
const signIn = (gw: Gateway, username: string, forwardedFor?: string, as?: string) =>
  fetch(`${gw.url}/api/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
      ...(as ? { 'x-test-user': as } : {}),
    },
    body: JSON.stringify({ username, password: 'secret-1' }),
  });

/** `n` sign-ins one after the other; resolves with their statuses. */
async function signIns(n: number, attempt: (i: number) => Promise<Response>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await attempt(i)).status);
  return statuses;
}

const counterOn = (db: string) => mongoHitCounter({ url: INFRA.MONGO_URL, db, engine: INFRA.STORE_ENGINE });

describe('rate limits: which address counts (TRUSTED_PROXIES)', () => {
  const started: Gateway[] = [];
  afterAll(async () => {
    for (const gw of started) await gw.stop();
  });

  it('ignores X-Forwarded-For from a hop that is not a trusted proxy: the spoofer keeps its own key', async () => {
    // The test's own address (loopback) is not the configured proxy.
    const gw = await startGateway({ TRUSTED_PROXIES: '10.11.12.13' }, headerSessions({}));
    started.push(gw);
    const statuses = await signIns(LOGIN_LIMIT, (i) => signIn(gw, `user${i}`, `203.0.113.${i + 1}`));
    expect(statuses.every((s) => s !== 429)).toBe(true);
    const over = await signIn(gw, 'someone-else', '198.51.100.77');
    expect(over.status).toBe(429);
    expect(await over.json()).toEqual({ message: LIMITS.login.message });
  });

  it('believes a trusted proxy: the clients it forwards each have their own budget', async () => {
    // Default outside production: loopback is the trusted proxy (the local stack).
    const gw = await startGateway({}, headerSessions({}));
    started.push(gw);
    const statuses = await signIns(LOGIN_LIMIT + 5, (i) => signIn(gw, `user${i}`, `203.0.113.${i + 1}`));
    expect(statuses).not.toContain(429);
  });

  it('refuses an invalid TRUSTED_PROXIES at start', async () => {
    await expect(
      startGateway({ TRUSTED_PROXIES: 'loopback, 10.0.0.0/33' }, headerSessions({})),
    ).rejects.toThrow(/TRUSTED_PROXIES/);
  });
});

describe('rate limits per account as well as per address', () => {
  let gw: Gateway;
  beforeAll(async () => {
    gw = await startGateway({}, headerSessions({ army: { userId: 7, username: 'sepoy', roles: ['Army'] } }));
  });
  afterAll(async () => {
    await gw.stop();
  });

  it('sign-in: one account has one budget whatever addresses (or sessions) the attempts come from', async () => {
    const victim = uniqueName('victim');
    // Half of them from a signed-in session: it buys no budget of its own against another account.
    const statuses = await signIns(LOGIN_LIMIT, (i) =>
      signIn(gw, victim, `198.51.100.${i + 1}`, i % 2 ? 'army' : undefined),
    );
    expect(statuses).not.toContain(429);
    // From yet another address, and the name written differently: the same account.
    const over = await signIn(gw, `  ${victim.toUpperCase()} `, '192.0.2.200');
    expect(over.status).toBe(429);
    expect(await over.json()).toEqual({ message: LIMITS.login.message });
    // Another account from that address is not affected.
    expect((await signIn(gw, uniqueName('bystander'), '192.0.2.200')).status).not.toBe(429);
  });

  it('password reset codes: one account, many addresses, one budget', async () => {
    const victim = `${uniqueName('victim')}@example.test`;
    const verify = (i: number, who: string) =>
      fetch(`${gw.url}/api/verify-password-reset-otp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.18.0.${i + 1}` },
        body: JSON.stringify({ emailOrUsername: who, otp: String(100000 + i) }),
      });
    const statuses = await signIns(CODE_LIMIT, (i) => verify(i, victim));
    expect(statuses).not.toContain(429);
    const over = await verify(250, victim.toUpperCase());
    expect(over.status).toBe(429);
    expect(await over.json()).toEqual({ message: LIMITS.code.message });
  });
});

describe('rate limits shared by gateway replicas (MongoDB)', () => {
  const db = uniqueName('qm_test_gw_limits');
  const counters = [counterOn(db), counterOn(db), counterOn(db)];
  const started: Gateway[] = [];
  const replica = async (i: number) => {
    // Per address only: every attempt names another account.
    const gw = await startGateway({}, headerSessions({}), { rateLimits: counters[i] });
    started.push(gw);
    return gw;
  };
  afterAll(async () => {
    for (const gw of started) await gw.stop().catch(() => undefined);
    const conn = await connectMongo(INFRA.MONGO_URL, db);
    await conn.dropDatabase().catch(() => undefined);
    await conn.close();
    for (const c of counters) await c.close();
  });

  it('two replicas count against one limit, and a restarted replica still holds it', async () => {
    const [a, b] = [await replica(0), await replica(1)];
    const half = LOGIN_LIMIT / 2;
    const first = await signIns(half, (i) => signIn(a, uniqueName(`a${i}`)));
    const second = await signIns(LOGIN_LIMIT - half, (i) => signIn(b, uniqueName(`b${i}`)));
    expect([...first, ...second]).not.toContain(429);
    // Each replica alone has seen half the limit; together they have seen all of it.
    expect((await signIn(a, uniqueName('c'))).status).toBe(429);
    expect((await signIn(b, uniqueName('d'))).status).toBe(429);

    // A restart (a new process: new app, new connection) starts with the same counts.
    await a.stop();
    await counters[0]!.close();
    const restarted = await replica(2);
    expect((await signIn(restarted, uniqueName('e'))).status).toBe(429);
  });

  it('keeps one document per client and limiter in the gateway database, with its window end', async () => {
    const conn = await connectMongo(INFRA.MONGO_URL, db);
    try {
      const docs = await conn.collection(RATE_LIMIT_COLLECTION).find({}).toArray();
      expect(docs.length).toBeGreaterThan(0);
      for (const d of docs) {
        expect(d.resetAt).toBeInstanceOf(Date);
        expect(d.hits).toBeGreaterThan(0);
        // Keys are hashed: no address or account name at rest.
        expect(String(d._id)).not.toMatch(/127\.0\.0\.1|login/);
      }
    } finally {
      await conn.close();
    }
  });
});

describe('rate limits without their database', () => {
  it('refuse with a 503 (the limit cannot hold), never a 500 or a free pass', async () => {
    // Nothing listens there: the connection fails after the driver's server selection timeout.
    const unreachable = mongoHitCounter({ url: 'mongodb://127.0.0.1:9', db: 'qm_test_unreachable' });
    const gw = await startGateway({}, headerSessions({}), { rateLimits: unreachable });
    try {
      const res = await signIn(gw, uniqueName('someone'));
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({
        message: 'Service temporarily unavailable. Please try again shortly.',
      });
    } finally {
      await gw.stop();
      await unreachable.close();
    }
  });
});

describe('the hit counter', () => {
  const db = uniqueName('qm_test_gw_counter');
  const counter = counterOn(db);
  afterAll(async () => {
    const conn = await connectMongo(INFRA.MONGO_URL, db);
    await conn.dropDatabase().catch(() => undefined);
    await conn.close();
    await counter.close();
  });

  it('counts concurrent hits exactly', async () => {
    const key = uniqueName('k');
    const hits = await Promise.all(Array.from({ length: 40 }, () => counter.increment(key, 60_000)));
    expect(hits.map((h) => h.totalHits).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    expect((await counter.get(key))?.totalHits).toBe(40);
  });

  it('restarts a window past its end exactly once, however many replicas race to', async () => {
    const key = uniqueName('k');
    const { resetTime } = await counter.increment(key, 200);
    await new Promise((r) => setTimeout(r, resetTime.getTime() - Date.now() + 100));
    expect(await counter.get(key)).toBeUndefined();
    const after = await Promise.all(Array.from({ length: 10 }, () => counter.increment(key, 60_000)));
    expect(after.map((h) => h.totalHits).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 10 }, (_, i) => i + 1),
    );
    expect(new Set(after.map((h) => h.resetTime.getTime())).size).toBe(1);
  });
});

describe('Content-Security-Policy', () => {
  const connectSrc = async (gw: Gateway) => {
    const csp = (await fetch(`${gw.url}/healthz`)).headers.get('content-security-policy') ?? '';
    return (
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .find(([name]) => name === 'connect-src')
        ?.slice(1) ?? []
    );
  };

  it('lets pages connect to their own origin and Keycloak only (no websocket to any host)', async () => {
    const gw = await startGateway(
      { KEYCLOAK_PUBLIC_URL: 'http://sso.example.test:8081' },
      headerSessions({}),
    );
    try {
      expect(await connectSrc(gw)).toEqual(["'self'", 'http://sso.example.test:8081']);
    } finally {
      await gw.stop();
    }
  });

  it('in FRONTEND_DEV, also the hot-reload websockets of the gateway and the dev servers', async () => {
    const gw = await startGateway({ FRONTEND_DEV: '1' }, headerSessions({}));
    try {
      const sources = await connectSrc(gw);
      expect(sources).toEqual(expect.arrayContaining(['ws://localhost:8080', 'ws://localhost:3002']));
      expect(sources).not.toContain('ws:');
      expect(sources).not.toContain('wss:');
    } finally {
      await gw.stop();
    }
  });
});
