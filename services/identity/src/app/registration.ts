import { invalid, isDuplicateKeyError, nextSequence } from '@qm/platform';
import {
  duplicateEmail,
  duplicateUsername,
  emailKey,
  newRegistration,
  type RegistrationInput,
  usernameKey,
} from '../domain/users';
import { events } from '../events/events';
import { KeycloakError } from '../keycloak/client';
import { mails } from '../mail/templates';
import type { StoredUser } from '../store/users';
import { bestEffort, type Deps } from './deps';

async function whichDuplicate(d: Deps, username: string, email: string): Promise<Error> {
  if (await d.users.byUsernameKey(usernameKey(username))) return duplicateUsername();
  if (await d.users.byEmailKey(emailKey(email))) return duplicateEmail();
  return duplicateUsername();
}

export function keycloakConflict(err: unknown): Error | undefined {
  if (err instanceof KeycloakError && err.status === 409)
    return /email/i.test(err.message) ? duplicateEmail() : duplicateUsername();
  if (err instanceof KeycloakError && err.status === 400)
    return invalid(`Keycloak refused the ${err.field ?? 'account'}: ${err.message}`);
  return undefined;
}

/** docs/product.md §5: a pending profile here, a disabled Keycloak user with the realm role there. */
export async function register(d: Deps, req: RegistrationInput): Promise<StoredUser> {
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
    // Until setKcId links it: a registration whose process died before is finished by the sweeper.
    linkPending: true,
    kcEnabled: false,
    decisionMailPending: false,
    createdAt: now,
    updatedAt: now,
  };
  const kcId = await d.outbox.run([events.registered(record)], async () => {
    try {
      await d.users.insert(record);
    } catch (err) {
      if (isDuplicateKeyError(err)) throw await whichDuplicate(d, r.username, r.email);
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
  await bestEffort(d.log, 'registration mail', () => d.mailer.send(r.email, mails.registrationReceived(r)));
  return { ...record, kcId };
}
