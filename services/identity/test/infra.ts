import { identityV1, roles } from '@qm/contracts/grpc';
import {
  type Caller,
  createClient,
  type EventBus,
  type EventEnvelope,
  newRequestId,
  runWithContext,
  startService,
} from '@qm/platform';
import { freePort, INFRA, serviceTestEnv, testCallerSigner, testLog, uniqueName } from '@qm/testkit';
import { ADMIN_PASSWORD, deleteKeycloakUsers, testKeycloak } from '@qm/testkit/src/keycloak';
import { createIdentityService } from '../src/service';

export { ADMIN_PASSWORD } from '@qm/testkit/src/keycloak';
export { codeIn, deleteMailsTo, type Mail, mailsTo, waitForMail } from '@qm/testkit/src/maildev';
export { eventually, freePort, INFRA } from '@qm/testkit';

export const log = testLog('identity-test');

/** A clock the test moves forward instead of waiting. */
export function testClock() {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance(ms: number) {
      offsetMs += ms;
    },
  };
}

export type IdentityClient = ReturnType<typeof identityClient>;
export function identityClient(address: string) {
  return createClient(identityV1.IdentityServiceService, address, { signer: testCallerSigner });
}

/** The real identity service in-process, on its own test database. */
export async function startIdentity(clock?: () => Date) {
  const db = uniqueName('qm_test_identity');
  const running = await startService(
    createIdentityService({ clock }),
    serviceTestEnv(db, {
      GRPC_PORT: String(await freePort()),
      KEYCLOAK_URL: INFRA.KEYCLOAK_URL,
      SMTP_URL: INFRA.SMTP_URL,
      ADMIN_PASSWORD,
      SWEEP_INTERVAL_MS: '3600000',
    }),
  );
  const address = `127.0.0.1:${running.port}`;
  const client = identityClient(address);
  const kc = testKeycloak(log);
  const created: string[] = [];
  return {
    running,
    address,
    client,
    kc,
    db,
    /** Usernames to remove from Keycloak at the end. */
    track: (username: string) => created.push(username),
    async stop() {
      await deleteKeycloakUsers(kc, created);
      client.close();
      await running.rt.conn.dropDatabase().catch(() => undefined);
      await running.stop();
    },
  };
}

/** Runs a call as a signed-in caller (the metadata the gateway would send). */
export function as<T>(caller: Caller | undefined, fn: () => Promise<T>): Promise<T> {
  return runWithContext({ requestId: newRequestId(), caller }, fn);
}

export const callerOf = (u: identityV1.User): Caller => ({
  userId: u.id,
  username: u.username,
  roles: [roles.fromProto(u.role)].filter((r) => r !== undefined),
});

/** Events as they go over NATS (a core subscription sees what JetStream stores). */
export function collectEvents(running: { rt: { bus: EventBus } }, subject: string) {
  const seen: { subject: string; event: EventEnvelope }[] = [];
  const stop = running.rt.bus.listen(subject, (event, s) => seen.push({ subject: s, event }));
  return { seen, stop };
}

/** Registers through the service and returns the user; `approve` makes it approved by the given admin. */
export function registration(prefix: string, role: 'Army' | 'Manufacturer' = 'Army') {
  // Usernames are letters and digits: no separator.
  const username = uniqueName(prefix, '');
  return {
    username,
    password: 'Secret#123',
    email: `${username.toLowerCase()}@example.test`,
    firstName: 'Test',
    lastName: role === 'Army' ? 'Soldier' : 'Maker',
    phoneNumber: '+91 98765 43210',
    role: role === 'Army' ? identityV1.Role.ROLE_ARMY : identityV1.Role.ROLE_MANUFACTURER,
  };
}
