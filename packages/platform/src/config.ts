import { z } from 'zod';
import { DEFAULT_POOL_SIZE } from './mongo';
import { StoreEngineConfigError, storeEngineEnv } from './store/engine/choose';
import { tracingEnv } from './tracing/setup';

/** An environment's name on a shared NATS server: it goes into subjects, streams and durables. */
export const EVENTS_PREFIX_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** Variables every service shares; a service extends this with its own. */
export const serviceEnv = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MONGO_URL: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// URL')
    .default('mongodb://127.0.0.1:27017'),
  MONGO_MAX_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(DEFAULT_POOL_SIZE),
  /** Which store engine the database runs on, and what it needs (docs/adr/024). */
  ...storeEngineEnv,
  NATS_URL: z
    .string()
    .regex(/^(nats|tls):\/\//, 'must be a nats:// URL')
    .default('nats://127.0.0.1:4222'),
  /** Prefixes every stream, subject and durable, so environments can share one NATS server (see eventsPrefix). */
  EVENTS_PREFIX: z
    .string()
    .regex(EVENTS_PREFIX_PATTERN, 'lower-case letters, digits, - and _ (at most 32)')
    .optional(),
  /**
   * Secret shared by the internal services to prove their identity to each other (docs/adr/005).
   * Unset: this service accepts no service identity (calls reserved to a service are refused).
   */
  INTERNAL_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * The gateway's public key for caller assertions (docs/adr/021): SPKI or certificate PEM, or a
   * JWK. Required in production; elsewhere the committed development key (not for production).
   */
  CALLER_VERIFY_KEY: z.string().min(1).optional(),
  /**
   * Address the gRPC server binds. Unset: 127.0.0.1 (loopback only), or 0.0.0.0 in production
   * (the chart sets it explicitly).
   */
  GRPC_HOST: z.string().min(1).optional(),
  /**
   * Database health (docs/adr/015): the service pings its database every DB_CHECK_EVERY_MS; after
   * DB_UNREADY_AFTER_MS of failures it is not ready, and after DB_STUCK_AFTER_MS, if a new
   * connection reaches the database, its own client is stuck and the process exits (to be restarted).
   */
  DB_CHECK_EVERY_MS: z.coerce.number().int().min(100).default(5000),
  DB_UNREADY_AFTER_MS: z.coerce.number().int().min(0).default(10_000),
  DB_STUCK_AFTER_MS: z.coerce.number().int().min(0).default(30_000),
  /** OpenTelemetry export (docs/adr/016-traces.md): off unless an endpoint is set. */
  ...tracingEnv,
};

/** A TCP port; 0 asks the system for a free one (tests). */
export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

export class ConfigError extends Error {}

/**
 * Reads and validates configuration from the environment. A missing or malformed variable is a
 * startup error naming the variable, never a surprise at the first request.
 */
export function parseConfig<S extends z.ZodRawShape>(
  shape: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<z.ZodObject<S>> {
  const result = z.object(shape).safeParse(env);
  if (result.success) return result.data;
  const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

/** For process entry points: a configuration error is printed and ends the process with status 1. */
export function exitOnConfigError<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof ConfigError || err instanceof StoreEngineConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/** parseConfig for process entry points (see exitOnConfigError). */
export function loadConfig<S extends z.ZodRawShape>(shape: S): z.infer<z.ZodObject<S>> {
  return exitOnConfigError(() => parseConfig(shape));
}
