import { createClient, type EventBus, GrpcStatus, isServiceError, type ServiceIdentity } from '@qm/platform';
import { LRUCache } from 'lru-cache';
import { IDENTITY_SUBJECTS } from '../events/identity';
import * as identityV1 from '../gen/qm/identity/v1/identity';
import { roles, userStatuses } from './enums';

/** What another service may know of a user (identity's LookupUser, docs/adr/005). */
export interface UserFacts {
  id: number;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  phoneNumber: string;
  role: string;
  status: string;
  isAdmin: boolean;
}

/** Users by id or username, as identity has them; null when there is none. */
export interface UserDirectory {
  byId(id: number): Promise<UserFacts | null>;
  byUsername(username: string): Promise<UserFacts | null>;
  /** Drops what is known of the user, so the next lookup asks identity (they changed). */
  forget(userId: number): void;
  close(): void;
}

/** How long a user looked up is answered from memory when no change of theirs is heard first. */
export const USER_FACTS_TTL_MS = 15_000;

/**
 * Identity's LookupUser with the calling service's own identity, behind a cache: a transfer asks
 * for its receiver and a purchase for its buyer and seller (twice, for the mails), each a gRPC hop
 * and a database read in identity, and a user's facts rarely change. Identity announces every
 * change of them (approved, rejected, deleted, updated), and `followUserChanges` forgets the user
 * on hearing it; the TTL bounds what a missed announcement can leave (docs/adr/032). Only users
 * found are kept: a name that does not exist yet is asked again each time.
 */
export function identityDirectory(opts: {
  address: string;
  service: string;
  token: string | undefined;
  deadlineMs?: number;
  ttlMs?: number;
  max?: number;
}): UserDirectory {
  const client = createClient(identityV1.IdentityServiceService, opts.address, {
    defaultDeadlineMs: opts.deadlineMs,
    identity: opts.token
      ? ({ service: opts.service, token: opts.token } satisfies ServiceIdentity)
      : undefined,
  });
  const cache = new LRUCache<string, UserFacts>({
    max: opts.max ?? 10_000,
    ttl: opts.ttlMs ?? USER_FACTS_TTL_MS,
  });
  // Counts changes heard: a lookup that was in flight while one was heard may carry what was true
  // before it, so its answer is used but not kept.
  let changesHeard = 0;
  // Lookups on their way, by key: callers that miss the cache together (a sweep's releases to one
  // seller, a burst of payments to one receiver) share one question. A change heard drops them, so
  // no caller after it joins an answer from before it.
  let asking = new Map<string, Promise<UserFacts | null>>();

  const keep = (user: UserFacts) => {
    cache.set(`id:${user.id}`, user);
    cache.set(`name:${nameKey(user.username)}`, user);
  };

  function lookup(key: string, by: identityV1.LookupUserRequest['by']): Promise<UserFacts | null> {
    const known = cache.get(key);
    if (known) return Promise.resolve(known);
    const joined = asking.get(key);
    if (joined) return joined;
    const question = ask(by).finally(() => {
      if (asking.get(key) === question) asking.delete(key);
    });
    asking.set(key, question);
    return question;
  }

  async function ask(by: identityV1.LookupUserRequest['by']): Promise<UserFacts | null> {
    const before = changesHeard;
    let user: UserFacts | null;
    try {
      const { user: u } = await client.lookupUser({ by });
      user = u ? factsOf(u) : null;
    } catch (err) {
      if (isServiceError(err) && err.code === GrpcStatus.NOT_FOUND) return null;
      throw err;
    }
    if (user && changesHeard === before) keep(user);
    return user;
  }

  return {
    byId: (id) => lookup(`id:${id}`, { $case: 'id', value: id }),
    byUsername: (username) => lookup(`name:${nameKey(username)}`, { $case: 'username', value: username }),
    forget(userId) {
      changesHeard++;
      asking = new Map();
      // Every key the user is under: the LRU may have dropped one of their two keys and kept the
      // other. Changes are rare, so a pass over the cache is cheap enough.
      const keys: string[] = [];
      cache.forEach((user, key) => {
        if (user.id === userId) keys.push(key);
      });
      for (const key of keys) cache.delete(key);
    },
    close: () => client.close(),
  };
}

/** Identity finds a username whatever its case and surrounding spaces. */
const nameKey = (username: string) => username.trim().toLowerCase();

function factsOf(u: identityV1.User): UserFacts {
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    phoneNumber: u.phoneNumber,
    role: roles.fromProto(u.role) ?? '',
    status: userStatuses.fromProto(u.status) ?? '',
    isAdmin: u.isAdmin,
  };
}

/**
 * Every replica hears identity's announcements of a user's change as they pass and forgets that
 * user at once. Hints only (no durable consumer): one missed while NATS was away is covered by the
 * directory's TTL. Returns the unsubscribe.
 */
export function followUserChanges(bus: Pick<EventBus, 'listen'>, directory: Pick<UserDirectory, 'forget'>) {
  const stops = Object.values(IDENTITY_SUBJECTS).map((subject) =>
    bus.listen(subject, (event) => {
      const userId = (event.data as { userId?: unknown } | undefined)?.userId;
      if (typeof userId === 'number') directory.forget(userId);
    }),
  );
  return () => stops.forEach((stop) => stop());
}
