import { generateKeyPairSync } from 'node:crypto';
import {
  ASSERTION_ISSUER,
  type Caller,
  callerVerifyKey,
  createCallerSigner,
  createCallerVerifier,
  DEV_CALLER_SIGNING_KEY,
  DEV_CALLER_VERIFY_KEY,
  signingKeyFrom,
  verifyKeyFrom,
} from '../src';

const caller: Caller = { userId: 42, username: 'asha', roles: ['Army'] };
const signingKey = signingKeyFrom(DEV_CALLER_SIGNING_KEY);
const verifyKey = verifyKeyFrom(DEV_CALLER_VERIFY_KEY);
const T0 = Date.UTC(2026, 10, 27, 12);

function clock(start = T0) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('caller assertions', () => {
  it('name the caller for the audience they were signed for', async () => {
    const token = await createCallerSigner(signingKey).assertionFor(caller, 'wallet');
    const v = await createCallerVerifier(verifyKey).verify(token, { self: 'wallet' });
    expect(v.caller).toEqual(caller);
    expect(v.audience).toBe('wallet');
  });

  it('are refused by another service, unless that audience is the proven relaying service', async () => {
    const token = await createCallerSigner(signingKey).assertionFor(caller, 'orders');
    const verifier = createCallerVerifier(verifyKey);
    await expect(verifier.verify(token, { self: 'wallet' })).rejects.toMatchObject({ code: 16 });
    await expect(verifier.verify(token, { self: 'wallet', via: 'catalog' })).rejects.toMatchObject({
      code: 16,
    });
    await expect(verifier.verify(token, { self: 'wallet', via: 'orders' })).resolves.toMatchObject({
      caller,
    });
  });

  it('are refused when signed with another key', async () => {
    const other = generateKeyPairSync('ed25519').privateKey;
    const token = await createCallerSigner(other).assertionFor(caller, 'wallet');
    await expect(createCallerVerifier(verifyKey).verify(token, { self: 'wallet' })).rejects.toMatchObject({
      code: 16,
      message: 'The caller assertion is missing, invalid or expired',
    });
  });

  it('expire after 60 s, also once verified and remembered', async () => {
    const c = clock();
    const token = await createCallerSigner(signingKey, c.now).assertionFor(caller, 'wallet');
    const verifier = createCallerVerifier(verifyKey, c.now);
    await expect(verifier.verify(token, { self: 'wallet' })).resolves.toBeDefined();
    c.advance(66_000);
    await expect(verifier.verify(token, { self: 'wallet' })).rejects.toMatchObject({ code: 16 });
    await expect(
      createCallerVerifier(verifyKey, c.now).verify(token, { self: 'wallet' }),
    ).rejects.toMatchObject({ code: 16 });
  });

  it('are reused for 30 s per user, roles and audience, then signed anew', async () => {
    const c = clock();
    const signer = createCallerSigner(signingKey, c.now);
    const first = await signer.assertionFor(caller, 'wallet');
    c.advance(29_000);
    expect(await signer.assertionFor(caller, 'wallet')).toBe(first);
    expect(await signer.assertionFor(caller, 'orders')).not.toBe(first);
    expect(await signer.assertionFor({ ...caller, roles: ['Admin'] }, 'wallet')).not.toBe(first);
    c.advance(2_000);
    expect(await signer.assertionFor(caller, 'wallet')).not.toBe(first);
  });

  it('refuse tampered claims, other algorithms, other issuers and long lifetimes', async () => {
    const verifier = createCallerVerifier(verifyKey);
    const token = await createCallerSigner(signingKey).assertionFor(caller, 'wallet');
    const [h, p, s] = token.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...payload, roles: ['Admin'] })).toString('base64url');
    const none = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    const iat = Math.floor(Date.now() / 1000);
    const { SignJWT } = await import('jose'); // ESM-only (see caller-assertion.ts)
    const sign = (claims: Record<string, unknown>, iss = ASSERTION_ISSUER, exp = iat + 60) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'EdDSA' })
        .setIssuer(iss)
        .setSubject('42')
        .setAudience('wallet')
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(signingKey);
    for (const bad of [
      `${h}.${forged}.${s}`,
      `${none}.${p}.`,
      `${h}.${p}`,
      'not-a-token',
      await sign({ username: 'asha', roles: ['Army'] }, 'someone-else'),
      await sign({ username: 'asha', roles: ['Army'] }, ASSERTION_ISSUER, iat + 3600),
      await sign({ username: '', roles: ['Army'] }),
      await sign({ username: 'asha', roles: 'Admin' }),
    ])
      await expect(verifier.verify(bad, { self: 'wallet' })).rejects.toMatchObject({ code: 16 });
  });

  it('keys: production needs CALLER_VERIFY_KEY; elsewhere the development key is used', () => {
    expect(() => callerVerifyKey('production', undefined)).toThrow(
      /CALLER_VERIFY_KEY: required in production/,
    );
    expect(callerVerifyKey('development', undefined).equals(verifyKey)).toBe(true);
    const other = generateKeyPairSync('ed25519').publicKey;
    const pem = String(other.export({ type: 'spki', format: 'pem' }));
    expect(callerVerifyKey('production', pem).equals(other)).toBe(true);
  });

  it('keys: a service refuses the private key; both accept PEM or JWK', () => {
    expect(() => verifyKeyFrom(DEV_CALLER_SIGNING_KEY)).toThrow(/private key; services take the public key/);
    const jwk = JSON.stringify(signingKey.export({ format: 'jwk' }));
    expect(() => verifyKeyFrom(jwk)).toThrow(/private key/);
    expect(signingKeyFrom(jwk).asymmetricKeyType).toBe('ed25519');
    const publicJwk = JSON.stringify(verifyKey.export({ format: 'jwk' }));
    expect(verifyKeyFrom(publicJwk).asymmetricKeyType).toBe('ed25519');
    expect(() => signingKeyFrom('nonsense')).toThrow(/CALLER_SIGNING_KEY: not a private key/);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
      type: 'spki',
      format: 'pem',
    });
    expect(() => verifyKeyFrom(String(ec))).toThrow(/must be an Ed25519 key/);
  });
});
