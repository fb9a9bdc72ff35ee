import { createHmac } from 'node:crypto';
import { GrpcStatus } from '@qm/platform';
import {
  ADMIN_PASSWORD,
  Browser,
  deleteMailsTo,
  latestCode,
  registerUser,
  type Stack,
  ssoTokens,
  startIdentityStack,
  INFRA,
} from '@qm/testkit/src/identity-stack';

/** Sessions, sign-in rules and the password journeys through a real gateway. */
describe('identity through the gateway: sessions and journeys', () => {
  let stack: Stack;
  let admin: Browser;
  const emails: string[] = [];
  const keyOf = (id: string) =>
    createHmac('sha256', stack.config.SESSION_SECRET).update(id).digest('base64url');

  beforeAll(async () => {
    stack = await startIdentityStack();
    admin = new Browser(stack.url);
    expect((await admin.login('admin', ADMIN_PASSWORD, 'admin')).status).toBe(200);
  });
  afterAll(async () => {
    await deleteMailsTo(emails).catch(() => undefined);
    await stack?.stop();
  });

  const approved = async (prefix: string, role: 'Army' | 'Manufacturer' = 'Army') => {
    const u = await registerUser(stack, prefix, role, admin);
    emails.push(u.email);
    return u;
  };

  it('sets an httpOnly SameSite=Lax cookie whose id is stored only as a keyed hash, with tokens kept server-side', async () => {
    const u = await approved('SesCookie');
    const b = new Browser(stack.url);
    const res = await b.login(u.username, u.password);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'success',
      message: 'Login successful',
      redirectTo: '/wallet',
      isAdmin: false,
    });
    expect(JSON.stringify(res.body)).not.toMatch(/token/i);
    const cookie = b.lastSetCookie.find((c) => c.startsWith('qm_session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/i);
    expect(b.cookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await stack.store.get(b.cookie!)).toBeNull();
    const doc = await stack.store.get(keyOf(b.cookie!));
    expect(doc).toMatchObject({
      userId: u.id,
      username: u.username,
      roles: ['Army'],
      clientId: 'qm-identity',
    });
    expect(doc!.accessToken.length).toBeGreaterThan(100);
  });

  it('answers pending and rejected sign-ins with their status and message, and no cookie', async () => {
    const pending = await registerUser(stack, 'SesPend', 'Army');
    emails.push(pending.email);
    const b = new Browser(stack.url);
    const res = await b.login(pending.username, pending.password);
    expect(res.status).toBe(403);
    expect(res.body.status).toBe('pending');
    expect(res.body.message).toContain('pending approval');
    expect(b.cookie).toBeUndefined();

    await admin.patch(`/api/users/${pending.id}/status`, {
      status: 'rejected',
      rejectionReason: 'Unverified unit',
    });
    const rej = await b.login(pending.username, pending.password);
    expect(rej.status).toBe(403);
    expect(rej.body.status).toBe('rejected');
    expect(rej.body.message).toContain('rejected');
  });

  it('keeps administrators to the admin portal and users to /auth (Access Denied), enforced on the server', async () => {
    const u = await approved('SesPortal');
    const b = new Browser(stack.url);
    const userAtAdmin = await b.login(u.username, u.password, 'admin');
    expect(userAtAdmin.status).toBe(403);
    expect(userAtAdmin.body).toEqual({
      status: 'access_denied',
      message: 'Normal user logins are not allowed in the admin portal. Please use the regular login page.',
    });
    expect(b.cookie).toBeUndefined();
    const adminAtAuth = await b.login('admin', ADMIN_PASSWORD, 'user');
    expect(adminAtAuth.status).toBe(403);
    expect(adminAtAuth.body.status).toBe('access_denied');
    const ok = await b.login('admin', ADMIN_PASSWORD, 'admin');
    expect(ok.body).toMatchObject({ status: 'success', redirectTo: '/admin/dashboard', isAdmin: true });
  });

  it('validates sign-in and registration with the product reference messages', async () => {
    const b = new Browser(stack.url);
    expect((await b.login('', 'whatever1')).body).toEqual({ message: 'Username is required' });
    expect((await b.login('someone', "' OR '1'='1")).body).toEqual({ message: 'Invalid password format' });
    expect((await b.login('admin', "x' --", 'admin')).body).toEqual({ message: 'SQL injection detected' });
    const reg = await b.post('/api/register', {
      username: 'Admin',
      password: 'Secret#123',
      confirmPassword: 'Secret#124',
      email: 'a@b.test',
      firstName: 'A',
      lastName: 'B',
    });
    expect(reg).toMatchObject({ status: 400, body: { message: 'This username is reserved' } });
    const mismatch = await b.post('/api/register', {
      username: 'someone_new_1',
      password: 'Secret#123',
      confirmPassword: 'Secret#124',
      email: 'a@b.test',
      firstName: 'A',
      lastName: 'B',
    });
    expect(mismatch.body).toEqual({ message: "Passwords don't match" });
  });

  it('refreshes the access token before it expires and keeps the caller', async () => {
    const u = await approved('SesRefresh');
    const b = new Browser(stack.url);
    await b.login(u.username, u.password);
    const before = (await stack.store.get(keyOf(b.cookie!)))!;
    stack.clock.advance(5 * 60_000);
    const res = await b.get('/api/user');
    expect(res.status).toBe(200);
    expect(res.body.username).toBe(u.username);
    const after = (await stack.store.get(keyOf(b.cookie!)))!;
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.accessExpiresAt.getTime()).toBeGreaterThan(before.accessExpiresAt.getTime());
  });

  it('ends a session past its lifetime, and one whose user was deleted', async () => {
    const u = await approved('SesExpire', 'Manufacturer');
    const b = new Browser(stack.url);
    await b.login(u.username, u.password);
    const key = keyOf(b.cookie!);
    stack.clock.advance(stack.config.SESSION_MAX_AGE_S * 1000 + 1000);
    const res = await b.get('/api/user');
    expect(res.status).toBe(401);
    expect(b.cookie).toBeUndefined();
    expect(await stack.store.get(key)).toBeNull();
    // Every session aged, the administrator's too.
    expect((await admin.get('/api/user')).status).toBe(401);
    expect((await admin.login('admin', ADMIN_PASSWORD, 'admin')).status).toBe(200);

    const other = new Browser(stack.url);
    const v = await approved('SesDeleted', 'Manufacturer');
    expect((await other.login(v.username, v.password)).status).toBe(200);
    expect((await admin.delete(`/api/users/${v.id}`)).status).toBe(200);
    stack.clock.advance(5 * 60_000);
    expect((await other.get('/api/user')).status).toBe(401);
  });

  it('logout ends the Keycloak session too', async () => {
    const u = await approved('SesLogout');
    const b = new Browser(stack.url);
    await b.login(u.username, u.password);
    const doc = (await stack.store.get(keyOf(b.cookie!)))!;
    const out = await b.post('/api/logout');
    expect(out).toMatchObject({ status: 200, body: { message: 'Logged out successfully' } });
    expect(b.cookie).toBeUndefined();
    const err = await stack.clients.identity
      .refreshSession({ refreshToken: doc.refreshToken, clientId: doc.clientId, userId: u.id })
      .then(
        () => undefined,
        (e: { code: number }) => e,
      );
    expect(err?.code).toBe(GrpcStatus.UNAUTHENTICATED);
  });

  it('signs in with SSO (keycloak-js authorization code + PKCE) into the same kind of session', async () => {
    const u = await approved('SesSso');
    const tokens = await ssoTokens(INFRA.KEYCLOAK_URL, u.username, u.password);
    const b = new Browser(stack.url);
    const res = await b.post('/api/auth/sso', tokens);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', redirectTo: '/wallet', isAdmin: false });
    expect((await b.get('/api/user')).body.username).toBe(u.username);
    const doc = (await stack.store.get(keyOf(b.cookie!)))!;
    expect(doc.clientId).toBe('qm-web');
    stack.clock.advance(5 * 60_000);
    expect((await b.get('/api/user')).status).toBe(200);
    expect((await b.post('/api/logout')).status).toBe(200);

    const adminTokens = await ssoTokens(INFRA.KEYCLOAK_URL, 'admin', ADMIN_PASSWORD);
    const denied = await new Browser(stack.url).post('/api/auth/sso', adminTokens);
    expect(denied.status).toBe(403);
    expect(denied.body.status).toBe('access_denied');
  });

  it('rate-limits username checks with a 429 JSON message', async () => {
    const b = new Browser(stack.url);
    let last = { status: 0, body: undefined as unknown };
    for (let i = 0; i < 125 && last.status !== 429; i++)
      last = await b.get(`/api/check-username/someone${i}`);
    expect(last.status).toBe(429);
    expect(last.body).toEqual({ message: expect.stringMatching(/Too many/) });
  });

  it('journey: register, wait for approval, sign in, edit profile, change and then reset the password', async () => {
    const b = new Browser(stack.url);
    const u = await registerUser(stack, 'Journey', 'Manufacturer');
    emails.push(u.email);
    expect((await b.login(u.username, u.password)).body.status).toBe('pending');
    expect((await admin.patch(`/api/users/${u.id}/status`, { status: 'approved' })).status).toBe(200);
    expect((await b.login(u.username, u.password)).status).toBe(200);

    const profile = await b.patch('/api/user/profile', {
      firstName: 'Journey',
      lastName: 'Maker',
      email: u.email,
      address: 'Plot 7, Industrial Area',
      licenseNumber: 'MFG-1234-5678',
      yearsOfExperience: '12',
    });
    expect(profile.body).toMatchObject({
      firstName: 'Journey',
      licenseNumber: 'MFG-1234-5678',
      yearsOfExperience: 12,
    });

    let t = Date.now() - 1000;
    expect((await b.post('/api/user/request-password-change-otp')).body).toMatchObject({
      resendAfterSeconds: 30,
    });
    expect((await b.post('/api/user/request-password-change-otp')).status).toBe(429);
    const code = await latestCode(u.email, /change code/, t);
    expect((await b.post('/api/user/verify-password-otp', { otp: code })).body).toEqual({
      changed: false,
      message: 'OTP verified',
    });
    expect((await b.post('/api/user/verify-current-password', { currentPassword: u.password })).status).toBe(
      200,
    );
    const changed = await b.post('/api/user/verify-password-otp', { otp: code, newPassword: 'Changed#456' });
    expect(changed.body).toEqual({ changed: true, message: 'Password changed successfully' });
    expect((await b.post('/api/logout')).status).toBe(200);

    t = Date.now() - 1000;
    expect((await b.post('/api/request-password-reset', { emailOrUsername: u.email })).status).toBe(200);
    const resetCode = await latestCode(u.email, /reset code/, t);
    const early = await b.post('/api/reset-password', { emailOrUsername: u.username, password: 'Reset#789' });
    expect(early.status).toBe(409);
    expect(
      (await b.post('/api/verify-password-reset-otp', { emailOrUsername: u.username, otp: resetCode }))
        .status,
    ).toBe(200);
    expect(
      (
        await b.post('/api/reset-password', {
          emailOrUsername: u.username,
          password: 'Reset#789',
          confirmPassword: 'Reset#789',
        })
      ).status,
    ).toBe(200);
    expect((await b.login(u.username, 'Reset#789')).status).toBe(200);
    expect((await b.get('/api/user')).body.username).toBe(u.username);
  });

  it('documents every identity route with its method and whether it needs a session', async () => {
    const doc = (await new Browser(stack.url).get('/api/openapi.json')).body as {
      paths: Record<string, Record<string, { security?: unknown[] } | undefined> | undefined>;
    };
    const routes: Record<string, 'public' | 'session'> = {
      'get /api/user': 'session',
      'post /api/login': 'public',
      'post /api/logout': 'public',
      'post /api/register': 'public',
      'get /api/check-username/{username}': 'public',
      'post /api/request-password-reset': 'public',
      'post /api/verify-password-reset-otp': 'public',
      'post /api/reset-password': 'public',
      'get /api/users': 'session',
      'get /api/users/{id}': 'session',
      'delete /api/users/{id}': 'session',
      'patch /api/users/{userId}/status': 'session',
      'patch /api/user/profile': 'session',
      'post /api/user/activity': 'session',
      'post /api/user/request-password-change-otp': 'session',
      'post /api/user/verify-current-password': 'session',
      'post /api/user/verify-password-otp': 'session',
      'post /api/auth/sso': 'public',
      'get /api/auth/config': 'public',
    };
    const documented = Object.fromEntries(
      Object.keys(routes).map((route) => {
        const [method, path] = route.split(' ') as [string, string];
        const operation = doc.paths[path]?.[method];
        if (!operation) return [route, 'missing'];
        return [route, operation.security?.length ? 'session' : 'public'];
      }),
    );
    expect(documented).toEqual(routes);
  });
});
