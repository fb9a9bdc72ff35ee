import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { identityV1, roles } from '@qm/contracts/grpc';
import {
  type Caller,
  createClient,
  createLogger,
  type EventBus,
  type EventEnvelope,
  newRequestId,
  runWithContext,
  startService,
} from '@qm/platform';
import { KeycloakClient } from '../src/keycloak/client';
import { createIdentityService } from '../src/service';

/** The real local infrastructure (CONVENTIONS defaults; override with the environment). */
export const INFRA = {
  KEYCLOAK_URL: process.env.KEYCLOAK_URL ?? 'http://127.0.0.1:8081',
  MONGO_URL: process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017',
  NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  SMTP_URL: process.env.SMTP_URL ?? 'smtp://127.0.0.1:1025',
  MAILDEV_URL: process.env.MAILDEV_URL ?? 'http://127.0.0.1:1080',
};

export const log = createLogger('identity-test', process.env.TEST_LOG_LEVEL ?? 'silent');
export const unique = (prefix: string) => `${prefix}${randomBytes(4).toString('hex')}`;
export const ADMIN_PASSWORD = process.env.ADMIN_PASSWORD ?? 'Admin@12345';

/** A clock the test moves forward instead of waiting. */
export function testClock() {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance(ms: number) {
      offsetMs += ms;
    },
  };
}

export type IdentityClient = ReturnType<typeof identityClient>;
export function identityClient(address: string) {
  return createClient('qm.identity.v1.IdentityService', identityV1.IdentityServiceService, address);
}

/** A port nobody listens on right now (the platform's port schema refuses GRPC_PORT=0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** The real identity service in-process, on its own test database. */
export async function startIdentity(clock?: () => Date) {
  const db = unique('qm_test_identity_');
  const running = await startService(createIdentityService({ clock }), {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    GRPC_PORT: String(await freePort()),
    MONGO_URL: INFRA.MONGO_URL,
    MONGO_DB: db,
    NATS_URL: INFRA.NATS_URL,
    KEYCLOAK_URL: INFRA.KEYCLOAK_URL,
    SMTP_URL: INFRA.SMTP_URL,
    ADMIN_PASSWORD,
    SWEEP_INTERVAL_MS: '3600000',
  });
  const address = `127.0.0.1:${running.port}`;
  const client = identityClient(address);
  const kc = new KeycloakClient({
    url: INFRA.KEYCLOAK_URL,
    realm: 'quartermaster',
    clientId: 'qm-identity',
    clientSecret: process.env.KEYCLOAK_CLIENT_SECRET ?? 'qm-identity-dev-secret',
    webClientId: 'qm-web',
    log,
  });
  const created: string[] = [];
  return {
    running,
    address,
    client,
    kc,
    db,
    /** Usernames to remove from Keycloak at the end. */
    track: (username: string) => created.push(username),
    async stop() {
      for (const name of created) {
        const u = await kc.findByUsername(name).catch(() => undefined);
        if (u) await kc.deleteUser(u.id).catch(() => undefined);
      }
      client.close();
      await running.rt.conn.dropDatabase().catch(() => undefined);
      await running.stop();
    },
  };
}

/** Runs a call as a signed-in caller (the metadata the gateway would send). */
export function as<T>(caller: Caller | undefined, fn: () => Promise<T>): Promise<T> {
  return runWithContext({ requestId: newRequestId(), caller }, fn);
}

export const callerOf = (u: identityV1.User): Caller => ({
  userId: u.id,
  username: u.username,
  roles: [roles.fromProto(u.role)].filter((r) => r !== undefined),
});

/** Events as they go over NATS (a core subscription sees what JetStream stores). */
export function collectEvents(running: { rt: { bus: EventBus } }, subject: string) {
  const seen: { subject: string; event: EventEnvelope }[] = [];
  const stop = running.rt.bus.listen(subject, (event, s) => seen.push({ subject: s, event }));
  return { seen, stop };
}

export async function eventually<T>(
  fn: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== null && v !== false) return v;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 150));
  }
}

// ---- maildev (REST API: GET /email, DELETE /email/:id) ------------------------------------------

export interface Mail {
  id: string;
  subject: string;
  text: string;
  html: string;
  to: { address: string }[];
  time: string;
}

export async function mailsTo(address: string): Promise<Mail[]> {
  const res = await fetch(`${INFRA.MAILDEV_URL}/email`);
  const all = (await res.json()) as Mail[];
  return all.filter((m) => m.to.some((t) => t.address.toLowerCase() === address.toLowerCase()));
}

/** Waits for a mail to `address` whose subject matches, newest first. */
export async function waitForMail(address: string, subject: RegExp, after = 0): Promise<Mail> {
  return eventually(async () => {
    const list = (await mailsTo(address)).filter(
      (m) => subject.test(m.subject) && Date.parse(m.time) >= after,
    );
    return list.sort((a, b) => Date.parse(b.time) - Date.parse(a.time))[0];
  });
}

export const codeIn = (mail: Mail) => /\b(\d{6})\b/.exec(mail.text)?.[1] ?? '';

export async function deleteMailsTo(address: string): Promise<void> {
  for (const m of await mailsTo(address))
    await fetch(`${INFRA.MAILDEV_URL}/email/${m.id}`, { method: 'DELETE' }).catch(() => undefined);
}

/** Registers through the service and returns the user; `approve` makes it approved by the given admin. */
export function registration(prefix: string, role: 'Army' | 'Manufacturer' = 'Army') {
  const username = unique(prefix);
  return {
    username,
    password: 'Secret#123',
    email: `${username.toLowerCase()}@example.test`,
    firstName: 'Test',
    lastName: role === 'Army' ? 'Soldier' : 'Maker',
    phoneNumber: '+91 98765 43210',
    role: role === 'Army' ? identityV1.Role.ROLE_ARMY : identityV1.Role.ROLE_MANUFACTURER,
  };
}
