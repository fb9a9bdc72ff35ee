import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Metadata } from '@grpc/grpc-js';

/**
 * Service identity between internal services (docs/adr/005-service-identity.md): a service names
 * itself in `x-qm-service` and proves it with an HMAC of that name keyed by the shared
 * INTERNAL_TOKEN. The gateway never holds the token, and it builds outgoing metadata from its
 * session only, so nothing a browser sends can become a service identity.
 */
export const MD_SERVICE = 'x-qm-service';
export const MD_SERVICE_PROOF = 'x-qm-service-proof';

/** Internal service names: lower case, e.g. "orders". */
const SERVICE_NAME = /^[a-z][a-z0-9-]{0,39}$/;

export interface ServiceIdentity {
  service: string;
  /** INTERNAL_TOKEN: the secret shared by the internal services. */
  token: string;
}

const proofOf = (service: string, token: string): Buffer =>
  createHmac('sha256', token).update(`qm-service:${service}`).digest();

/** Adds the identity of the calling service to outgoing metadata. */
export function signServiceIdentity(md: Metadata, { service, token }: ServiceIdentity): Metadata {
  if (!SERVICE_NAME.test(service)) throw new Error(`invalid service name "${service}"`);
  md.set(MD_SERVICE, service);
  md.set(MD_SERVICE_PROOF, proofOf(service, token).toString('base64url'));
  return md;
}

/**
 * The calling service's name when the metadata proves it with `token`; undefined without a token
 * configured, without an identity, or with a wrong proof (compared in constant time).
 */
export function verifyServiceIdentity(md: Metadata, token: string | undefined): string | undefined {
  const service = md.get(MD_SERVICE)[0];
  const proof = md.get(MD_SERVICE_PROOF)[0];
  if (!token || typeof service !== 'string' || typeof proof !== 'string') return undefined;
  if (!SERVICE_NAME.test(service)) return undefined;
  const expected = proofOf(service, token);
  const given = Buffer.from(proof, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected) ? service : undefined;
}
