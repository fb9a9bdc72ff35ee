import {
  ACTIVITY_LIMITS,
  ACTIVITY_MESSAGES,
  CLIENT_ACTIVITY_ACTIONS,
  USER_ROLES,
  USER_STATUSES,
  type UserRole,
  UsernameSchema,
} from '@qm/contracts/rest';
import { type Caller, conflict, forbidden, invalid, notFound } from '@qm/platform';
import {
  assertDeletable,
  availability,
  type Availability,
  decide,
  type ProfileInput,
  type RegistrationInput,
  type UserStatus,
  usernameKey,
  viewFor,
} from '../domain/users';
import { events } from '../events/events';
import { mails } from '../mail/templates';
import type { StoredUser, UserSearch } from '../store/users';
import { bestEffort, type Deps, recordActivity } from './deps';

/**
 * Internal services that may look a user up by id or username (docs/adr/005): the wallet, and orders
 * for a purchase's buyer (approval, details) and seller, activity for the email of an activity record.
 */
const LOOKUP_SERVICES: ReadonlySet<string> = new Set(['wallet', 'orders', 'activity']);
import { register } from './registration';
import { updateProfile } from './profiles';

/** Whether a name could be registered (the REST username rules), before looking at who holds it. */
export function usernameProblem(username: string): string | undefined {
  const parsed = UsernameSchema.safeParse(username);
  return parsed.success ? undefined : (parsed.error.issues[0]?.message ?? 'Invalid username');
}

/** Registration, approval, deletion, lists and profiles. */
export interface Accounts {
  /** Emails the approval or rejection and clears its pending flag (the sweeper retries it). */
  sendDecisionMail(u: StoredUser): Promise<void>;
  /** Enables an approved user's Keycloak account (the sweeper retries it). */
  enableInKeycloak(u: StoredUser): Promise<void>;
  register(req: RegistrationInput): Promise<StoredUser>;
  checkUsername(username: string): Promise<Availability>;
  /** Only a pending user can be approved or rejected; the decision is emailed. */
  updateStatus(
    caller: Caller,
    userId: number,
    status: UserStatus | undefined,
    reason: string,
  ): Promise<StoredUser>;
  /**
   * Deletes the Keycloak user and the profile; the catalog removes a manufacturer's products on
   * the event. Every session of the user ends at once, as after a password change: the gateway
   * would otherwise keep serving it until its access token expires.
   */
  deleteUser(userId: number): Promise<void>;
  list(status?: UserStatus): Promise<StoredUser[]>;
  /** The administrators' paged, searchable list. */
  search(q: UserSearch): Promise<{ users: StoredUser[]; total: number }>;
  /** Every user counted by status and by role (the dashboard): one indexed count each, no rows read. */
  stats(): Promise<{ byStatus: Record<UserStatus, number>; byRole: Record<UserRole, number> }>;
  /** A user as the caller may see them: the whole profile, or a manufacturer's card; others are 404. */
  get(caller: Caller, id: number): Promise<{ user: StoredUser; view: 'user' | 'card' }>;
  /** An internal service's lookup (wallet: a transfer's receiver, a PIN code's recipient). */
  lookup(service: string | undefined, by: { id: number } | { username: string }): Promise<StoredUser>;
  current(caller: Caller): Promise<StoredUser>;
  updateProfile(caller: Caller, req: ProfileInput): Promise<StoredUser>;
  /**
   * POST /api/user/activity: what only the browser knows happened (profile_view). Every other
   * action is recorded by the service that performed it, so a client can neither forge nor double it.
   */
  recordActivity(caller: Caller, action: string, details: string): Promise<boolean>;
}

