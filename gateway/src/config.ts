import { z } from 'zod';
import { parseConfig, port } from '@qm/platform';

/** The services the gateway may talk to; each is configured by `<NAME>_GRPC_ADDR`. */
export const SERVICE_NAMES = [
  'identity',
  'catalog',
  'wallet',
  'orders',
  'support',
  'activity',
  'assistant',
  'notifications',
] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

const grpcAddr = z
  .string()
  .regex(/^[\w.-]+:\d{1,5}$/, 'must be host:port')
  .optional();

export const gatewayEnv = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PORT: port(8080),
  PUBLIC_URL: z.url().default('http://localhost:8080'),
  GRPC_DEADLINE_MS: z.coerce.number().int().min(50).max(60000).default(5000),
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
  NATS_URL: z
    .string()
    .regex(/^(nats|tls):\/\//, 'must be a nats:// URL')
    .default('nats://127.0.0.1:4222'),
  ...Object.fromEntries(SERVICE_NAMES.map((n) => [`${n.toUpperCase()}_GRPC_ADDR`, grpcAddr])),
} as const;

export type GatewayConfig = ReturnType<typeof parseGatewayConfig>;

export function parseGatewayConfig(env: NodeJS.ProcessEnv = process.env) {
  const c = parseConfig(gatewayEnv, env);
  const services: Partial<Record<ServiceName, string>> = {};
  for (const n of SERVICE_NAMES) {
    const addr = (c as Record<string, unknown>)[`${n.toUpperCase()}_GRPC_ADDR`];
    if (typeof addr === 'string') services[n] = addr;
  }
  return { ...c, services };
}
