import {
  type Caller,
  type CallerSigner,
  createCallerSigner,
  DEV_CALLER_SIGNING_KEY,
  signingKeyFrom,
} from '@qm/platform';

/**
 * Signs callers as the gateway does, with the committed development key that services use when
 * CALLER_VERIFY_KEY is unset (docs/adr/021). For clients of a service under test:
 * `createClient(def, address, { signer: testCallerSigner })`, then calls in
 * `runWithContext({ requestId, caller }, ...)` carry that caller.
 */
export const testCallerSigner: CallerSigner = createCallerSigner(signingKeyFrom(DEV_CALLER_SIGNING_KEY));

/** An assertion naming `caller` to the service `audience` (e.g. 'wallet'), for metadata `x-qm-caller`. */
export const callerAssertion = (caller: Caller, audience: string): Promise<string> =>
  testCallerSigner.assertionFor(caller, audience);
