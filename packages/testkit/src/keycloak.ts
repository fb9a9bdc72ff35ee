import type { Logger } from '@qm/platform';
import { KeycloakClient } from '@qm/identity/src/keycloak/client';
import { INFRA, testLog } from './infra';

export const ADMIN_PASSWORD = process.env.ADMIN_PASSWORD ?? 'Admin@12345';

/** Identity's own Keycloak client with the local realm's development credentials (tests clean up users with it). */
export function testKeycloak(log: Logger = testLog('keycloak-test')): KeycloakClient {
  return new KeycloakClient({
    url: INFRA.KEYCLOAK_URL,
    realm: 'quartermaster',
    clientId: 'qm-identity',
    clientSecret: process.env.KEYCLOAK_CLIENT_SECRET ?? 'qm-identity-dev-secret',
    webClientId: 'qm-web',
    log,
  });
}

/** Removes the named users from Keycloak, ignoring the ones already gone. */
export async function deleteKeycloakUsers(kc: KeycloakClient, usernames: string[]): Promise<void> {
  for (const name of usernames) {
    const u = await kc.findByUsername(name).catch(() => undefined);
    if (u) await kc.deleteUser(u.id).catch(() => undefined);
  }
}
