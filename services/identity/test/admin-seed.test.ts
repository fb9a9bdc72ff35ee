import { createLogger } from '@qm/platform';
import type { Deps } from '../src/app/deps';
import { ensureAdminWhenReachable } from '../src/app/admin-seed';
import { KeycloakError, KeycloakUnavailableError } from '../src/keycloak/client';

// The seeded administrator when replicas start beside a busy Keycloak (docs/adr/025): a slow
// Keycloak is waited for, and a second replica uses the administrator the first one created.
const ADMIN = { id: 'kc-admin', username: 'admin', enabled: true };

function fakeDeps(kc: Partial<Deps['kc']>): Deps {
  return {
    kc: { realmRoles: async () => ['Admin'], ...kc },
    users: { byUsernameKey: async () => ({ id: 1, kcId: ADMIN.id }) },
    log: createLogger('admin-seed-test', 'silent'),
  } as unknown as Deps;
}
const opts = { password: 'Admin@12345', email: 'admin@quartermaster.local' };
const noWait = async () => undefined;

it('waits for a Keycloak that does not answer, then seeds', async () => {
  let asked = 0;
  const d = fakeDeps({
    findByUsername: async () => {
      if (++asked < 3) throw new KeycloakUnavailableError('Keycloak is unreachable');
      return ADMIN;
    },
  });
  await ensureAdminWhenReachable(d, opts, noWait);
  expect(asked).toBe(3);
});

it('uses the administrator another replica created at the same moment', async () => {
  let found = 0;
  const d = fakeDeps({
    findByUsername: async () => (found++ === 0 ? undefined : ADMIN),
    createUser: async () => {
      throw new KeycloakError(409, 'User exists with same username');
    },
  });
  await expect(ensureAdminWhenReachable(d, opts, noWait)).resolves.toBeUndefined();
  expect(found).toBe(2);
});

it("seeds again when another replica's role mapping collided with this one's", async () => {
  let roleAsked = 0;
  const d = fakeDeps({
    findByUsername: async () => ADMIN,
    realmRoles: async () => (roleAsked++ === 0 ? [] : ['Admin']),
    assignRealmRole: async () => {
      throw new KeycloakError(400, 'invalid_request');
    },
  });
  await expect(ensureAdminWhenReachable(d, opts, noWait)).resolves.toBeUndefined();
  expect(roleAsked).toBe(2);
});

it('seeds again after Keycloak failed a step with a 5xx (its database refusing a concurrent write)', async () => {
  let assigned = 0;
  let mapped = false;
  const d = fakeDeps({
    findByUsername: async () => ADMIN,
    realmRoles: async () => (mapped ? ['Admin'] : []),
    assignRealmRole: async () => {
      if (++assigned === 1) throw new KeycloakError(500, 'unknown_error');
      mapped = true;
    },
  });
  await expect(ensureAdminWhenReachable(d, opts, noWait)).resolves.toBeUndefined();
  expect(assigned).toBe(2);
});

it('does not retry what Keycloak refused', async () => {
  const d = fakeDeps({
    findByUsername: async () => {
      throw new KeycloakError(403, 'forbidden');
    },
  });
  await expect(ensureAdminWhenReachable(d, opts, noWait)).rejects.toThrow('forbidden');
});
