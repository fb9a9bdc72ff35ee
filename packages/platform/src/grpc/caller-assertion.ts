import { createPrivateKey, createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { Caller } from '../context';
import { ConfigError } from '../config';
import { unauthenticated } from '../errors';
import devKeys from './dev-caller-keys.json';

/**
 * Signed caller identity (docs/adr/021-signed-caller-identity.md). The gateway, alone holding the
 * private key, signs a short-lived JWT (EdDSA) naming the signed-in user for the service it calls
 * (aud); every service verifies it with the public key before a handler sees a caller. A service
 * acting for that user relays the same token unchanged with its own service proof (ADR 005), and
 * the callee accepts it when aud is itself or the proven calling service.
 */
export const MD_CALLER = 'x-qm-caller';
export const ASSERTION_ISSUER = 'qm-gateway';
/** Lifetime of an assertion. */
export const ASSERTION_TTL_S = 60;
/** How long the gateway reuses one assertion for the same user, roles and audience. */
export const ASSERTION_REUSE_MS = 30_000;
const ALG = 'EdDSA';
/** Clock skew allowed between the gateway and a service. */
const CLOCK_TOLERANCE_S = 5;
/** Entries kept by the signer's and the verifier's caches. */
const CACHE_MAX = 10_000;

/** The committed development pair: published, so refused in production (config.ts requires keys there). */
export const DEV_CALLER_SIGNING_KEY: string = devKeys.signingKey;
export const DEV_CALLER_VERIFY_KEY: string = devKeys.verifyKey;

/**
 * jose is ESM-only and this code is CommonJS (tsconfig module node16): a dynamic import, loaded
 * once. Node (>= 20.19), tsx, esbuild and jest (which transforms jose, jest.config.js) all load it.
 */
const loadJose = () => import('jose');
let joseModule: ReturnType<typeof loadJose> | undefined;
const jose = () => (joseModule ??= loadJose());

const isJson = (text: string) => text.trimStart().startsWith('{');

function ed25519(key: KeyObject, variable: string): KeyObject {
  if (key.asymmetricKeyType !== 'ed25519')
    throw new ConfigError(`Invalid configuration:\n  ${variable}: must be an Ed25519 key`);
  return key;
}

/** CALLER_SIGNING_KEY: an Ed25519 private key, PKCS#8 PEM or JWK (JSON). */
export function signingKeyFrom(text: string, variable = 'CALLER_SIGNING_KEY'): KeyObject {
  try {
    return ed25519(
      isJson(text)
        ? createPrivateKey({ key: JSON.parse(text) as JsonWebKey, format: 'jwk' })
        : createPrivateKey(text),
      variable,
    );
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`Invalid configuration:\n  ${variable}: not a private key (PKCS#8 PEM or JWK)`);
  }
}

/**
 * CALLER_VERIFY_KEY: an Ed25519 public key, SPKI PEM, a certificate PEM holding it (what the chart
 * makes), or a public JWK. Private key material is refused: a service must never hold it.
 */
export function verifyKeyFrom(text: string, variable = 'CALLER_VERIFY_KEY'): KeyObject {
  const privateMaterial = isJson(text)
    ? (JSON.parse(text) as JsonWebKey).d !== undefined
    : /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text);
  if (privateMaterial)
    throw new ConfigError(
      `Invalid configuration:\n  ${variable}: is a private key; services take the public key only`,
    );
  try {
    return ed25519(
      isJson(text)
        ? createPublicKey({ key: JSON.parse(text) as JsonWebKey, format: 'jwk' })
        : createPublicKey(text),
      variable,
    );
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(
      `Invalid configuration:\n  ${variable}: not a public key (SPKI PEM, certificate PEM or JWK)`,
    );
  }
}

/** A service's CALLER_VERIFY_KEY: required in production, else the development key. */
export function callerVerifyKey(nodeEnv: string, text: string | undefined): KeyObject {
  if (!text && nodeEnv === 'production')
    throw new ConfigError('Invalid configuration:\n  CALLER_VERIFY_KEY: required in production');
  return verifyKeyFrom(text ?? DEV_CALLER_VERIFY_KEY);
}

