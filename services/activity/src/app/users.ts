import { identityV1 } from '@qm/contracts/grpc';
import { createClient, GrpcStatus, isServiceError, type ServiceIdentity } from '@qm/platform';

/** Who an activity's user is, as far as the log shows it: their email (docs/product.md §3 activity record). */
export interface UserDirectory {
  /** The email, "" when the user no longer exists; throws when identity cannot answer (retried). */
  emailOf(userId: number): Promise<string>;
  close(): void;
}

/** How many users' emails are kept; a user's email is read again after EMAIL_TTL_MS. */
const CACHE_MAX = 10_000;
const EMAIL_TTL_MS = 60_000;

/** Identity's LookupUser with this service's own identity (docs/adr/005), behind a small cache. */
export function identityDirectory(opts: {
  address: string;
  token: string | undefined;
  deadlineMs: number;
}): UserDirectory {
  const identity = createClient(identityV1.IdentityServiceService, opts.address, {
    defaultDeadlineMs: opts.deadlineMs,
    identity: opts.token ? ({ service: 'activity', token: opts.token } satisfies ServiceIdentity) : undefined,
  });
  const cache = new Map<number, { email: string; at: number }>();
  return {
    async emailOf(userId) {
      const hit = cache.get(userId);
      if (hit && Date.now() - hit.at < EMAIL_TTL_MS) return hit.email;
      let email = '';
      try {
        const { user } = await identity.lookupUser({ by: { $case: 'id', value: userId } });
        email = user?.email ?? '';
      } catch (err) {
        if (!(isServiceError(err) && err.code === GrpcStatus.NOT_FOUND)) throw err;
      }
      if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
      cache.set(userId, { email, at: Date.now() });
      return email;
    },
    close: () => identity.close(),
  };
}
