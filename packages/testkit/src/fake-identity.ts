import { identityV1, roles, userStatuses } from '@qm/contracts/grpc';
import { createGrpcServer, DEV_CALLER_VERIFY_KEY, type UnaryImpl, verifyKeyFrom } from '@qm/platform';
import { testLog } from './infra';

/** A user as a test names it; identity's other fields are filled as for an approved Army user. */
export interface FakeIdentityUser {
  id: number;
  username: string;
  email: string;
  status?: 'approved' | 'rejected';
}

/**
 * An identity that answers LookupUser from `find` and verifies callers as the real one does (the
 * calling service's token, docs/adr/005 and 021), so a test names its users without Keycloak.
 */
export async function startFakeIdentity(opts: {
  internalToken: string;
  find(by: identityV1.LookupUserRequest['by']): FakeIdentityUser | undefined;
}): Promise<{ port: number; close(): Promise<void> }> {
  const server = createGrpcServer(testLog('fake-identity'), {
    internalToken: opts.internalToken,
    name: 'identity',
    callerKey: verifyKeyFrom(DEV_CALLER_VERIFY_KEY),
  });
  server.add('qm.identity.v1.IdentityService', identityV1.IdentityServiceService, {
    async lookupUser({ by }: identityV1.LookupUserRequest) {
      const u = opts.find(by);
      return { user: u && protoUser(u) };
    },
  } as unknown as UnaryImpl<typeof identityV1.IdentityServiceService>);
  const port = await server.listen(0, '127.0.0.1');
  server.setServing(true);
  return { port, close: () => server.close() };
}

function protoUser(u: FakeIdentityUser): identityV1.User {
  const now = new Date().toISOString();
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    firstName: u.username,
    lastName: 'Test',
    phoneNumber: '',
    role: roles.toProto('Army'),
    status: userStatuses.toProto(u.status ?? 'approved'),
    isAdmin: false,
    createdAt: now,
    updatedAt: now,
  };
}
