import { randomBytes } from 'node:crypto';
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

/** A port nobody listens on right now (the platform's port schema refuses GRPC_PORT=0 in some places). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}
