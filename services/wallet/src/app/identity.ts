import { identityV1, roles, userStatuses } from '@qm/contracts/grpc';
import { createClient, GrpcStatus, isServiceError, unavailable } from '@qm/platform';

/** What the wallet needs to know of a user: the receiver of a transfer, the recipient of a PIN code. */
export interface UserFacts {
  id: number;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  role: string;
  status: string;
  isAdmin: boolean;
}

export interface Directory {
  /** The user, or null when there is none. */
  byUsername(username: string): Promise<UserFacts | null>;
  byId(id: number): Promise<UserFacts | null>;
  close(): void;
}

/** Identity's LookupUser, called with the wallet's service identity (docs/adr/005). */
export function identityDirectory(address: string, token: string | undefined): Directory {
  const client = createClient(identityV1.IdentityServiceService, address, {
    identity: token ? { service: 'wallet', token } : undefined,
  });
  async function lookup(by: identityV1.LookupUserRequest['by']): Promise<UserFacts | null> {
    try {
      const { user } = await client.lookupUser({ by });
      if (!user) return null;
      return {
        id: user.id,
        username: user.username,
        email: user.email,
        firstName: user.firstName,
        lastName: user.lastName,
        role: roles.fromProto(user.role) ?? '',
        status: userStatuses.fromProto(user.status) ?? '',
        isAdmin: user.isAdmin,
      };
    } catch (err) {
      if (isServiceError(err) && err.code === GrpcStatus.NOT_FOUND) return null;
      throw unavailable('Users cannot be looked up right now. Please try again.');
    }
  }
  return {
    byUsername: (username) => lookup({ $case: 'username', value: username }),
    byId: (id) => lookup({ $case: 'id', value: id }),
    close: () => client.close(),
  };
}
