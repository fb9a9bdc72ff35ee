import { z } from 'zod';

/** Identity's own environment (CONVENTIONS "Environment variables"), on top of the common service variables. */
export const identityEnv = {
  KEYCLOAK_URL: z.url().default('http://127.0.0.1:8081'),
  KEYCLOAK_REALM: z.string().min(1).default('quartermaster'),
  /** The confidential client: direct grants, token introspection, and a service account managing users. */
  KEYCLOAK_CLIENT_ID: z.string().min(1).default('qm-identity'),
  /** Required in production; the realm file's development secret otherwise. */
  KEYCLOAK_CLIENT_SECRET: z.string().min(1).optional(),
  /** The public client keycloak-js uses for "Sign in with SSO"; SSO tokens must have been issued to it. */
  KEYCLOAK_WEB_CLIENT_ID: z.string().min(1).default('qm-web'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .default('smtp://127.0.0.1:1025'),
  MAIL_FROM: z.string().min(3).default('Quartermaster <no-reply@quartermaster.local>'),
  /** Links in emails point here. */
  PUBLIC_URL: z.url().default('http://localhost:8080'),
  /** The seeded administrator's password; required in production, Admin@12345 in development and test. */
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  ADMIN_EMAIL: z.email().default('admin@quartermaster.local'),
  /** How often expired codes are swept and half-finished registrations and decisions are completed. */
  SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
};

export const DEV_ADMIN_PASSWORD = 'Admin@12345';
export const DEV_CLIENT_SECRET = 'qm-identity-dev-secret';
