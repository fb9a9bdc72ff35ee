import { isDuplicateKeyError, nextSequence } from '@qm/platform';
import { emailKey } from '../domain/users';
import type { Deps } from './deps';

/**
 * The seeded administrator (username admin, role Admin, approved, isAdmin). Its password is set
 * when the Keycloak user is created; an existing administrator keeps the password it has.
 */
export async function ensureAdmin(d: Deps, opts: { password: string; email: string }): Promise<void> {
  let kcUser = await d.kc.findByUsername('admin');
  if (!kcUser) {
    const id = await d.kc.createUser({
      username: 'admin',
      email: opts.email,
      firstName: 'System',
      lastName: 'Administrator',
      enabled: true,
      password: opts.password,
    });
    kcUser = { id, username: 'admin', enabled: true };
    d.log.info('created the administrator in Keycloak');
  } else if (!kcUser.enabled) {
    await d.kc.setEnabled(kcUser.id, true);
  }
  if (!(await d.kc.realmRoles(kcUser.id)).includes('Admin')) await d.kc.assignRealmRole(kcUser.id, 'Admin');

  const existing = await d.users.byUsernameKey('admin');
  if (existing) {
    if (existing.kcId !== kcUser.id) await d.users.setKcId(existing.id, kcUser.id, true);
    return;
  }
  const now = d.clock();
  const email = kcUser.email ?? opts.email;
  try {
    await d.users.insert({
      id: await nextSequence(d.conn, 'users'),
      username: 'admin',
      usernameKey: 'admin',
      email,
      emailKey: emailKey(email),
      firstName: 'System',
      lastName: 'Administrator',
      phoneNumber: '',
      role: 'Admin',
      status: 'approved',
      isAdmin: true,
      kcId: kcUser.id,
      kcEnabled: true,
      decisionMailPending: false,
      createdAt: now,
      updatedAt: now,
    });
    d.log.info('seeded the administrator profile');
  } catch (err) {
    // Another replica seeded it at the same moment.
    if (!isDuplicateKeyError(err)) throw err;
  }
}
