import type { KeyObject } from 'node:crypto';
import { z } from 'zod';
import {
  chooseStoreEngine,
  ConfigError,
  DEV_CALLER_SIGNING_KEY,
  parseConfig,
  port,
  serviceEnv,
  signingKeyFrom,
  type StoreEngineChoice,
  storeEngineEnv,
  tracingEnv,
} from '@qm/platform';
import { SERVICE_NAMES, type ServiceName } from '@qm/roster';
import type { AdmissionLimits } from './admission';

// host:port, the replicas' host:port,host:port, or dns:///name:port for every address of a name
// (docs/adr/025).
const grpcAddr = z
  .string()
  .regex(
    /^(dns:\/\/\/[\w.-]+:\d{1,5}|[\w.-]+:\d{1,5}(,[\w.-]+:\d{1,5})*)$/,
    'must be host:port, a comma-separated list of them, or dns:///name:port',
  )
  .optional();

const proxyAddress = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()], {
  error: (iss) => `"${String(iss.input)}" is not an IP address or CIDR`,
});

/**
 * The proxies whose X-Forwarded-For the gateway believes: comma-separated addresses or CIDRs, or
 * "none". Unset: loopback outside production (the local stack), nobody in production.
 */
const trustedProxies = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return undefined;
    const items = v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (items.length === 1 && items[0] === 'none') return [];
    for (const item of items) {
      const r = proxyAddress.safeParse(item);
      if (!r.success) ctx.addIssue({ code: 'custom', message: r.error.issues[0]!.message });
    }
    return items;
  });

/** Every service of the roster may be configured by `<NAME>_GRPC_ADDR`. */
export const gatewayEnv = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PORT: port(8080),
  /** GET /metrics (Prometheus) is served here only, never on PORT, which the ingress routes. */
  METRICS_PORT: port(9464),
  TRUSTED_PROXIES: trustedProxies,
  PUBLIC_URL: z.url().default('http://localhost:8080'),
  GRPC_DEADLINE_MS: z.coerce.number().int().min(50).max(60000).default(5000),
  /**
   * Admission control per service (docs/adr/026): calls at once, calls waiting for a slot, and how
   * long one may wait before it is refused with 503 and Retry-After.
   */
  ADMISSION_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(10000).default(8),
  ADMISSION_MAX_WAITING: z.coerce.number().int().min(0).max(100000).default(64),
  ADMISSION_MAX_WAIT_MS: z.coerce.number().int().min(0).max(60000).default(1000),
  FRONTEND_DIST: z.string().optional(),
  FRONTEND_DEV: z
    .enum(['0', '1', 'true', 'false'])
    .default('0')
    .transform((v) => v === '1' || v === 'true'),
  MONGO_URL: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// URL')
    .default('mongodb://127.0.0.1:27017'),
  MONGO_DB: z.string().min(1).default('qm_gateway'),
  /** The store engine of the gateway's database (docs/adr/024). */
  ...storeEngineEnv,
  NATS_URL: z
    .string()
    .regex(/^(nats|tls):\/\//, 'must be a nats:// URL')
    .default('nats://127.0.0.1:4222'),
  /** The environment's prefix on NATS (CONVENTIONS); the gateway follows identity's sessions_revoked events. */
  EVENTS_PREFIX: serviceEnv.EVENTS_PREFIX,
  /** OpenTelemetry export (docs/adr/016-traces.md): off unless an endpoint is set. */
  ...tracingEnv,
  /** Keys the hash of session ids at rest; at least 32 characters; required in production. */
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * Signs the caller assertion of each call to a service (docs/adr/021): an Ed25519 private key,
   * PKCS#8 PEM or JWK. The gateway alone holds it; required in production.
   */
  CALLER_SIGNING_KEY: z.string().min(1).optional(),
  /** Absolute lifetime of a session (Keycloak's idle and max limits also apply). */
  SESSION_MAX_AGE_S: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 24 * 3600)
    .default(36000),
  /** How long a resolved session is reused before it is read again (0 disables the cache). */
  SESSION_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  SESSION_SWEEP_INTERVAL_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  /** Keycloak as the browser reaches it, for keycloak-js ("Sign in with SSO"). */
  KEYCLOAK_PUBLIC_URL: z.url().default('http://localhost:8081'),
  KEYCLOAK_REALM: z.string().min(1).default('quartermaster'),
  KEYCLOAK_WEB_CLIENT_ID: z.string().min(1).default('qm-web'),
  /** Multiplies the per-client limits of sign-in, registration, username checks, code endpoints, the contact form and the chat (load tests). */
  AUTH_RATE_LIMIT_SCALE: z.coerce.number().min(1).max(100_000).default(1),
  ...Object.fromEntries(SERVICE_NAMES.map((n) => [`${n.toUpperCase()}_GRPC_ADDR`, grpcAddr])),
} as const;

