import { UsernameSchema } from '@qm/contracts/rest';
import { type Caller, conflict, invalid, isDuplicateKeyError, nextSequence, notFound } from '@qm/platform';
import { ACTIONS, DETAILS, isValidAction, SERVER_RECORDED } from '../domain/activity';
import {
  assertDeletable,
  availability,
  decide,
  duplicateEmail,
  duplicateUsername,
  emailKey,
  planProfileUpdate,
  type ProfileInput,
  type RegistrationInput,
  type UserRecord,
  type UserStatus,
  usernameKey,
  newRegistration,
  viewFor,
} from '../domain/users';
import { events } from '../events/events';
import { KeycloakError } from '../keycloak/client';
import { mails } from '../mail/templates';
import type { StoredUser } from '../store/users';
import { bestEffort, type Deps, recordActivity } from './deps';

/** Whether a name could be registered (the REST username rules), before looking at who holds it. */
export function usernameProblem(username: string): string | undefined {
  const parsed = UsernameSchema.safeParse(username);
  return parsed.success ? undefined : (parsed.error.issues[0]?.message ?? 'Invalid username');
}

/** Registration, approval, deletion, lists and profiles. */
export function createAccounts(d: Deps) {
  async function whichDuplicate(username: string, email: string): Promise<Error> {
    if (await d.users.byUsernameKey(usernameKey(username))) return duplicateUsername();
    if (await d.users.byEmailKey(emailKey(email))) return duplicateEmail();
    return duplicateUsername();
  }

  function keycloakConflict(err: unknown): Error | undefined {
    if (err instanceof KeycloakError && err.status === 409)
      return /email/i.test(err.message) ? duplicateEmail() : duplicateUsername();
    if (err instanceof KeycloakError && err.status === 400)
      return invalid(`Keycloak refused the ${err.field ?? 'account'}: ${err.message}`);
    return undefined;
  }

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

    /** Spec §5: a pending profile here, a disabled Keycloak user with the realm role there. */
    async register(req: RegistrationInput): Promise<StoredUser> {
      const r = newRegistration(req);
      if (await d.users.byUsernameKey(r.usernameKey)) throw duplicateUsername();
      if (await d.users.byEmailKey(r.emailKey)) throw duplicateEmail();
      const now = d.clock();
      const id = await nextSequence(d.conn, 'users');
      const record: StoredUser = {
        id,
        username: r.username,
        usernameKey: r.usernameKey,
        email: r.email,
        emailKey: r.emailKey,
        firstName: r.firstName,
        lastName: r.lastName,
        phoneNumber: r.phoneNumber,
        role: r.role,
        status: 'pending',
        isAdmin: false,
        kcId: null,
        kcEnabled: false,
        decisionMailPending: false,
        createdAt: now,
        updatedAt: now,
      };
      const kcId = await d.outbox.run([events.registered(record)], async () => {
        try {
          await d.users.insert(record);
        } catch (err) {
          if (isDuplicateKeyError(err)) throw await whichDuplicate(r.username, r.email);
          throw err;
        }
        let created: string | undefined;
        try {
          created = await d.kc.createUser({
            username: r.username,
            email: r.email,
            firstName: r.firstName,
            lastName: r.lastName,
            enabled: false,
            password: r.password,
          });
          await d.kc.assignRealmRole(created, r.role);
        } catch (err) {
          await d.users.remove(id);
          if (created) await bestEffort(d.log, 'undo keycloak user', () => d.kc.deleteUser(created!));
          throw keycloakConflict(err) ?? err;
        }
        await d.users.setKcId(id, created, false);
        return created;
      });
      await bestEffort(d.log, 'registration mail', () =>
        d.mailer.send(r.email, mails.registrationReceived(r)),
      );
      return { ...record, kcId };
    },

    async checkUsername(username: string) {
      const name = username.trim();
      const taken = name ? !!(await d.users.byUsernameKey(usernameKey(name))) : false;
      return availability(usernameProblem(name), taken);
    },

    /** Only a pending user can be approved or rejected; the decision is emailed. */
    async updateStatus(caller: Caller, userId: number, status: UserStatus | undefined, reason: string) {
      const user = await d.users.byId(userId);
      if (!user) throw notFound('User not found');
      const decision = decide(user, status, reason);
      if (!user.kcId) throw conflict('This registration is still being processed. Please try again shortly.');
      const event =
        decision.status === 'approved'
          ? events.approved(user)
          : events.rejected(user, decision.rejectionReason ?? '');
      const updated = await d.outbox.run([event], async () => {
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

    /** Deletes the Keycloak user and the profile; the catalog removes a manufacturer's products on the event. */
    async deleteUser(userId: number): Promise<void> {
      const user = await d.users.byId(userId);
      if (!user) throw notFound('User not found');
      assertDeletable(user);
      await d.outbox.run([events.deleted(user)], async () => {
        if (user.kcId) await d.kc.deleteUser(user.kcId);
        await d.users.remove(userId);
        await d.otps.removeForUser(userId);
      });
    },

    list: (status?: UserStatus) => d.users.list(status),

    async get(caller: Caller, id: number) {
      const user = await d.users.byId(id);
      if (!user) throw notFound('User not found');
      const view = viewFor(user, caller);
      if (view.kind === 'hidden') throw notFound('User not found');
      return { user, view: view.kind };
    },

    async current(caller: Caller): Promise<StoredUser> {
      const user = await d.users.byId(caller.userId);
      if (!user) throw notFound('User not found');
      return user;
    },

    async updateProfile(caller: Caller, req: ProfileInput): Promise<StoredUser> {
      const user = await d.users.byId(caller.userId);
      if (!user) throw notFound('User not found');
      const change = planProfileUpdate(user, req);
      for (const k of Object.keys(change.set) as (keyof UserRecord)[]) {
        if (change.set[k] === user[k]) delete change.set[k];
      }
      change.unset = change.unset.filter((k) => user[k] !== undefined && user[k] !== null);
      if (change.set.emailKey === user.emailKey) {
        delete change.set.emailKey;
      }
      const fields = [...Object.keys(change.set).filter((k) => k !== 'emailKey'), ...change.unset];
      if (!fields.length) return user;

      if (change.set.emailKey) {
        const other = await d.users.byEmailKey(change.set.emailKey);
        if (other && other.id !== user.id) throw duplicateEmail();
      }
      const kcFields: { email?: string; firstName?: string; lastName?: string } = {};
      if (change.set.email !== undefined) kcFields.email = change.set.email;
      if (change.set.firstName !== undefined) kcFields.firstName = change.set.firstName;
      if (change.set.lastName !== undefined) kcFields.lastName = change.set.lastName;
      const touchesKeycloak = Object.keys(kcFields).length > 0 && !!user.kcId;
      if (touchesKeycloak) {
        try {
          await d.kc.updateUser(user.kcId!, kcFields);
        } catch (err) {
          throw keycloakConflict(err) ?? err;
        }
      }
      const merged: UserRecord = { ...user, ...change.set };
      for (const k of change.unset) delete merged[k];
      const publish = [events.activity(user, ACTIONS.profileUpdate, DETAILS.profileUpdate(fields))];
      if (['email', 'firstName', 'lastName', 'phoneNumber'].some((f) => fields.includes(f)))
        publish.push(events.updated(merged));
      try {
        const updated = await d.outbox.run(publish, () =>
          d.users.updateProfile(user.id, change.set, change.unset),
        );
        if (!updated) throw notFound('User not found');
        return updated;
      } catch (err) {
        if (touchesKeycloak)
          await bestEffort(d.log, 'undo keycloak profile change', () =>
            d.kc.updateUser(user.kcId!, {
              email: user.email,
              firstName: user.firstName,
              lastName: user.lastName,
            }),
          );
        if (isDuplicateKeyError(err)) throw duplicateEmail();
        throw err;
      }
    },

    /** POST /api/user/activity: what the screens report (profile_view, wallet_view, ...). */
    async recordActivity(caller: Caller, action: string, details: string): Promise<boolean> {
      const a = action.trim();
      if (!isValidAction(a)) throw invalid('Action must be a lowercase name such as profile_view');
      if (details.length > 2000) throw invalid('Details must be at most 2000 characters');
      if (SERVER_RECORDED.has(a)) return false;
      await recordActivity(d, { id: caller.userId, username: caller.username }, a, details);
      return true;
    },
  };
}

export type Accounts = ReturnType<typeof createAccounts>;