/** A small map that forgets its oldest entry when full (insertion order). */
function boundedSet<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= CACHE_MAX) map.delete(map.keys().next().value!);
  map.set(key, value);
}

export interface CallerSigner {
  /** A token naming `caller` for the service `audience`; reused while young enough. */
  assertionFor(caller: Caller, audience: string): Promise<string>;
}

/** The gateway's signer. `now` is for tests. */
export function createCallerSigner(key: KeyObject, now: () => number = Date.now): CallerSigner {
  const cache = new Map<string, { token: string; at: number }>();
  return {
    async assertionFor(caller, audience) {
      const cacheKey = JSON.stringify([caller.userId, caller.username, caller.roles, audience]);
      const at = now();
      const hit = cache.get(cacheKey);
      if (hit && at - hit.at < ASSERTION_REUSE_MS) return hit.token;
      const iat = Math.floor(at / 1000);
      const { SignJWT } = await jose();
      const token = await new SignJWT({ username: caller.username, roles: caller.roles })
        .setProtectedHeader({ alg: ALG, typ: 'JWT' })
        .setIssuer(ASSERTION_ISSUER)
        .setSubject(String(caller.userId))
        .setAudience(audience)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ASSERTION_TTL_S)
        .sign(key);
      cache.delete(cacheKey);
      boundedSet(cache, cacheKey, { token, at });
      return token;
    },
  };
}

export interface VerifiedAssertion {
  caller: Caller;
  /** The service it was issued to. */
  audience: string;
  /** Expiry, ms since the epoch. */
  expiresAt: number;
}

export interface CallerVerifier {
  /**
   * The caller named by `token` when it is valid and meant for `self`, or for `via` (the calling
   * service proven by its HMAC, relaying its caller); UNAUTHENTICATED otherwise.
   */
  verify(token: string, audiences: { self: string; via?: string }): Promise<VerifiedAssertion>;
}

const refused = () => unauthenticated('The caller assertion is missing, invalid or expired');

function callerOf(payload: Record<string, unknown>): Caller | undefined {
  const userId = Number(payload.sub);
  const { username, roles } = payload;
  if (!Number.isSafeInteger(userId) || userId <= 0 || String(userId) !== payload.sub) return undefined;
  if (typeof username !== 'string' || username.length === 0) return undefined;
  if (!Array.isArray(roles) || !roles.every((r): r is string => typeof r === 'string')) return undefined;
  return { userId, username, roles: [...roles] };
}

/**
 * A service's verifier. Verified tokens are remembered until they expire, so a token reused by the
 * gateway costs one signature check per service, not one per call.
 */
export function createCallerVerifier(key: KeyObject, now: () => number = Date.now): CallerVerifier {
  const cache = new Map<string, VerifiedAssertion>();
  const accept = (v: VerifiedAssertion, { self, via }: { self: string; via?: string }) => {
    if (v.expiresAt + CLOCK_TOLERANCE_S * 1000 <= now()) throw refused();
    if (v.audience !== self && (via === undefined || v.audience !== via)) throw refused();
    return { ...v, caller: { ...v.caller, roles: [...v.caller.roles] } };
  };
  return {
    async verify(token, audiences) {
      const hit = cache.get(token);
      if (hit && hit.expiresAt + CLOCK_TOLERANCE_S * 1000 <= now()) cache.delete(token);
      else if (hit) return accept(hit, audiences);
      let verified: VerifiedAssertion;
      try {
        const { jwtVerify } = await jose();
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALG],
          issuer: ASSERTION_ISSUER,
          requiredClaims: ['sub', 'aud', 'iat', 'exp'],
          maxTokenAge: ASSERTION_TTL_S + CLOCK_TOLERANCE_S,
          clockTolerance: CLOCK_TOLERANCE_S,
          currentDate: new Date(now()),
        });
        const caller = callerOf(payload);
        if (!caller || typeof payload.aud !== 'string') throw refused();
        // Never longer-lived than the gateway issues them, whatever exp says.
        if (payload.exp! - payload.iat! > ASSERTION_TTL_S) throw refused();
        verified = { caller, audience: payload.aud, expiresAt: payload.exp! * 1000 };
      } catch {
        throw refused();
      }
      boundedSet(cache, token, verified);
      return accept(verified, audiences);
    },
  };
}
