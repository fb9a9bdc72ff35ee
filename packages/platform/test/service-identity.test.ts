import { Metadata } from '@grpc/grpc-js';
import {
  MD_SERVICE,
  MD_SERVICE_PROOF,
  metadataToContext,
  signServiceIdentity,
  verifyServiceIdentity,
} from '../src';

const TOKEN = 'a'.repeat(32);
const signed = (service: string, token = TOKEN) => signServiceIdentity(new Metadata(), { service, token });

describe('service identity', () => {
  it('is the signed service name when the proof matches the shared token', () => {
    expect(verifyServiceIdentity(signed('orders'), TOKEN)).toBe('orders');
  });

  it('is nothing with another token, or when this service has no token configured', () => {
    expect(verifyServiceIdentity(signed('orders', 'b'.repeat(32)), TOKEN)).toBeUndefined();
    expect(verifyServiceIdentity(signed('orders'), undefined)).toBeUndefined();
  });

  it("is nothing when the name is changed after signing (one service's proof is not another's)", () => {
    const md = signed('wallet');
    md.set(MD_SERVICE, 'orders');
    expect(verifyServiceIdentity(md, TOKEN)).toBeUndefined();
  });

  it('is nothing for a claimed name without a valid proof, whatever the proof looks like', () => {
    for (const proof of [
      undefined,
      '',
      'orders',
      'x'.repeat(43),
      signed('orders').get(MD_SERVICE_PROOF)[0],
    ]) {
      const md = new Metadata();
      md.set(MD_SERVICE, 'orders');
      if (typeof proof === 'string') md.set(MD_SERVICE_PROOF, proof === 'orders' ? proof : `${proof}A`);
      expect(verifyServiceIdentity(md, TOKEN)).toBeUndefined();
    }
  });

  it('never comes from the caller metadata a gateway forwards', () => {
    const md = signed('orders');
    expect(metadataToContext(md).service).toBeUndefined();
  });
});
