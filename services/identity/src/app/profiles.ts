import { IDENTITY_MESSAGES as MSG } from '@qm/contracts/rest';
import { type Caller, invalid, isDuplicateKeyError, notFound } from '@qm/platform';
import { ACTIONS, DETAILS } from '../domain/activity';
import { duplicateEmail, planProfileUpdate, type ProfileInput, type UserRecord } from '../domain/users';
import { events } from '../events/events';
import type { StoredUser } from '../store/users';
import { bestEffort, type Deps } from './deps';
import { keycloakConflict } from './registration';

/**
 * A user's own profile change: Keycloak's copy first, undone if the profile cannot follow. Another
 * email address only with `emailConfirmed` (./email-changes.ts: current password and a code sent
 * to the new address); a change of letter case alone is the same address and needs none.
 */
export async function updateProfile(
  d: Deps,
  caller: Caller,
  req: ProfileInput,
  opts: { emailConfirmed?: boolean } = {},
): Promise<StoredUser> {
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

  if (change.set.emailKey && !opts.emailConfirmed) throw invalid(MSG.emailChangeNeedsConfirmation);
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
}
