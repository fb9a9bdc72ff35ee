import type { Request, Response } from 'express';
import { z } from 'zod';
import { identityV1, roles, userStatuses } from '@qm/contracts/grpc';
import {
  AuthConfigSchema,
  CheckUsernameParams,
  CheckUsernameResponseSchema,
  IdentityMessageSchema,
  LoginBody,
  LoginResponseSchema,
  OtpSentSchema,
  ProfileUpdateBody,
  RecordActivityBody,
  RegisterBody,
  RegisterResponseSchema,
  RequestPasswordResetBody,
  ResetPasswordBody,
  SsoLoginBody,
  UpdateUserStatusBody,
  UpdateUserStatusResponseSchema,
  USER_STATUSES,
  type User,
  type UserCard,
  UserCardSchema,
  UserIdParams,
  UserSchema,
  UserStatusParams,
  VerifyCurrentPasswordBody,
  VerifyCurrentPasswordResponseSchema,
  VerifyPasswordOtpBody,
  VerifyPasswordOtpResponseSchema,
  VerifyPasswordResetOtpBody,
  IDENTITY_MESSAGES,
} from '@qm/contracts/rest';
import { GrpcStatus, isServiceError } from '@qm/platform';
import type { GatewayDeps } from '../app';
import type { Api } from '../http/api';
import { HttpError } from '../http/errors';
import { limit } from '../http/rate-limit';
import { isSessionManager, rolesOf, type SessionManager } from '../session';

const { UserStatus, LoginPortal, LoginOutcome } = identityV1;

export function userToRest(u: identityV1.User): User {
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    phoneNumber: u.phoneNumber,
    role: roles.fromProto(u.role) ?? 'Army',
    status: userStatuses.fromProto(u.status) ?? 'pending',
    isAdmin: u.isAdmin,
    address: u.address ?? null,
    bio: u.bio ?? null,
    licenseNumber: u.licenseNumber ?? null,
    yearsOfExperience: u.yearsOfExperience ?? null,
    rank: u.rank ?? null,
    barretNumber: u.barretNumber ?? null,
    division: u.division ?? null,
    specialization: u.specialization ?? null,
    serviceYears: u.serviceYears ?? null,
    rejectionReason: u.rejectionReason ?? null,
    createdAt: u.createdAt,
    updatedAt: u.updatedAt,
  };
}

const cardToRest = (c: identityV1.UserCard): UserCard => ({
  id: c.id,
  firstName: c.firstName,
  lastName: c.lastName,
  yearsOfExperience: c.yearsOfExperience ?? null,
  licenseNumber: c.licenseNumber ?? null,
});

/** Per client IP and gateway instance; 429 with a message (spec: rate limits on every code endpoint). */
const LIMITS = {
  login: { windowMs: 60_000, limit: 20, message: 'Too many sign-in attempts. Please try again in a minute.' },
  register: { windowMs: 15 * 60_000, limit: 20, message: 'Too many registrations. Please try again later.' },
  username: { windowMs: 60_000, limit: 120, message: 'Too many username checks. Please slow down.' },
  code: { windowMs: 15 * 60_000, limit: 30, message: 'Too many requests. Please try again later.' },
};

const NO_ACCOUNT = 'No account found with that email or username';

const NO_CACHE = {
  'Cache-Control': 'no-store, no-cache, must-revalidate, private',
  Pragma: 'no-cache',
  Expires: '0',
};

function grpcCode(err: unknown): number | undefined {
  return isServiceError(err) ? err.code : undefined;
}

