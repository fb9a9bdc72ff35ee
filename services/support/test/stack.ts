import { type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { type RunningService, startService } from '@qm/platform';
import { eventually, freePort, INFRA, serviceTestEnv, uniqueName } from '@qm/testkit';
import { startServiceProcess } from '@qm/testkit/src/process';
import {
  ADMIN_PASSWORD,
  Browser,
  type Registered,
  registerUser,
  type Stack,
  startIdentityStack,
} from '@qm/testkit/src/identity-stack';
import { supportService } from '../src/service';

/**
 * The support path for real: a gateway with real sessions, identity (with Keycloak) for the
 * administrator and an Army user, and support on its own fresh database of the local FerretDB and
 * NATS, mailing through the local maildev. `asProcess`: support runs as a child process a test may
 * kill and start again.
 */
export interface SupportStack {
  stack: Stack;
  admin: Browser;
  /** An approved, signed-in Army user. */
  army: { who: Registered; as: Browser };
  /** An anonymous visitor. */
  visitor: Browser;
  db: string;
  /** The support service's events prefix (a listener on the bus hears its events with it). */
  eventsPrefix: string;
  /** The in-process service (not with asProcess). */
  support?: RunningService<unknown>;
  /** SIGKILLs the support process (asProcess only). */
  kill(): Promise<void>;
  /** Starts the support process again on its port and database; `env` adds to its environment. */
  start(env?: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
}

export async function startSupportStack(
  opts: { asProcess?: boolean; gateway?: Record<string, string> } = {},
) {
  const port = await freePort();
  const db = uniqueName('qm_test_support');
  const stack = await startIdentityStack({
    gateway: {
      SUPPORT_GRPC_ADDR: `127.0.0.1:${port}`,
      AUTH_RATE_LIMIT_SCALE: '1000',
      ...opts.gateway,
    },
  });
  const env = serviceTestEnv(db, {
    GRPC_PORT: String(port),
    SMTP_URL: INFRA.SMTP_URL,
    SUPPORT_REPLY_MAIL_DURABLE: uniqueName('support_test_mail'),
    // One environment across restarts of the process (else its pid names it).
    EVENTS_PREFIX: uniqueName('test-support', '-'),
    OUTBOX_RELAY_MS: '300',
    OUTBOX_GRACE_MS: '1000',
  });
  let support: RunningService<unknown> | undefined;
  let child: ChildProcess | undefined;
  const start = async (extra: Record<string, string> = {}) => {
    // `info`: startServiceProcess waits for the service's "ready" line.
    child = await startServiceProcess('support', { ...env, LOG_LEVEL: 'info', ...extra });
  };
  const kill = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const dead = once(c, 'exit');
    c.kill('SIGKILL');
    await dead;
  };
  if (opts.asProcess) await start();
  else support = (await startService(supportService, env)) as RunningService<unknown>;

  const admin = new Browser(stack.url);
  if ((await admin.login('admin', ADMIN_PASSWORD, 'admin')).status !== 200)
    throw new Error('admin sign-in failed');
  const who = await registerUser(stack, 'SupArmy', 'Army', admin);
  const as = new Browser(stack.url);
  if ((await as.login(who.username, who.password)).status !== 200) throw new Error('army sign-in failed');

  const s: SupportStack = {
    stack,
    admin,
    army: { who, as },
    visitor: new Browser(stack.url),
    db,
    eventsPrefix: env.EVENTS_PREFIX!,
    support,
    kill,
    start,
    async stop() {
      await kill();
      if (support) {
        await support.rt.conn.dropDatabase().catch(() => undefined);
        await support.stop().catch(() => undefined);
      }
      await stack.stop();
    },
  };
  return s;
}

/** A contact-form body with an address nobody else uses (its mails are this test's alone). */
export function contactForm(overrides: Record<string, unknown> = {}) {
  const name = uniqueName('asker', '');
  return {
    fullName: 'Asha Rao',
    email: `${name}@example.test`,
    subject: `Delivery of order ${name}`,
    message: 'My order has not arrived yet. Could you look into it?',
    ...overrides,
  };
}

/**
 * A request through the gateway, repeated while it answers 503: after a restart the gateway's
 * client reconnects with back-off, and a request may land before it has.
 */
export async function once503Gone<R extends { status: number }>(request: () => Promise<R>): Promise<R> {
  return eventually(async () => {
    const res = await request();
    return res.status === 503 ? undefined : res;
  });
}
