import { IDENTITY_MESSAGES as MSG } from '@qm/contracts/rest';
import { type Caller, invalid, unauthenticated } from '@qm/platform';
import { ACTIONS, DETAILS } from '../domain/activity';
import { assertPortal, type Portal, redirectFor, statusGate, usernameKey } from '../domain/users';
import { jwtPayload, KeycloakError, type TokenSet } from '../keycloak/client';
import type { StoredUser } from '../store/users';
import { bestEffort, type Deps, recordActivity } from './deps';

export type LoginResult =
  | { outcome: 'success'; message: string; user: StoredUser; tokens: TokenSet; redirectTo: string }
  | { outcome: 'pending' | 'rejected'; message: string };

const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';
const SSO_FAILED = 'SSO sign-in failed. Please sign in again.';

/** Sign-in (direct grant and SSO), refresh and logout. Tokens go back to the gateway only. */
export interface Sessions {
  /**
   * docs/product.md §4: pending and rejected accounts get their message (Keycloak keeps them disabled, so
   * their password cannot be checked); wrong credentials get one message whichever part was wrong.
   */
  login(input: {
    username: string;
    password: string;
    portal: Portal;
    userAgent: string;
  }): Promise<LoginResult>;
  /** "Sign in with SSO": the web client's tokens from keycloak-js, checked with Keycloak, for the same session. */
  ssoLogin(input: {
    accessToken: string;
    refreshToken: string;
    portal: Portal;
    userAgent: string;
  }): Promise<LoginResult>;
  /** New tokens for a session, still belonging to its user, who must still be approved. */
  refresh(input: {
    refreshToken: string;
    clientId: string;
    userId: number;
  }): Promise<{ tokens: TokenSet; user: StoredUser }>;
  /** Ends the Keycloak session; records the logout of the signed-in caller. */
  logout(caller: Caller | undefined, input: { refreshToken: string; clientId: string }): Promise<void>;
}

export function createSessions(d: Deps): Sessions {
  const activity = (user: { id: number; username: string }, action: string, details: string) =>
    recordActivity(d, user, action, details);

  async function refuseLogin(user: StoredUser, error: string, userAgent: string): Promise<never> {
    await activity(user, ACTIONS.failedLogin, DETAILS.failedLogin(error, userAgent));
    throw unauthenticated(MSG.invalidCredentials);
  }

  return {
    async login(input: {
      username: string;
      password: string;
      portal: Portal;
      userAgent: string;
    }): Promise<LoginResult> {
      const key = usernameKey(input.username);
      if (!key || !input.password) throw invalid('Username and password are required');
      const user = await d.users.byUsernameKey(key);
      if (!user || !user.kcId) throw unauthenticated(MSG.invalidCredentials);
      const gate = statusGate(user);
      if (gate) return gate;

      let grant = await d.kc.passwordGrant(user.usernameKey, input.password);
      if (!grant.ok && grant.reason === 'disabled' && user.status === 'approved') {
        // Approved while the Keycloak side was not yet enabled: finish that now.
        await d.kc.setEnabled(user.kcId, true);
        await d.users.setKcEnabled(user.id, true);
        grant = await d.kc.passwordGrant(user.usernameKey, input.password);
      }
      if (!grant.ok) {
        if (grant.reason === 'other')
          d.log.warn({ description: grant.description }, 'keycloak refused the grant');
        return refuseLogin(user, MSG.invalidCredentials, input.userAgent);
      }
      try {
        assertPortal(user, input.portal);
      } catch (err) {
        await bestEffort(d.log, 'end refused session', () =>
          d.kc.logout(grant.tokens.refreshToken, grant.tokens.clientId),
        );
        await activity(
          user,
          ACTIONS.failedLogin,
          DETAILS.failedLogin((err as Error).message, input.userAgent),
        );
        throw err;
      }
      await activity(user, ACTIONS.login, DETAILS.login(input.portal, false));
      return {
        outcome: 'success',
        message: MSG.loginSuccessful,
        user,
        tokens: grant.tokens,
        redirectTo: redirectFor(user),
      };
    },

    async ssoLogin(input: {
      accessToken: string;
      refreshToken: string;
      portal: Portal;
      userAgent: string;
    }): Promise<LoginResult> {
      const intro = await d.kc.introspect(input.accessToken);
      if (!intro.active || !intro.sub || intro.azp !== d.kc.webClientId) throw unauthenticated(SSO_FAILED);
      const user = await d.users.byKcId(intro.sub);
      if (!user) throw unauthenticated('This account is not registered with Quartermaster.');
      const gate = statusGate(user);
      if (gate) return gate;
      let tokens: TokenSet;
      try {
        tokens = await d.kc.refresh(input.refreshToken, d.kc.webClientId);
      } catch (err) {
        if (err instanceof KeycloakError && err.status < 500) throw unauthenticated(SSO_FAILED);
        throw err;
      }
      // The refresh token must belong to the same person as the access token.
      if (jwtPayload(tokens.accessToken).sub !== intro.sub) throw unauthenticated(SSO_FAILED);
      try {
        assertPortal(user, input.portal);
      } catch (err) {
        await activity(
          user,
          ACTIONS.failedLogin,
          DETAILS.failedLogin((err as Error).message, input.userAgent),
        );
        throw err;
      }
      await activity(user, ACTIONS.login, DETAILS.login(input.portal, true));
      return {
        outcome: 'success',
        message: MSG.loginSuccessful,
        user,
        tokens,
        redirectTo: redirectFor(user),
      };
    },

    async refresh(input: { refreshToken: string; clientId: string; userId: number }) {
      if (input.clientId !== d.kc.webClientId && input.clientId !== d.kc.clientId)
        throw invalid('Unknown client');
      let tokens: TokenSet;
      try {
        tokens = await d.kc.refresh(input.refreshToken, input.clientId);
      } catch (err) {
        if (err instanceof KeycloakError && err.status < 500) throw unauthenticated(SESSION_EXPIRED);
        throw err;
      }
      const sub = jwtPayload(tokens.accessToken).sub;
      const user = typeof sub === 'string' ? await d.users.byKcId(sub) : null;
      if (!user || user.id !== input.userId || user.status !== 'approved') {
        await bestEffort(d.log, 'end stale session', () => d.kc.logout(tokens.refreshToken, tokens.clientId));
        throw unauthenticated(SESSION_EXPIRED);
      }
      return { tokens, user };
    },

    async logout(
      caller: Caller | undefined,
      input: { refreshToken: string; clientId: string },
    ): Promise<void> {
      if (input.refreshToken && (input.clientId === d.kc.clientId || input.clientId === d.kc.webClientId))
        await bestEffort(d.log, 'keycloak logout', () => d.kc.logout(input.refreshToken, input.clientId));
      if (caller)
        await activity({ id: caller.userId, username: caller.username }, ACTIONS.logout, DETAILS.logout);
    },
  };
}
