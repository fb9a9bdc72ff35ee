/**
 * The realm in k8s/keycloak/realm-quartermaster.json, as imported by a running Keycloak
 * (`make infra`, or KEYCLOAK_URL pointing elsewhere): the identity service's client can manage
 * users through the admin REST API and log them in with the password grant, and the browser
 * client only allows the authorisation-code flow with PKCE on the gateway's origin.
 */
import { randomBytes, createHash } from 'node:crypto';

const KEYCLOAK_URL = (process.env.KEYCLOAK_URL ?? 'http://127.0.0.1:8081').replace(/\/$/, '');
const REALM = 'quartermaster';
const CLIENT_ID = 'qm-identity';
const CLIENT_SECRET = process.env.KEYCLOAK_CLIENT_SECRET ?? 'qm-identity-dev-secret';
const realmUrl = `${KEYCLOAK_URL}/realms/${REALM}`;
const adminUrl = `${KEYCLOAK_URL}/admin/realms/${REALM}`;

interface TokenResponse {
  access_token: string;
  refresh_token?: string;
  expires_in: number;
  error?: string;
  error_description?: string;
}

async function token(params: Record<string, string>): Promise<{ status: number; body: TokenResponse }> {
  const res = await fetch(`${realmUrl}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params),
  });
  return { status: res.status, body: (await res.json()) as TokenResponse };
}

const serviceToken = () =>
  token({ grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET });

const passwordLogin = (username: string, password: string) =>
  token({
    grant_type: 'password',
    client_id: CLIENT_ID,
    client_secret: CLIENT_SECRET,
    username,
    password,
    scope: 'openid',
  });

interface AccessClaims {
  preferred_username: string;
  realm_access: { roles: string[] };
  exp: number;
  iat: number;
}

function claims(jwt: string): AccessClaims {
  return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'));
}

let bearer = '';
async function admin(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${adminUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', ...init.headers },
  });
}

const username = `qm-test-${randomBytes(4).toString('hex')}`;
const password = `Pw-${randomBytes(6).toString('hex')}`;
let userId: string | undefined;

beforeAll(async () => {
  const { status, body } = await serviceToken();
  if (status !== 200)
    throw new Error(`client-credentials token for ${CLIENT_ID}: ${status} ${JSON.stringify(body)}`);
  bearer = body.access_token;
});

afterAll(async () => {
  if (userId) await admin(`/users/${userId}`, { method: 'DELETE' });
});

describe('realm quartermaster', () => {
  it('is published with its OpenID configuration', async () => {
    const res = await fetch(`${realmUrl}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    const conf = (await res.json()) as { issuer: string; code_challenge_methods_supported: string[] };
    expect(conf.issuer).toMatch(/\/realms\/quartermaster$/);
    expect(conf.code_challenge_methods_supported).toContain('S256');
  });

  it('has the settings the product relies on', async () => {
    const res = await admin('');
    expect(res.status).toBe(200);
    const realm = (await res.json()) as Record<string, unknown>;
    expect(realm).toMatchObject({
      realm: REALM,
      enabled: true,
      registrationAllowed: false,
      loginWithEmailAllowed: false,
      accessTokenLifespan: 300,
      ssoSessionIdleTimeout: 1800,
      bruteForceProtected: true,
    });
  });

  it('has the five realm roles', async () => {
    const res = await admin('/roles');
    expect(res.status).toBe(200);
    const names = ((await res.json()) as { name: string }[]).map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(['Army', 'Navy', 'Airforce', 'Manufacturer', 'Admin']));
  });
});