export function registerIdentityRoutes(api: Api, { clients, config, log, sessions }: GatewayDeps): void {
  // The test harness may stand in a plain resolver; sign-in then answers 503.
  const manager = isSessionManager(sessions) ? sessions : undefined;
  const needSessions = (): SessionManager => {
    if (!manager) throw new HttpError(503, 'Sign-in is not available: no session store is configured');
    return manager;
  };
  const scaled = (l: (typeof LIMITS)[keyof typeof LIMITS]) =>
    limit({ ...l, limit: Math.round(l.limit * config.AUTH_RATE_LIMIT_SCALE) });
  const loginLimit = scaled(LIMITS.login);
  const codeLimit = () => scaled(LIMITS.code);

  /** Shared by password and SSO sign-in: a session on success, the screens' statuses otherwise. */
  async function finishLogin(
    req: Request,
    res: Response,
    call: () => Promise<identityV1.LoginResponse>,
  ): Promise<unknown> {
    const sessions = needSessions();
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

  // ---- sessions ---------------------------------------------------------------------------------

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
      return finishLogin(req, res, () =>
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
      return finishLogin(req, res, () =>
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

  // ---- registration -----------------------------------------------------------------------------

  api.route({
    method: 'post',
    path: '/api/register',
    tag: 'Identity',
    summary: 'Registers an Army or Manufacturer account in status pending; an administrator approves it.',
    access: 'public',
    body: RegisterBody,
    response: RegisterResponseSchema,
    status: 201,
    before: [scaled(LIMITS.register)],
    errors: { 409: 'Username or email already registered, or the registration is still processing' },
    async handler({ body }) {
      const out = await clients.identity.register({
        username: body.username,
        password: body.password,
        email: body.email,
        firstName: body.firstName,
        lastName: body.lastName,
        phoneNumber: body.phoneNumber,
        role: roles.toProto(body.role),
      });
      return { message: out.message, user: userToRest(out.user!) };
    },
  });

  api.route({
    method: 'get',
    path: '/api/check-username/:username',
    tag: 'Identity',
    summary: 'Whether a username can be registered (letter case ignored; admin is reserved).',
    access: 'public',
    params: CheckUsernameParams,
    response: CheckUsernameResponseSchema,
    before: [scaled(LIMITS.username)],
    async handler({ params }) {
      return clients.identity.checkUsername({ username: params.username });
    },
  });

  // ---- forgot password --------------------------------------------------------------------------

  api.route({
    method: 'post',
    path: '/api/request-password-reset',
    tag: 'Password',
    summary: 'Emails a 6-digit code (valid 10 minutes; a new one at most every 30 seconds, else 429).',
    access: 'public',
    body: RequestPasswordResetBody,
    response: OtpSentSchema,
    before: [codeLimit()],
    errors: { 404: NO_ACCOUNT, 429: 'Rate limit, or a code was sent less than 30 seconds ago' },
    async handler({ body }) {
      return clients.identity.requestPasswordReset({ emailOrUsername: body.emailOrUsername });
    },
  });

  api.route({
    method: 'post',
    path: '/api/verify-password-reset-otp',
    tag: 'Password',
    summary: 'Checks the code; 5 wrong tries void it. A verified code allows one reset within 10 minutes.',
    access: 'public',
    body: VerifyPasswordResetOtpBody,
    response: IdentityMessageSchema,
    before: [codeLimit()],
    errors: { 404: NO_ACCOUNT, 429: 'Rate limit, or too many wrong codes' },
    async handler({ body }) {
      return clients.identity.verifyPasswordResetOtp(body);
    },
  });

  api.route({
    method: 'post',
    path: '/api/reset-password',
    tag: 'Password',
    summary: 'Sets a new password; only within 10 minutes of a verified code, which it consumes (else 409).',
    access: 'public',
    body: ResetPasswordBody,
    response: IdentityMessageSchema,
    before: [codeLimit()],
    errors: { 404: NO_ACCOUNT, 409: 'No code verified in the last 10 minutes' },
    async handler({ body }) {
      return clients.identity.resetPassword({
        emailOrUsername: body.emailOrUsername,
        password: body.password,
      });
    },
  });

  // ---- the signed-in user -----------------------------------------------------------------------

  api.route({
    method: 'patch',
    path: '/api/user/profile',
    tag: 'Profile',
    summary:
      'Updates the fields present (null or "" clears an optional one). Only a Manufacturer may set licenseNumber and yearsOfExperience.',
    access: 'user',
    body: ProfileUpdateBody,
    response: UserSchema,
    errors: { 404: 'The account is gone', 409: IDENTITY_MESSAGES.emailTaken },
    async handler({ body }) {
      const text = (v: string | null | undefined) => (v === undefined ? undefined : (v ?? ''));
      const count = (v: number | null | undefined) =>
        v === undefined ? undefined : v === null ? {} : { value: v };
      const { user } = await clients.identity.updateProfile({
        firstName: body.firstName,
        lastName: body.lastName,
        email: body.email,
        phoneNumber: text(body.phoneNumber),
        address: text(body.address),
        bio: text(body.bio),
        licenseNumber: text(body.licenseNumber),
        yearsOfExperience: count(body.yearsOfExperience),
        rank: text(body.rank),
        barretNumber: text(body.barretNumber),
        division: text(body.division),
        specialization: text(body.specialization),
        serviceYears: count(body.serviceYears),
      });
      return userToRest(user!);
    },
  });

  api.route({
    method: 'post',
    path: '/api/user/activity',
    tag: 'Profile',
    summary:
      'Records an activity of the signed-in user (e.g. profile_view). Actions the server records itself (login, logout, failed_login, profile_update, password_*) are accepted but not recorded twice.',
    access: 'user',
    body: RecordActivityBody,
    response: z.object({ recorded: z.boolean() }),
    async handler({ body }) {
      return clients.identity.recordActivity({ action: body.action, details: body.details ?? '' });
    },
  });

  api.route({
    method: 'post',
    path: '/api/user/request-password-change-otp',
    tag: 'Password',
    summary:
      'Emails a 6-digit code for the Change Password dialog (a new one at most every 30 seconds, else 429).',
    access: 'user',
    response: OtpSentSchema,
    before: [codeLimit()],
    errors: { 404: 'The account is gone', 429: 'Rate limit, or a code was sent less than 30 seconds ago' },
    async handler() {
      return clients.identity.requestPasswordChangeOtp({});
    },
  });

  api.route({
    method: 'post',
    path: '/api/user/verify-current-password',
    tag: 'Password',
    summary: 'Checks the current password against Keycloak; remembered for the change for 10 minutes.',
    access: 'user',
    body: VerifyCurrentPasswordBody,
    response: VerifyCurrentPasswordResponseSchema,
    before: [codeLimit()],
    errors: { 404: 'The account is gone' },
    async handler({ body }) {
      return clients.identity.verifyCurrentPassword({ currentPassword: body.currentPassword });
    },
  });

  api.route({
    method: 'post',
    path: '/api/user/verify-password-otp',
    tag: 'Password',
    summary:
      'With otp only: checks the code. With otp and newPassword: changes the password (current password sent as ' +
      'currentPassword or verified through verify-current-password in the last 10 minutes; must differ), emails a confirmation.',
    access: 'user',
    body: VerifyPasswordOtpBody,
    response: VerifyPasswordOtpResponseSchema,
    before: [codeLimit()],
    errors: {
      404: 'The account is gone',
      409: 'The current password was not verified in the last 10 minutes',
      429: 'Rate limit, or too many wrong codes',
    },
    async handler({ body, req, res }) {
      const out = await clients.identity.verifyPasswordChangeOtp({
        otp: body.otp,
        newPassword: body.newPassword,
        currentPassword: body.currentPassword,
      });
      // The change ended every session of the user, this one too (its Keycloak session is gone):
      // the browser continues in a fresh one, created after the change so that it stays valid.
      if (out.changed && out.tokens && out.user && manager) {
        await manager.destroy(req, res);
        await manager.create(req, res, { user: out.user, tokens: out.tokens });
      }
      return { changed: out.changed, message: out.message };
    },
  });

  // ---- users --------------------------------------------------------------------------------------

  api.route({
    method: 'get',
    path: '/api/users',
    tag: 'Users',
    summary: 'All users (administrators). Optional ?status=pending|approved|rejected.',
    access: 'admin',
    query: z.object({
      status: z.enum(USER_STATUSES, { error: 'Status must be pending, approved or rejected' }).optional(),
    }),
    response: z.array(UserSchema),
    async handler({ query }) {
      const { users } = await clients.identity.listUsers({
        status: query.status ? userStatuses.toProto(query.status) : UserStatus.USER_STATUS_UNSPECIFIED,
      });
      return users.map(userToRest);
    },
  });

  api.route({
    method: 'get',
    path: '/api/users/:id',
    tag: 'Users',
    summary:
      'Administrators (and the user themself) get the whole user; anyone else gets only an approved manufacturer’s card ' +
      '(firstName, lastName, yearsOfExperience, licenseNumber), 404 for other users.',
    access: 'user',
    params: UserIdParams,
    response: z.union([UserSchema, UserCardSchema]),
    errors: { 404: 'User not found' },
    async handler({ params }) {
      const { view } = await clients.identity.getUser({ id: params.id });
      if (view?.$case === 'user') return userToRest(view.value);
      if (view?.$case === 'card') return cardToRest(view.value);
      throw new HttpError(404, 'User not found');
    },
  });

  api.route({
    method: 'patch',
    path: '/api/users/:userId/status',
    tag: 'Users',
    summary:
      'Approves or rejects a pending user (administrators); rejection needs a reason. Anything but a pending user: 409. The user is emailed.',
    access: 'admin',
    params: UserStatusParams,
    body: UpdateUserStatusBody,
    response: UpdateUserStatusResponseSchema,
    errors: { 404: 'User not found', 409: 'The user is not pending' },
    async handler({ params, body }) {
      const { user } = await clients.identity.updateUserStatus({
        userId: params.userId,
        status: userStatuses.toProto(body.status),
        rejectionReason: body.rejectionReason,
      });
      return { message: IDENTITY_MESSAGES.statusUpdated, user: userToRest(user!) };
    },
  });

  api.route({
    method: 'delete',
    path: '/api/users/:id',
    tag: 'Users',
    summary:
      'Deletes a user (administrators; not administrator accounts): Keycloak user and profile; the catalog removes their products.',
    access: 'admin',
    params: UserIdParams,
    response: IdentityMessageSchema,
    errors: { 404: 'User not found' },
    async handler({ params }) {
      await clients.identity.deleteUser({ userId: params.id });
      return { message: 'User deleted' };
    },
  });
}