export function createAccounts(d: Deps): Accounts {
  async function sendDecisionMail(u: StoredUser): Promise<void> {
    const message =
      u.status === 'approved'
        ? mails.approved(u, `${d.publicUrl.replace(/\/+$/, '')}/auth`)
        : mails.rejected(u, u.rejectionReason ?? '');
    await d.mailer.send(u.email, message);
    await d.users.decisionMailSent(u.id);
  }

  async function enableInKeycloak(u: StoredUser): Promise<void> {
    if (!u.kcId) return;
    await d.kc.setEnabled(u.kcId, true);
    await d.users.setKcEnabled(u.id, true);
  }

  return {
    sendDecisionMail,
    enableInKeycloak,
    register: (req: RegistrationInput) => register(d, req),

    async checkUsername(username: string) {
      const name = username.trim();
      const taken = name ? !!(await d.users.byUsernameKey(usernameKey(name))) : false;
      return availability(usernameProblem(name), taken);
    },

    async updateStatus(caller: Caller, userId: number, status: UserStatus | undefined, reason: string) {
      const user = await d.users.byId(userId);
      if (!user) throw notFound('User not found');
      const decision = decide(user, status, reason);
      if (!user.kcId) throw conflict('This registration is still being processed. Please try again shortly.');
      // A rejected user's sessions end like a deleted one's (none is expected: pending accounts
      // are disabled in Keycloak, but the rule must not depend on that).
      const publish =
        decision.status === 'approved'
          ? [events.approved(user)]
          : [events.rejected(user, decision.rejectionReason ?? ''), events.sessionsRevoked(user, d.clock())];
      const updated = await d.outbox.run(publish, async () => {
        const u = await d.users.decide(userId, decision, caller.userId, d.clock());
        if (!u) {
          const now = await d.users.byId(userId);
          throw conflict(
            `Only pending users can be approved or rejected; this user is already ${now?.status ?? 'gone'}`,
          );
        }
        return u;
      });
      if (updated.status === 'approved')
        await bestEffort(d.log, 'enable keycloak user', () => enableInKeycloak(updated));
      await bestEffort(d.log, 'decision mail', () => sendDecisionMail(updated));
      return (await d.users.byId(userId)) ?? updated;
    },

    async deleteUser(userId: number): Promise<void> {
      const user = await d.users.byId(userId);
      if (!user) throw notFound('User not found');
      assertDeletable(user);
      const publish = [events.deleted(user), events.sessionsRevoked(user, d.clock())];
      await d.outbox.run(publish, async () => {
        if (user.kcId) await d.kc.deleteUser(user.kcId);
        await d.users.remove(userId);
        await d.otps.removeForUser(userId);
      });
    },

    list: (status?: UserStatus) => d.users.list(status),

    search: (q: UserSearch) => d.users.search(q),

    async stats() {
      const [byStatus, byRole] = await Promise.all([
        Promise.all(USER_STATUSES.map(async (status) => [status, await d.users.count({ status })] as const)),
        Promise.all(USER_ROLES.map(async (role) => [role, await d.users.count({ role })] as const)),
      ]);
      return { byStatus: Object.fromEntries(byStatus), byRole: Object.fromEntries(byRole) } as {
        byStatus: Record<UserStatus, number>;
        byRole: Record<UserRole, number>;
      };
    },

    async get(caller: Caller, id: number) {
      const user = await d.users.byId(id);
      if (!user) throw notFound('User not found');
      const view = viewFor(user, caller);
      if (view.kind === 'hidden') throw notFound('User not found');
      return { user, view: view.kind };
    },

    async lookup(
      service: string | undefined,
      by: { id: number } | { username: string },
    ): Promise<StoredUser> {
      if (!service || !LOOKUP_SERVICES.has(service))
        throw forbidden('Only internal services may look users up');
      const user =
        'id' in by ? await d.users.byId(by.id) : await d.users.byUsernameKey(usernameKey(by.username));
      if (!user) throw notFound('User not found');
      return user;
    },

    async current(caller: Caller): Promise<StoredUser> {
      const user = await d.users.byId(caller.userId);
      if (!user) throw notFound('User not found');
      return user;
    },

    updateProfile: (caller: Caller, req: ProfileInput) => updateProfile(d, caller, req),

    async recordActivity(caller: Caller, action: string, details: string): Promise<boolean> {
      const a = action.trim();
      if (!(CLIENT_ACTIVITY_ACTIONS as readonly string[]).includes(a))
        throw invalid(ACTIVITY_MESSAGES.actionNotClient);
      if (details.length > ACTIVITY_LIMITS.detailsMax) throw invalid(ACTIVITY_MESSAGES.detailsMax);
      await recordActivity(d, { id: caller.userId, username: caller.username }, a, details);
      return true;
    },
  };
}
