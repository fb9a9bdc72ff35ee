import type { UserDirectory as Users } from '@qm/contracts/grpc';

/** Who an activity's user is, as far as the log shows it: their email (docs/product.md §3 activity record). */
export interface UserDirectory {
  /** The email, "" when the user no longer exists; throws when identity cannot answer (retried). */
  emailOf(userId: number): Promise<string>;
  close(): void;
}

/**
 * A user's email is kept a minute: an activity row shows the address the user had then, and a
 * change identity announces is followed at once (@qm/contracts/grpc followUserChanges).
 */
export const EMAIL_TTL_MS = 60_000;

export function emailsOf(users: Users): UserDirectory {
  return {
    emailOf: async (userId) => (await users.byId(userId))?.email ?? '',
    close: () => users.close(),
  };
}
