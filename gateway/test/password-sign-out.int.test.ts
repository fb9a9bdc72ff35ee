import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectMongo, startService } from '@qm/platform';
import { createIdentityService } from '@qm/identity/src/service';
import { eventually } from '@qm/testkit';
import {
  ADMIN_PASSWORD,
  Browser,
  deleteMailsTo,
  identityEnv,
  INFRA,
  latestCode,
  registerUser,
  type Stack,
  startIdentityStack,
} from '@qm/testkit/src/identity-stack';

const LOGOUT_USER = /^\/admin\/realms\/[^/]+\/users\/[^/]+\/logout$/;

/**
 * The real Keycloak behind a pass-through proxy that answers 503 to the admin "log out user" call
 * while told to: a Keycloak admin API that is briefly down, the rest of Keycloak working.
 */
async function keycloakWithFaults() {
  const target = new URL(INFRA.KEYCLOAK_URL);
  const state = { failLogouts: 0, logouts: [] as number[] };
  const server: Server = createServer((req, res) => {
    if (req.method === 'POST' && LOGOUT_USER.test(req.url ?? '')) {
      const failing = state.failLogouts > 0;
      if (failing) state.failLogouts--;
      state.logouts.push(failing ? 503 : 0);
      if (failing) {
        req.resume();
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end('{"error":"unavailable"}');
        return;
      }
    }
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        if (req.method === 'POST' && LOGOUT_USER.test(req.url ?? ''))
          state.logouts[state.logouts.length - 1] = up.statusCode ?? 0;
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    close: () => new Promise((r) => server.close(r)),
  };
}

describe('a new password ends the old sessions, even when Keycloak fails the first sign-out', () => {
  let kc: Awaited<ReturnType<typeof keycloakWithFaults>>;
  let stack: Stack;
  let admin: Browser;
  const emails: string[] = [];

  beforeAll(async () => {
    kc = await keycloakWithFaults();
    // Identity reaches Keycloak through the proxy; the gateway caches sessions for 5 s as in production.
    stack = await startIdentityStack({
      identity: { KEYCLOAK_URL: kc.url, SWEEP_INTERVAL_MS: '250' },
      cacheMs: 5_000,
    });
    admin = new Browser(stack.url);
    expect((await admin.login('admin', ADMIN_PASSWORD, 'admin')).status).toBe(200);
  });
  afterAll(async () => {
    await deleteMailsTo(emails).catch(() => undefined);
    await stack?.stop();
    await kc?.close();
  });

  const gatewaySessions = async (userId: number) => {
    const db = await connectMongo(stack.config.MONGO_URL, stack.config.MONGO_DB);
    try {
      return await db.collection('sessions').find({ userId }).toArray();
    } finally {
      await db.close();
    }
  };
  const keycloakSessionAlive = (refreshToken: string, clientId: string) =>
    stack.kc.refresh(refreshToken, clientId).then(
      () => true,
      () => false,
    );

  async function resetPassword(username: string, email: string, password: string) {
    const anon = new Browser(stack.url);
    const t = Date.now() - 1000;
    expect((await anon.post('/api/request-password-reset', { emailOrUsername: username })).status).toBe(200);
    const otp = await latestCode(email, /reset code/, t);
    expect(
      (await anon.post('/api/verify-password-reset-otp', { emailOrUsername: username, otp })).status,
    ).toBe(200);
    return anon.post('/api/reset-password', {
      emailOrUsername: username,
      password,
      confirmPassword: password,
    });
  }

  it('reset: the old session stops working at once, and the sign-out in Keycloak is retried until it succeeds', async () => {
    const u = await registerUser(stack, 'SignOutReset', 'Army', admin);
    emails.push(u.email);
    const phone = new Browser(stack.url);
    const laptop = new Browser(stack.url);
    expect((await phone.login(u.username, u.password)).status).toBe(200);
    expect((await laptop.login(u.username, u.password)).status).toBe(200);
    const [kcSession] = await gatewaySessions(u.id);
    // Both sessions are in the gateway's 5 s cache now.
    expect((await phone.get('/api/user')).status).toBe(200);
    expect((await laptop.get('/api/user')).status).toBe(200);

    kc.state.failLogouts = 1;
    kc.state.logouts = [];
    expect((await resetPassword(u.username, u.email, 'Reset#2468')).status).toBe(200);
    const resetAt = Date.now();

    // Well inside the cache's 5 s, the old sessions are refused and gone from the store.
    await eventually(async () => (await phone.get('/api/user')).status === 401, 2_000);
    expect((await laptop.get('/api/user')).status).toBe(401);
    expect(Date.now() - resetAt).toBeLessThan(5_000);
    await eventually(async () => (await gatewaySessions(u.id)).length === 0, 5_000);

    // Keycloak refused the first sign-out: its session lives on until the retry.
    expect(kc.state.logouts).toEqual([503]);
    expect(await keycloakSessionAlive(kcSession!.refreshToken, kcSession!.clientId)).toBe(true);
    await eventually(async () => kc.state.logouts.includes(204), 15_000);
    expect(await keycloakSessionAlive(kcSession!.refreshToken, kcSession!.clientId)).toBe(false);
    expect(await stack.identity.rt.conn.collection('sign_outs').countDocuments()).toBe(0);

    // The new password works, and its session is not touched.
    expect((await phone.login(u.username, 'Reset#2468')).status).toBe(200);
    expect((await phone.get('/api/user')).status).toBe(200);
  });

  it('change: other sessions end, the one that changed the password continues in a fresh session', async () => {
    const u = await registerUser(stack, 'SignOutChange', 'Army', admin);
    emails.push(u.email);
    const here = new Browser(stack.url);
    const elsewhere = new Browser(stack.url);
    expect((await here.login(u.username, u.password)).status).toBe(200);
    expect((await elsewhere.login(u.username, u.password)).status).toBe(200);
    const before = here.cookie;
    expect((await elsewhere.get('/api/user')).status).toBe(200);

    const t = Date.now() - 1000;
    expect((await here.post('/api/user/request-password-change-otp')).status).toBe(200);
    const otp = await latestCode(u.email, /change code/, t);
    const changed = await here.post('/api/user/verify-password-otp', {
      otp,
      currentPassword: u.password,
      newPassword: 'Changed#1357',
    });
    expect(changed.body).toEqual({ changed: true, message: 'Password changed successfully' });
    expect(here.cookie).toBeDefined();
    expect(here.cookie).not.toBe(before);

    await eventually(async () => (await elsewhere.get('/api/user')).status === 401, 2_000);
    expect((await here.get('/api/user')).body.username).toBe(u.username);
    await eventually(async () => (await gatewaySessions(u.id)).length === 1, 5_000);
    // The fresh session is a live Keycloak session: its refresh works.
    const [fresh] = await gatewaySessions(u.id);
    expect(await keycloakSessionAlive(fresh!.refreshToken, fresh!.clientId)).toBe(true);
  });

  it('a sign-out Keycloak never confirmed survives a restart of identity and completes there', async () => {
    const u = await registerUser(stack, 'SignOutRestart', 'Army', admin);
    emails.push(u.email);
    const b = new Browser(stack.url);
    expect((await b.login(u.username, u.password)).status).toBe(200);
    const [kcSession] = await gatewaySessions(u.id);

    // Keycloak's admin API stays down for this identity process, which then stops.
    kc.state.failLogouts = 1_000;
    expect((await resetPassword(u.username, u.email, 'Restart#975')).status).toBe(200);
    const db = stack.identity.rt.config.MONGO_DB;
    await stack.identity.stop();
    kc.state.failLogouts = 0;
    expect(await keycloakSessionAlive(kcSession!.refreshToken, kcSession!.clientId)).toBe(true);

    // Identity comes back (on the same database, Keycloak reachable): its sweeper finishes the job.
    const restarted = await startService(
      createIdentityService(),
      await identityEnv({ MONGO_DB: db, KEYCLOAK_URL: kc.url, SWEEP_INTERVAL_MS: '250' }),
    );
    try {
      await eventually(
        async () => (await restarted.rt.conn.collection('sign_outs').countDocuments()) === 0,
        15_000,
      );
      expect(await keycloakSessionAlive(kcSession!.refreshToken, kcSession!.clientId)).toBe(false);
    } finally {
      await restarted.rt.conn.dropDatabase().catch(() => undefined);
      await restarted.stop();
    }
  });
});