/** The gateway's environment as validated (defaults applied). */
export type GatewayEnv = z.infer<z.ZodObject<typeof gatewayEnv>>;

/** The gateway's configuration: its environment, and what is derived from it once at start. */
export interface GatewayConfig extends Omit<GatewayEnv, 'SESSION_SECRET' | 'TRUSTED_PROXIES'> {
  /** The configured services' gRPC addresses; a missing one is a service answered with 503. */
  services: Record<ServiceName, string>;
  /** SESSION_SECRET, or the development one outside production. */
  SESSION_SECRET: string;
  /** TRUSTED_PROXIES, or its default: loopback outside production, nobody in production. */
  TRUSTED_PROXIES: string[];
  /** CALLER_SIGNING_KEY, or the committed development key outside production (docs/adr/021). */
  callerSigningKey: KeyObject;
  /** Chosen once, here (docs/adr/024). */
  storeEngine: StoreEngineChoice;
  /** Per service (docs/adr/026). */
  admission: AdmissionLimits;
}

export function parseGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const c = parseConfig(gatewayEnv, env);
  // Only the configured ones: a missing key is a service the gateway answers 503 for.
  const services: Record<ServiceName, string> = {};
  for (const n of SERVICE_NAMES) {
    const addr = (c as Record<string, unknown>)[`${n.toUpperCase()}_GRPC_ADDR`];
    if (typeof addr === 'string') services[n] = addr;
  }
  return {
    ...c,
    services,
    SESSION_SECRET: sessionSecret(c.NODE_ENV, c.SESSION_SECRET),
    TRUSTED_PROXIES: c.TRUSTED_PROXIES ?? (c.NODE_ENV === 'production' ? [] : LOOPBACK),
    callerSigningKey: callerSigningKey(c.NODE_ENV, c.CALLER_SIGNING_KEY),
    storeEngine: chooseStoreEngine(c),
    admission: {
      maxInFlight: c.ADMISSION_MAX_IN_FLIGHT,
      maxWaiting: c.ADMISSION_MAX_WAITING,
      maxWaitMs: c.ADMISSION_MAX_WAIT_MS,
      retryAfterSeconds: 1,
    },
  };
}

function callerSigningKey(nodeEnv: string, key: string | undefined) {
  if (!key && nodeEnv === 'production')
    throw new ConfigError('Invalid configuration:\n  CALLER_SIGNING_KEY: required in production');
  // The committed development key (packages/platform/src/grpc/dev-caller-keys.json): not for production.
  return signingKeyFrom(key ?? DEV_CALLER_SIGNING_KEY);
}

const LOOPBACK = ['127.0.0.1/8', '::1/128'];

const DEV_SESSION_SECRET = 'qm-development-session-secret-not-for-production';

function sessionSecret(nodeEnv: string, secret: string | undefined): string {
  if (secret) return secret;
  if (nodeEnv === 'production')
    throw new ConfigError('Invalid configuration:\n  SESSION_SECRET: required in production');
  return DEV_SESSION_SECRET;
}
