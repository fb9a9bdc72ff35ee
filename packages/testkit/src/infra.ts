import { randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { createLogger, storeEngineOfStack, storeEngineVariables } from '@qm/platform';

/**
 * The real local infrastructure the integration tests talk to (scripts/ci-test.mjs starts it and
 * sets these; the defaults are CONVENTIONS' local ports).
 */
export const INFRA = {
  MONGO_URL: process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017',
  /**
   * The store engine the tests run on (docs/adr/024): the local stack's, or with
   * QM_STORE_ENGINE=mongodb the MongoDB API alone, as the Helm chart runs it.
   */
  STORE_ENGINE: storeEngineOfStack(),
  NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  KEYCLOAK_URL: process.env.KEYCLOAK_URL ?? 'http://127.0.0.1:8081',
  SMTP_URL: process.env.SMTP_URL ?? 'smtp://127.0.0.1:1025',
  MAILDEV_URL: process.env.MAILDEV_URL ?? 'http://127.0.0.1:1080',
};

export const TEST_LOG_LEVEL = process.env.TEST_LOG_LEVEL ?? 'silent';

/** A logger for test code, silent unless TEST_LOG_LEVEL says otherwise. */
export const testLog = (name = 'test') => createLogger(name, TEST_LOG_LEVEL);

/**
 * The common environment of a service started in-process with startService: the local
 * infrastructure and the store engine, as in the stack. `env` adds the service's own variables and wins.
 */
export function serviceTestEnv(db: string, env: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: TEST_LOG_LEVEL,
    MONGO_URL: INFRA.MONGO_URL,
    MONGO_DB: db,
    ...storeEngineVariables(INFRA.STORE_ENGINE),
    NATS_URL: INFRA.NATS_URL,
    ...(process.env.EVENTS_PREFIX ? { EVENTS_PREFIX: process.env.EVENTS_PREFIX } : {}),
    ...env,
  };
}

/** `prefix`, the separator and 8 random hex digits: names no other test or run uses. */
export const uniqueName = (prefix: string, separator = '_') =>
  `${prefix}${separator}${randomBytes(4).toString('hex')}`;

/** Polls `fn` until it returns something other than undefined, null or false. */
export async function eventually<T>(
  fn: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  timeoutMs = 15_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== null && v !== false) return v;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The first port the kernel hands to outgoing connections (Linux; its default elsewhere). */
function ephemeralPortsFrom(): number {
  try {
    const first = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
    if (Number.isInteger(first) && first > 0) return first;
  } catch {
    // not Linux: the usual range
  }
  return 32768;
}

/** `port` (0: any the kernel picks) if a listener can have it on loopback now; undefined if not. */
function listenable(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(undefined));
    srv.listen(port, '127.0.0.1', () => {
      const { port: bound } = srv.address() as AddressInfo;
      srv.close(() => resolve(bound));
    });
  });
}

/**
 * A port nobody listens on right now (the platform's port schema refuses GRPC_PORT=0 in some places),
 * taken below the kernel's range for outgoing connections: a port from that range could be handed to
 * a client's connection (to the database, NATS) before the service binds it, which failed CI once
 * with EADDRINUSE. Random, so that suites asking at once rarely draw the same one.
 */
export async function freePort(): Promise<number> {
  const below = Math.min(ephemeralPortsFrom(), 32768);
  for (let attempt = 0; below > 20_001 && attempt < 50; attempt++) {
    const port = await listenable(randomInt(20_000, below));
    if (port) return port;
  }
  const any = await listenable(0);
  if (!any) throw new Error('no port can be listened on');
  return any;
}
