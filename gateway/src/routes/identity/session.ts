import type { Request, Response } from 'express';
import { identityV1 } from '@qm/contracts/grpc';
import {
  AuthConfigSchema,
  IDENTITY_MESSAGES,
  IdentityMessageSchema,
  LoginBody,
  LoginResponseSchema,
  SsoLoginBody,
  UserSchema,
} from '@qm/contracts/rest';
import { GrpcStatus } from '@qm/platform';
import type { Api } from '../../http/api';
import { HttpError } from '../../http/errors';
import { rolesOf, type SessionManager } from '../../session';
import { grpcCode, type IdentityContext, LIMITS, NO_CACHE } from './context';
import { userToRest } from './rest';

const { LoginPortal, LoginOutcome } = identityV1;

const needSessions = (manager: SessionManager | undefined): SessionManager => {
  if (!manager) throw new HttpError(503, 'Sign-in is not available: no session store is configured');
  return manager;
};

/** Shared by password and SSO sign-in: a session on success, the screens' statuses otherwise. */
async function finishLogin(
  { clients, manager }: IdentityContext,
  req: Request,
  res: Response,
  call: () => Promise<identityV1.LoginResponse>,
): Promise<unknown> {
  const sessions = needSessions(manager);
  let out: identityV1.LoginResponse;
  try {
    out = await call();
  } catch (err) {
    if (grpcCode(err) === GrpcStatus.PERMISSION_DENIED) {
      res.status(403).json({ status: 'access_denied', message: (err as { details: string }).details });
      return undefined;
    }
    throw err;
  }
  if (out.outcome === LoginOutcome.LOGIN_OUTCOME_SUCCESS && out.user && out.tokens) {
    // A new sign-in replaces the browser's previous session, always with a fresh id.
    const previous = await sessions.destroy(req, res);
    if (previous) void clients.identity.logout(previous).catch(() => undefined);
    await sessions.create(req, res, { user: out.user, tokens: out.tokens });
    return {
      status: 'success',
      message: out.message,
      redirectTo: out.redirectTo,
      isAdmin: out.user.isAdmin || rolesOf(out.user).includes('Admin'),
      user: userToRest(out.user),
    };
  }
  const status = out.outcome === LoginOutcome.LOGIN_OUTCOME_PENDING ? 'pending' : 'rejected';
  res.status(403).json({ status, message: out.message });
  return undefined;
}

const portalOf = (p: 'user' | 'admin') =>
  p === 'admin' ? LoginPortal.LOGIN_PORTAL_ADMIN : LoginPortal.LOGIN_PORTAL_USER;

/** Who is signed in, password and SSO sign-in, the SSO settings, sign-out. */
export function registerSessionRoutes(api: Api, ctx: IdentityContext): void {
  const { clients, config, log, manager, scaled } = ctx;
  const loginLimit = scaled(LIMITS.login);

  api.route({
    method: 'get',
    path: '/api/user',
    tag: 'Identity',
    summary: 'The signed-in user (never cached); 401 when nobody is signed in.',
    access: 'user',
    response: UserSchema,
    async handler({ req, res }) {
      res.set(NO_CACHE);
      try {
        const { user } = await clients.identity.getCurrentUser({});
        return userToRest(user!);
      } catch (err) {
        const code = grpcCode(err);
        if (code === GrpcStatus.NOT_FOUND || code === GrpcStatus.UNAUTHENTICATED) {
          await manager?.destroy(req, res);
          throw new HttpError(401, 'Not authenticated');
        }
        throw err;
      }
    },
  });

  api.route({
    method: 'post',
    path: '/api/login',
    tag: 'Identity',
    summary:
      'Sign in; sets the httpOnly session cookie. `portal` is "user" (the /auth screen, default: administrators are ' +
      'refused) or "admin" (the /admin screen: only administrators). 200 {status:"success", message, redirectTo, isAdmin, user}; ' +
      '403 {status:"pending"|"rejected", message} for accounts awaiting or refused approval; 403 {status:"access_denied", message} ' +
      'for the wrong portal; 401 "Invalid username or password".',
    access: 'public',
    body: LoginBody,
    response: LoginResponseSchema,
    before: [loginLimit],
    errors: { 401: IDENTITY_MESSAGES.invalidCredentials },
    async handler({ body, req, res }) {
      return finishLogin(ctx, req, res, () =>
        clients.identity.login({
          username: body.username,
          password: body.password,
          portal: portalOf(body.portal),
          userAgent: req.get('user-agent') ?? '',
        }),
      );
    },
  });

  api.route({
    method: 'post',
    path: '/api/auth/sso',
    tag: 'Identity',
    summary:
      '"Sign in with SSO": the access and refresh token keycloak-js obtained with the web client (authorization code + PKCE). ' +
      'Checked with Keycloak, then the same session and answers as POST /api/login.',
    access: 'public',
    body: SsoLoginBody,
    response: LoginResponseSchema,
    before: [loginLimit],
    errors: { 401: 'Keycloak refused the tokens, or the account is not registered here' },
    async handler({ body, req, res }) {
      return finishLogin(ctx, req, res, () =>
        clients.identity.ssoLogin({
          accessToken: body.accessToken,
          refreshToken: body.refreshToken,
          portal: portalOf(body.portal),
          userAgent: req.get('user-agent') ?? '',
        }),
      );
    },
  });

  api.route({
    method: 'get',
    path: '/api/auth/config',
    tag: 'Identity',
    summary: 'What keycloak-js needs for "Sign in with SSO" (Keycloak URL, realm, public client id).',
    access: 'public',
    response: AuthConfigSchema,
    async handler() {
      return {
        url: config.KEYCLOAK_PUBLIC_URL,
        realm: config.KEYCLOAK_REALM,
        clientId: config.KEYCLOAK_WEB_CLIENT_ID,
      };
    },
  });

  api.route({
    method: 'post',
    path: '/api/logout',
    tag: 'Identity',
    summary: 'Ends the session and its Keycloak session; clears the cookie. Succeeds without a session too.',
    access: 'public',
    response: IdentityMessageSchema,
    async handler({ req, res }) {
      const ended = manager ? await manager.destroy(req, res) : undefined;
      if (ended)
        await clients.identity
          .logout(ended)
          .catch((err: unknown) => log.warn({ err }, 'keycloak logout failed; the session is gone here'));
      return { message: 'Logged out successfully' };
    },
  });
}