describe('qm-identity (confidential client of the identity service)', () => {
  it('creates a disabled user with a password and a role; the user logs in once enabled', async () => {
    const created = await postUser(username, password, false);
    expect(created.status).toBe(201);
    userId = created.headers.get('location')?.split('/').pop();
    expect(userId).toBeTruthy();

    const army = await admin('/roles/Army');
    expect(army.status).toBe(200);
    const mapped = await admin(`/users/${userId}/role-mappings/realm`, {
      method: 'POST',
      body: JSON.stringify([await army.json()]),
    });
    expect(mapped.status).toBe(204);

    // Pending approval: the account exists but cannot log in.
    const refused = await passwordLogin(username, password);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_grant');

    const enabled = await admin(`/users/${userId}`, {
      method: 'PUT',
      body: JSON.stringify({ enabled: true }),
    });
    expect(enabled.status).toBe(204);

    const { status, body } = await passwordLogin(username, password);
    expect(status).toBe(200);
    expect(body.refresh_token).toBeTruthy();
    // Counted from the moment of the answer in whole seconds: 299 when a second ticks over in between
    // (a CI run saw it); the lifespan itself is exp - iat below.
    expect(body.expires_in).toBeGreaterThanOrEqual(299);
    expect(body.expires_in).toBeLessThanOrEqual(300);
    const access = claims(body.access_token);
    expect(access.preferred_username).toBe(username);
    expect(access.realm_access.roles).toContain('Army');
    expect(access.exp - access.iat).toBe(300);
  });

  it('finds the user through the admin REST API with its service-account token', async () => {
    const res = await admin(`/users?username=${username}&exact=true`);
    expect(res.status).toBe(200);
    const found = (await res.json()) as { id: string; username: string; enabled: boolean }[];
    expect(found).toEqual([expect.objectContaining({ id: userId, username, enabled: true })]);
  });

  it('refuses a wrong password for an account whose right password works', async () => {
    // The same answer as for an unknown user: the right password first proves the account is there.
    expect((await passwordLogin(username, password)).status).toBe(200);
    const { status, body } = await passwordLogin(username, 'not-the-password');
    expect(status).toBe(401);
    expect(body.error).toBe('invalid_grant');
  });

  it('signs one account in from several places at once (Keycloak refuses all but one by default)', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => passwordLogin(username, password)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
  });

  it('still locks an account that wrong passwords reach at once', async () => {
    const other = await createEnabledUser();
    try {
      const wrong = await Promise.all(
        Array.from({ length: 4 }, () => passwordLogin(other.username, 'not-the-password')),
      );
      expect(wrong.map((a) => a.status)).toEqual(Array(4).fill(401));
      // Two failures within quickLoginCheckMilliSeconds lock it for minimumQuickLoginWaitSeconds: the
      // right password is refused as a wrong one. (Keycloak's default, blocking concurrent requests, counts
      // only one of the four and lets the right password in.)
      const right = await passwordLogin(other.username, other.password);
      expect(right.status).toBe(401);
      expect(right.body.error).toBe('invalid_grant');
    } finally {
      await admin(`/users/${other.id}`, { method: 'DELETE' });
    }
  });
});

/** A user with a password, through the admin REST API. */
const postUser = (name: string, secret: string, enabled: boolean) =>
  admin('/users', {
    method: 'POST',
    body: JSON.stringify({
      username: name,
      email: `${name}@example.test`,
      firstName: 'Test',
      lastName: 'User',
      enabled,
      credentials: [{ type: 'password', value: secret, temporary: false }],
    }),
  });

async function createEnabledUser(): Promise<{ id: string; username: string; password: string }> {
  const name = `qm-test-${randomBytes(4).toString('hex')}`;
  const secret = `Pw-${randomBytes(6).toString('hex')}`;
  const res = await postUser(name, secret, true);
  expect(res.status).toBe(201);
  return { id: res.headers.get('location')!.split('/').pop()!, username: name, password: secret };
}

describe('qm-web (public browser client)', () => {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorize = (params: Record<string, string>) =>
    fetch(
      `${realmUrl}/protocol/openid-connect/auth?${new URLSearchParams({
        client_id: 'qm-web',
        response_type: 'code',
        scope: 'openid',
        redirect_uri: 'http://localhost:8080/auth/callback',
        ...params,
      })}`,
      { redirect: 'manual' },
    );

  it('shows the login page for a code flow with PKCE S256', async () => {
    const res = await authorize({ code_challenge: challenge, code_challenge_method: 'S256' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('kc-form-login');
  });

  it('requires PKCE', async () => {
    const res = await authorize({});
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toContain('error=invalid_request');
  });

  it('only redirects back to the gateway', async () => {
    const res = await authorize({
      code_challenge: challenge,
      code_challenge_method: 'S256',
      redirect_uri: 'http://evil.example/callback',
    });
    expect(res.status).toBe(400);
  });

  it('does not allow the password grant', async () => {
    const { status, body } = await token({ grant_type: 'password', client_id: 'qm-web', username, password });
    expect(status).toBe(400);
    expect(body.error).toBe('unauthorized_client');
  });
});
