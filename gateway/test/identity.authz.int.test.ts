import { uniqueName } from '@qm/testkit';
import {
  ADMIN_PASSWORD,
  Browser,
  deleteMailsTo,
  type Registered,
  registerUser,
  type Stack,
  startIdentityStack,
} from '@qm/testkit/src/identity-stack';

/**
 * Every identity route of docs/product.md §7, called through a real gateway with real sessions (cookies from
 * real logins) as anonymous, Army, Manufacturer and Admin, and the status each must get.
 */
type Persona = 'anonymous' | 'army' | 'manufacturer' | 'admin';
const PERSONAS: Persona[] = ['anonymous', 'army', 'manufacturer', 'admin'];

describe('identity routes: who gets what (real gateway, sessions, identity, Keycloak)', () => {
  let stack: Stack;
  const as: Record<Persona, Browser> = {} as never;
  let army: Registered;
  let maker: Registered;
  const emails: string[] = ['admin@quartermaster.local'];

  beforeAll(async () => {
    stack = await startIdentityStack();
    for (const p of PERSONAS) as[p] = new Browser(stack.url);
    const adminLogin = await as.admin.login('admin', ADMIN_PASSWORD, 'admin');
    expect(adminLogin.status).toBe(200);
    army = await registerUser(stack, 'AzArmy', 'Army', as.admin);
    maker = await registerUser(stack, 'AzMaker', 'Manufacturer', as.admin);
    emails.push(army.email, maker.email);
    expect((await as.army.login(army.username, army.password)).status).toBe(200);
    expect((await as.manufacturer.login(maker.username, maker.password)).status).toBe(200);
  });

  afterAll(async () => {
    await deleteMailsTo(emails).catch(() => undefined);
    await stack?.stop();
  });

  /** Calls the route as every persona and compares the statuses. */
  async function matrix(
    call: (b: Browser, p: Persona) => Promise<{ status: number; body: unknown }>,
    expected: Record<Persona, number>,
  ) {
    const got: Record<string, number> = {};
    const bodies: Record<string, unknown> = {};
    for (const p of PERSONAS) {
      const res = await call(as[p], p);
      got[p] = res.status;
      bodies[p] = res.body;
    }
    expect({ statuses: got }).toEqual({ statuses: expected });
    return bodies as Record<Persona, { message?: string } & Record<string, unknown>>;
  }
  const everyone = (status: number) => ({
    anonymous: status,
    army: status,
    manufacturer: status,
    admin: status,
  });
  const signedIn = (status: number) => ({
    anonymous: 401,
    army: status,
    manufacturer: status,
    admin: status,
  });
  const adminOnly = (status: number) => ({ anonymous: 401, army: 403, manufacturer: 403, admin: status });

  it('GET /api/user: 401 without a session, the user otherwise, never cached', async () => {
    const bodies = await matrix((b) => b.get('/api/user'), signedIn(200));
    expect(bodies.anonymous).toEqual({ message: 'Not authenticated' });
    expect(bodies.army).toMatchObject({
      username: army.username,
      role: 'Army',
      status: 'approved',
      isAdmin: false,
    });
    expect(bodies.admin).toMatchObject({ username: 'admin', role: 'Admin', isAdmin: true });
    const res = await as.army.get('/api/user');
    expect(res.headers.get('cache-control')).toMatch(/no-store/);
    expect(res.headers.get('pragma')).toBe('no-cache');
  });

  it('POST /api/login: public; wrong credentials are 401 for anyone', async () => {
    // An unknown user: Keycloak's brute-force guard would lock a real one after quick failures.
    const bodies = await matrix(
      (b) => b.post('/api/login', { username: 'nobody_by_that_name', password: 'Wrong#999' }),
      everyone(401),
    );
    expect(bodies.anonymous).toEqual({ message: 'Invalid username or password' });
  });

  it('POST /api/auth/sso: public; tokens Keycloak does not vouch for are 401', async () => {
    const fake = { accessToken: `${'x'.repeat(30)}.${'y'.repeat(30)}.z`, refreshToken: 'r'.repeat(40) };
    await matrix((b) => b.post('/api/auth/sso', fake), everyone(401));
  });

  it('GET /api/auth/config: public', async () => {
    const bodies = await matrix((b) => b.get('/api/auth/config'), everyone(200));
    expect(bodies.anonymous).toEqual({ url: expect.any(String), realm: 'quartermaster', clientId: 'qm-web' });
  });

  it('POST /api/register: public', async () => {
    await matrix((b, p) => {
      const username = uniqueName(`AzReg${p.slice(0, 3)}`, '');
      stack.track(username);
      emails.push(`${username.toLowerCase()}@example.test`);
      return b.post('/api/register', {
        username,
        password: 'Secret#123',
        confirmPassword: 'Secret#123',
        email: `${username.toLowerCase()}@example.test`,
        firstName: 'Reg',
        lastName: 'Istered',
        phoneNumber: '',
        role: 'Army',
      });
    }, everyone(201));
  });

  it('GET /api/check-username/{username}: public', async () => {
    const bodies = await matrix(
      (b) => b.get(`/api/check-username/${army.username.toUpperCase()}`),
      everyone(200),
    );
    expect(bodies.admin).toEqual({ isAvailable: false, message: 'Username is already taken' });
  });

  it('forgot-password calls are public (an unknown account is answered as a known one, for anyone)', async () => {
    // One unknown name per persona: the 30 s resend rule holds for unknown names too.
    const who = (p: Persona) => ({ emailOrUsername: `nobody-at-all-${p}-${Date.now()}@example.test` });
    const names = Object.fromEntries(PERSONAS.map((p) => [p, who(p)])) as Record<
      Persona,
      ReturnType<typeof who>
    >;
    await matrix((b, p) => b.post('/api/request-password-reset', names[p]), everyone(200));
    await matrix(
      (b, p) => b.post('/api/verify-password-reset-otp', { ...names[p], otp: '123456' }),
      everyone(400),
    );
    await matrix(
      (b, p) => b.post('/api/reset-password', { ...names[p], password: 'Secret#456' }),
      everyone(409),
    );
  });

  it('PATCH /api/user/profile: signed-in; manufacturer fields only for a Manufacturer', async () => {
    await matrix((b) => b.patch('/api/user/profile', { bio: 'Serving since 2010' }), signedIn(200));
    const bodies = await matrix((b) => b.patch('/api/user/profile', { licenseNumber: 'MFG-1234-5678' }), {
      anonymous: 401,
      army: 403,
      manufacturer: 200,
      admin: 403,
    });
    expect(bodies.manufacturer).toMatchObject({ licenseNumber: 'MFG-1234-5678' });
  });

  it('POST /api/user/activity: signed-in', async () => {
    await matrix(
      (b) => b.post('/api/user/activity', { action: 'profile_view', details: 'Viewed profile' }),
      signedIn(200),
    );
  });

  it('password change calls: signed-in', async () => {
    await matrix((b) => b.post('/api/user/request-password-change-otp'), signedIn(200));
    const passwords: Record<Persona, string> = {
      anonymous: 'whatever1',
      army: army.password,
      manufacturer: maker.password,
      admin: ADMIN_PASSWORD,
    };
    await matrix(
      (b, p) => b.post('/api/user/verify-current-password', { currentPassword: passwords[p] }),
      signedIn(200),
    );
    // A wrong code is a 400 for the signed-in; the session check comes first.
    await matrix(
      (b) => b.post('/api/user/verify-password-otp', { otp: '000000', newPassword: 'Brand#New1' }),
      {
        anonymous: 401,
        army: 400,
        manufacturer: 400,
        admin: 400,
      },
    );
  });

  it('GET /api/users: administrators only', async () => {
    const bodies = await matrix((b) => b.get('/api/users'), adminOnly(200));
    const list = bodies.admin as unknown as { username: string; email: string }[];
    expect(list.map((u) => u.username)).toEqual(
      expect.arrayContaining(['admin', army.username, maker.username]),
    );
  });

  it('GET /api/users/{id}: a manufacturer card for users, everything for admins', async () => {
    const bodies = await matrix((b) => b.get(`/api/users/${maker.id}`), signedIn(200));
    expect(bodies.army).toEqual({
      id: maker.id,
      firstName: 'Gate',
      lastName: 'Maker',
      yearsOfExperience: null,
      licenseNumber: 'MFG-1234-5678',
    });
    expect(bodies.manufacturer).toMatchObject({ email: maker.email });
    expect(bodies.admin).toMatchObject({ email: maker.email, phoneNumber: '+91 90000 00000' });
    // Other users' details are not anyone's business but the admins'.
    await matrix((b) => b.get(`/api/users/${army.id}`), {
      anonymous: 401,
      army: 200,
      manufacturer: 404,
      admin: 200,
    });
  });

  it('PATCH /api/users/{userId}/status: administrators only; then 409 for a decided user', async () => {
    const pending = await registerUser(stack, 'AzPend', 'Army');
    emails.push(pending.email);
    await matrix((b) => b.patch(`/api/users/${pending.id}/status`, { status: 'approved' }), adminOnly(200));
    const again = await as.admin.patch(`/api/users/${pending.id}/status`, {
      status: 'rejected',
      rejectionReason: 'x',
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/Only pending users/);
  });

  it('DELETE /api/users/{id}: administrators only', async () => {
    const doomed = await registerUser(stack, 'AzDel', 'Manufacturer', as.admin);
    emails.push(doomed.email);
    await matrix((b) => b.delete(`/api/users/${doomed.id}`), adminOnly(200));
  });

  it('refuses a state-changing request from another origin even with a valid session', async () => {
    const res = await as.army.request(
      'PATCH',
      '/api/user/profile',
      { bio: 'csrf' },
      { origin: 'https://evil.example' },
    );
    expect(res.status).toBe(403);
  });

  it('POST /api/logout: public; ends each session', async () => {
    await matrix((b) => b.post('/api/logout'), everyone(200));
    await matrix((b) => b.get('/api/user'), everyone(401));
  });
});
