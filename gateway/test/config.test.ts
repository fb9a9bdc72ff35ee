import { generateKeyPairSync } from 'node:crypto';
import { DEV_CALLER_SIGNING_KEY, signingKeyFrom } from '@qm/platform';
import { parseGatewayConfig } from '../src/config';

const production = { NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(32) };

/** The key that signs caller assertions (docs/adr/021). */
describe('gateway config: CALLER_SIGNING_KEY', () => {
  it('is required in production', () => {
    expect(() => parseGatewayConfig(production)).toThrow(/CALLER_SIGNING_KEY: required in production/);
  });

  it('is the given Ed25519 private key, or the development key outside production', () => {
    const key = generateKeyPairSync('ed25519').privateKey;
    const pem = String(key.export({ type: 'pkcs8', format: 'pem' }));
    const config = parseGatewayConfig({ ...production, CALLER_SIGNING_KEY: pem });
    expect(config.callerSigningKey.equals(key)).toBe(true);
    expect(parseGatewayConfig({}).callerSigningKey.equals(signingKeyFrom(DEV_CALLER_SIGNING_KEY))).toBe(true);
  });

  it('refuses a public key in its place', () => {
    const pub = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' });
    expect(() => parseGatewayConfig({ ...production, CALLER_SIGNING_KEY: String(pub) })).toThrow(
      /CALLER_SIGNING_KEY: not a private key/,
    );
  });
});
