import { isDuplicateKeyError, nextSequence } from '@qm/platform';
import { emailKey } from '../domain/users';
import { KeycloakError, KeycloakUnavailableError } from '../keycloak/client';
import type { Deps } from './deps';

/** How long a starting identity waits for a Keycloak that is up but slow to answer (a busy start). */
const KEYCLOAK_WAIT_MS = 120_000;

/**
 * ensureAdmin, again while Keycloak is unreachable, slow or failing (a 5xx), up to KEYCLOAK_WAIT_MS,
 * or when another replica's seeding collided with it: a replica that starts beside a busy Keycloak or
 * a twin waits instead of exiting (Kubernetes would restart it; the local stack and the chaos run do
 * not restart a process that never became healthy).
 */
export async function ensureAdminWhenReachable(
  d: Deps,
  opts: { password: string; email: string },
  sleep = (ms: number) => new Promise((r) => setTimeout(r, ms)),
): Promise<void> {
  const until = Date.now() + KEYCLOAK_WAIT_MS;
  let races = 0;
  for (let pause = 1000; ; pause = Math.min(pause * 2, 10_000)) {
    try {
      return await ensureAdmin(d, opts);
    } catch (err) {
      // Another replica seeding at the same moment makes a step fail (the user or its role mapping
      // now exists); every step reads what is there first, so seeding again finds it done.
      const race = err instanceof KeycloakError && [400, 409].includes(err.status) && ++races <= 3;
      // A 5xx is Keycloak's own trouble (starting, or its database refusing one of two concurrent
      // writes); every step reads first, so trying again is safe.
      const away =
        err instanceof KeycloakUnavailableError || (err instanceof KeycloakError && err.status >= 500);
      if (!(race || away) || Date.now() + pause > until) throw err;
      d.log.warn({ retryInMs: pause, err }, 'the administrator seed did not complete; trying again');
      await sleep(pause);
    }
  }
}

/**
 * The seeded administrator (username admin, role Admin, approved, isAdmin). Its password is set
 * when the Keycloak user is created; an existing administrator keeps the password it has.
 */
export async function ensureAdmin(d: Deps, opts: { password: string; email: string }): Promise<void> {
  let kcUser = await d.kc.findByUsername('admin');
  if (!kcUser) {
    try {
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
    } catch (err) {
      // Another replica created it at the same moment: use theirs.
      if (!(err instanceof KeycloakError && err.status === 409)) throw err;
      kcUser = await d.kc.findByUsername('admin');
      if (!kcUser) throw err;
    }
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
