import { createHash, randomBytes } from 'node:crypto';
import { connectBus, connectMongo, startService, storeEngineVariables } from '@qm/platform';
import { createIdentityService } from '@qm/identity/src/service';
import {
  cachedSessionStore,
  createSessionManager,
  followSessionRevocations,
  mongoSessionStore,
  SESSION_COOKIE,
} from '@qm/gateway/src/session';
import { startGateway } from './gateway';
import { freePort, INFRA, serviceTestEnv, testLog, uniqueName } from './infra';
import { ADMIN_PASSWORD, deleteKeycloakUsers, testKeycloak } from './keycloak';

export { ADMIN_PASSWORD } from './keycloak';
export { deleteMailsTo, latestCode } from './maildev';
export { INFRA } from './infra';

/**
 * A real gateway (in-process createApp on port 0) with the real session resolver and the real
 * identity service, against the local Keycloak, database, NATS and maildev.
 */
export const log = testLog('gateway-identity-test');

/** Time for the session manager that a test can move forward. */
export function testClock() {
  let offset = 0;
  return { now: () => Date.now() + offset, advance: (ms: number) => (offset += ms) };
}

/** The identity service's environment in these tests; `overrides` win. */
export async function identityEnv(overrides: Record<string, string> = {}): Promise<Record<string, string>> {
  return serviceTestEnv(uniqueName('qm_test_identity_gw', '_'), {
    GRPC_PORT: String(await freePort()),
    KEYCLOAK_URL: INFRA.KEYCLOAK_URL,
    SMTP_URL: INFRA.SMTP_URL,
    ADMIN_PASSWORD,
    SWEEP_INTERVAL_MS: '3600000',
    ...overrides,
  });
}

/**
 * `identity`: overrides of the identity service's environment; `gateway`: of the gateway's (e.g.
 * another service's address); `cacheMs`: the gateway's session cache as in production (off unless
 * given, so tests see the store directly).
 */
export async function startIdentityStack(
  opts: { identity?: Record<string, string>; gateway?: Record<string, string>; cacheMs?: number } = {},
) {
  const clock = testClock();
  const identity = await startService(createIdentityService(), await identityEnv(opts.identity));
  const gatewayDb = uniqueName('qm_test_gateway');
  const store = mongoSessionStore({
    url: INFRA.MONGO_URL,
    db: gatewayDb,
    engine: INFRA.STORE_ENGINE,
  });
  const resolving = opts.cacheMs
    ? cachedSessionStore(store, { ttlMs: opts.cacheMs, maxEntries: 1000 })
    : store;
  const bus = await connectBus({ servers: INFRA.NATS_URL, name: 'gateway-test', log });
  await followSessionRevocations({ bus, store: resolving, log });
  const gw = await startGateway(
    {
      NODE_ENV: 'test',
      IDENTITY_GRPC_ADDR: `127.0.0.1:${identity.port}`,
      MONGO_URL: INFRA.MONGO_URL,
      MONGO_DB: gatewayDb,
      ...storeEngineVariables(INFRA.STORE_ENGINE),
      ...opts.gateway,
    },
    ({ config, clients }) =>
      createSessionManager({
        store: resolving,
        identity: clients.identity,
        log,
        secret: config.SESSION_SECRET,
        maxAgeSeconds: config.SESSION_MAX_AGE_S,
        secure: false,
        sweepIntervalMs: 3_600_000,
        now: clock.now,
      }),
  );
  const { url, config, clients, sessions } = gw;
  const kc = testKeycloak(log);
  const created: string[] = [];
  return {
    url,
    clock,
    identity,
    clients,
    store,
    sessions,
    kc,
    config,
    /** Usernames to remove from Keycloak at the end. */
    track: (username: string) => created.push(username),
    async stop() {
      await deleteKeycloakUsers(kc, created);
      await gw.stop();
      const gwDb = await connectMongo(config.MONGO_URL, config.MONGO_DB);
      await gwDb.dropDatabase().catch(() => undefined);
      await gwDb.close();
      await bus.close();
      await sessions.close();
      await identity.rt.conn.dropDatabase().catch(() => undefined);
      await identity.stop().catch(() => undefined); // a test may have stopped it already
    },
  };
}

