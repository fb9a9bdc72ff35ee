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

/** A service's replicas (docs/adr/025). */
describe('gateway config: <NAME>_GRPC_ADDR', () => {
  it('takes one host:port or a comma-separated list of replicas', () => {
    expect(parseGatewayConfig({ WALLET_GRPC_ADDR: 'qm-wallet:50053' }).services.wallet).toBe(
      'qm-wallet:50053',
    );
    expect(parseGatewayConfig({ WALLET_GRPC_ADDR: '127.0.0.1:50053,127.0.0.1:50153' }).services.wallet).toBe(
      '127.0.0.1:50053,127.0.0.1:50153',
    );
  });

  it('refuses an address without a port or an empty replica', () => {
    expect(() => parseGatewayConfig({ WALLET_GRPC_ADDR: 'qm-wallet' })).toThrow(/WALLET_GRPC_ADDR/);
    expect(() => parseGatewayConfig({ WALLET_GRPC_ADDR: '127.0.0.1:50053,' })).toThrow(/WALLET_GRPC_ADDR/);
  });
});
