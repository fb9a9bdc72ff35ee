import { AuthConfigSchema, type LoginResponse } from '@qm/contracts/rest';
import { apiFetch } from '@qm/ui';
import Keycloak from 'keycloak-js';
import type { Portal } from './signIn';

/**
 * "Sign in with SSO" (docs/architecture.md §4): keycloak-js runs the authorization-code flow with PKCE against
 * the public web client; on the way back the tokens go straight to the gateway (POST /api/auth/sso),
 * which checks them with Keycloak, keeps them server-side and answers with the same cookie session as a
 * password sign-in. keycloak-js's own copy is dropped at once: the browser keeps no token.
 */

/** Query parameter marking the return from Keycloak on /auth. */
export const SSO_RETURN_PARAM = 'sso';

const returnUri = () => `${window.location.origin}/auth?${SSO_RETURN_PARAM}=1`;

/** Keycloak's address, realm and client as the gateway publishes them (GET /api/auth/config). */
async function createKeycloak(): Promise<Keycloak> {
  const config = AuthConfigSchema.parse(await apiFetch('/api/auth/config'));
  return new Keycloak({ url: config.url, realm: config.realm, clientId: config.clientId });
}

const INIT = { pkceMethod: 'S256', checkLoginIframe: false, responseMode: 'fragment' } as const;

/** Leaves for Keycloak's sign-in page; resolves only if the redirect does not happen. */
export async function startSso(): Promise<void> {
  finishing = undefined;
  const keycloak = await createKeycloak();
  await keycloak.init({ ...INIT, redirectUri: returnUri() });
  await keycloak.login({ redirectUri: returnUri() });
}

export type SsoResult = { ok: true; response: LoginResponse } | { ok: false; error: unknown };

/** The one completion of this page load (a return from Keycloak is always a fresh page load). */
let finishing: Promise<SsoResult> | undefined;

/**
 * On /auth?sso=1: completes the code exchange (keycloak-js reads the code and its PKCE verifier) and
 * opens the gateway session. Runs once per page load, however many times React mounts the page.
 */
export function finishSso(portal: Portal): Promise<SsoResult> {
  finishing ??= (async (): Promise<SsoResult> => {
    try {
      const keycloak = await createKeycloak();
      const authenticated = await keycloak.init({ ...INIT, redirectUri: returnUri() });
      if (!authenticated || !keycloak.token || !keycloak.refreshToken)
        return { ok: false, error: new Error('SSO sign-in was not completed') };
      const { token, refreshToken } = keycloak;
      keycloak.clearToken();
      const response = await apiFetch<LoginResponse>('/api/auth/sso', {
        method: 'POST',
        body: { accessToken: token, refreshToken, portal },
      });
      return { ok: true, response };
    } catch (error) {
      console.warn('SSO sign-in failed', error);
      return { ok: false, error };
    }
  })();
  return finishing;
}