export type Stack = Awaited<ReturnType<typeof startIdentityStack>>;

/**
 * A browser: keeps the session cookie it is given, sends it back, and sends its Origin on every
 * request like a same-origin page would.
 */
export class Browser {
  cookie: string | undefined;
  lastSetCookie: string[] = [];
  constructor(
    private readonly base: string,
    readonly userAgent = 'Mozilla/5.0 (X11; Linux x86_64) QuartermasterTest/1.0',
  ) {}

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        origin: this.base,
        'user-agent': this.userAgent,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.cookie ? { cookie: `${SESSION_COOKIE}=${this.cookie}` } : {}),
        ...headers,
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    this.lastSetCookie = res.headers.getSetCookie();
    for (const c of this.lastSetCookie) {
      const m = new RegExp(`^${SESSION_COOKIE}=([^;]*)`).exec(c);
      if (!m) continue;
      const expired = /Expires=Thu, 01 Jan 1970/i.test(c) || /Max-Age=0\b/i.test(c);
      this.cookie = expired || !m[1] ? undefined : m[1];
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = text;
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: res.status, body: json as any, headers: res.headers };
  }

  get = (path: string) => this.request('GET', path);
  post = (path: string, body?: unknown) => this.request('POST', path, body ?? {});
  patch = (path: string, body?: unknown) => this.request('PATCH', path, body ?? {});
  delete = (path: string) => this.request('DELETE', path);

  async login(username: string, password: string, portal: 'user' | 'admin' = 'user') {
    return this.post('/api/login', { username, password, portal });
  }
}

export interface Registered {
  username: string;
  password: string;
  email: string;
  id: number;
}

/** Registers through the gateway; with `approveWith`, an admin browser approves the account. */
export async function registerUser(
  stack: Stack,
  prefix: string,
  role: 'Army' | 'Manufacturer',
  approveWith?: Browser,
): Promise<Registered> {
  const username = uniqueName(prefix, '');
  const password = 'Secret#123';
  const email = `${username.toLowerCase()}@example.test`;
  stack.track(username);
  const res = await new Browser(stack.url).post('/api/register', {
    username,
    password,
    confirmPassword: password,
    email,
    firstName: 'Gate',
    lastName: role === 'Army' ? 'Soldier' : 'Maker',
    phoneNumber: '+91 90000 00000',
    role,
  });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${JSON.stringify(res.body)}`);
  const id = res.body.user.id as number;
  if (approveWith) {
    const ok = await approveWith.patch(`/api/users/${id}/status`, { status: 'approved' });
    if (ok.status !== 200) throw new Error(`approval failed: ${ok.status} ${JSON.stringify(ok.body)}`);
  }
  return { username, password, email, id };
}

/** Keycloak's authorization code + PKCE flow with the web client, as keycloak-js runs it in a browser. */
export async function ssoTokens(
  keycloakUrl: string,
  username: string,
  password: string,
): Promise<{ accessToken: string; refreshToken: string }> {
  const realm = `${keycloakUrl}/realms/quartermaster/protocol/openid-connect`;
  const redirectUri = 'http://localhost:8080/auth';
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      jar.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
  };
  const cookies = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const auth = await fetch(
    `${realm}/auth?${new URLSearchParams({
      client_id: 'qm-web',
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid',
      state: 'st',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    })}`,
  );
  keep(auth);
  const page = await auth.text();
  const action = /action="([^"]+)"/.exec(page)?.[1]?.replace(/&amp;/g, '&');
  if (!action) throw new Error('no Keycloak login form');
  const submitted = await fetch(action, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookies() },
    body: new URLSearchParams({ username, password, credentialId: '' }).toString(),
  });
  const location = submitted.headers.get('location') ?? '';
  const code = new URL(location, redirectUri).searchParams.get('code');
  if (!code) throw new Error(`no authorization code (status ${submitted.status})`);
  const token = await fetch(`${realm}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: 'qm-web',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    }).toString(),
  });
  const body = (await token.json()) as { access_token: string; refresh_token: string };
  return { accessToken: body.access_token, refreshToken: body.refresh_token };
}
