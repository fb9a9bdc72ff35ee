import { identityV1, roles, userStatuses } from '@qm/contracts/grpc';
import { IDENTITY_MESSAGES, ProfileUpdateBody, RegisterBody, type UserRole } from '@qm/contracts/rest';
import {
  adminCaller,
  AppError,
  type Caller,
  type GrpcServer,
  invalid,
  type RequestContext,
  signedInCaller,
  type UnaryImpl,
  unavailable,
  validPaging,
} from '@qm/platform';
import type { Accounts } from './app/accounts';
import type { EmailChanges } from './app/email-changes';
import type { Passwords } from './app/passwords';
import type { LoginResult, Sessions } from './app/sessions';
import type { Portal, ProfileInput, RegistrationInput, UserRecord } from './domain/users';
import { KeycloakError, KeycloakUnavailableError, type TokenSet } from './keycloak/client';
import type { z } from 'zod';

type Def = typeof identityV1.IdentityServiceService;
const { LoginOutcome } = identityV1;

// ---- proto ⇄ domain: the domain knows roles, statuses and portals by name ----------------------

/** The REST rules (the schemas the gateway and the forms use) applied to a gRPC request. */
function valid<T>(schema: z.ZodType<T>, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw invalid(parsed.error.issues[0]?.message ?? 'Invalid request');
  return parsed.data;
}

/** docs/product.md §5 registration rules; an unspecified role takes the default, an unknown one is refused. */
export function registrationFromProto(req: identityV1.RegisterRequest): RegistrationInput {
  const role =
    roles.fromProto(req.role) ?? (req.role === identityV1.Role.ROLE_UNSPECIFIED ? undefined : 'invalid');
  const { username, password, email, firstName, lastName, phoneNumber } = req;
  const v = valid(RegisterBody, {
    username,
    password,
    confirmPassword: password,
    email,
    firstName,
    lastName,
    phoneNumber,
    role,
  });
  return {
    username: v.username,
    password: v.password,
    email: v.email,
    firstName: v.firstName,
    lastName: v.lastName,
    phoneNumber: v.phoneNumber,
    role: v.role,
  };
}

/** Fields present change; a count's wrapper present without a value clears it. */
export function profileFromProto(req: identityV1.UpdateProfileRequest): ProfileInput {
  const { yearsOfExperience, serviceYears, ...text } = req;
  const input: Record<string, unknown> = Object.fromEntries(
    Object.entries(text).filter(([, v]) => v !== undefined),
  );
  if (yearsOfExperience) input.yearsOfExperience = yearsOfExperience.value ?? null;
  if (serviceYears) input.serviceYears = serviceYears.value ?? null;
  return valid(ProfileUpdateBody, input) as ProfileInput;
}

export const portalFromProto = (p: identityV1.LoginPortal): Portal =>
  p === identityV1.LoginPortal.LOGIN_PORTAL_ADMIN ? 'admin' : 'user';

const statusFromProto = userStatuses.fromProto;

const orNull = <T>(v: T | null | undefined) => (v === undefined || v === null ? undefined : v);

export function toProtoUser(u: UserRecord): identityV1.User {
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    phoneNumber: u.phoneNumber ?? '',
    role: roles.toProto(u.role),
    status: userStatuses.toProto(u.status),
    isAdmin: u.isAdmin,
    address: orNull(u.address),
    bio: orNull(u.bio),
    licenseNumber: orNull(u.licenseNumber),
    yearsOfExperience: orNull(u.yearsOfExperience),
    rank: orNull(u.rank),
    barretNumber: orNull(u.barretNumber),
    division: orNull(u.division),
    specialization: orNull(u.specialization),
    serviceYears: orNull(u.serviceYears),
    rejectionReason: orNull(u.rejectionReason),
    createdAt: u.createdAt.toISOString(),
    updatedAt: u.updatedAt.toISOString(),
  };
}

export function toCard(u: UserRecord): identityV1.UserCard {
  return {
    id: u.id,
    firstName: u.firstName,
    lastName: u.lastName,
    yearsOfExperience: orNull(u.yearsOfExperience),
    licenseNumber: orNull(u.licenseNumber),
  };
}

const signedIn = (ctx: RequestContext): Caller => signedInCaller(ctx.caller);
const admin = (ctx: RequestContext): Caller => adminCaller(ctx.caller);

/** Keycloak being down is a 503 for the user, not an internal error. */
function mapError(err: unknown): unknown {
  if (err instanceof AppError) return err;
  if (err instanceof KeycloakUnavailableError || (err instanceof KeycloakError && err.status >= 500))
    return unavailable('The sign-in service is temporarily unavailable. Please try again shortly.');
  return err;
}

const protoTokens = (t: TokenSet): identityV1.SessionTokens => ({
  accessToken: t.accessToken,
  refreshToken: t.refreshToken,
  expiresIn: t.expiresIn,
  refreshExpiresIn: t.refreshExpiresIn,
  clientId: t.clientId,
});

function loginResponse(r: LoginResult): identityV1.LoginResponse {
  if (r.outcome === 'success')
    return {
      outcome: LoginOutcome.LOGIN_OUTCOME_SUCCESS,
      message: r.message,
      user: toProtoUser(r.user),
      tokens: protoTokens(r.tokens),
      redirectTo: r.redirectTo,
    };
  return {
    outcome:
      r.outcome === 'pending' ? LoginOutcome.LOGIN_OUTCOME_PENDING : LoginOutcome.LOGIN_OUTCOME_REJECTED,
    message: r.message,
    redirectTo: '',
  };
}

/** gRPC handlers: decode, authorise with the caller from metadata, call the use case, map errors. */
export function registerIdentityServer(
  grpc: GrpcServer,
  app: { accounts: Accounts; sessions: Sessions; passwords: Passwords; emailChanges: EmailChanges },
): void {
  const { accounts, sessions, passwords, emailChanges } = app;
  const impl: UnaryImpl<Def> = {
    // ---- anonymous --------------------------------------------------------------------------
    register: async (req) => {
      const user = await accounts.register(registrationFromProto(req));
      return { user: toProtoUser(user), message: IDENTITY_MESSAGES.registrationSuccessful };
    },
    checkUsername: async (req) => accounts.checkUsername(req.username),
    login: async (req) =>
      loginResponse(
        await sessions.login({
          username: req.username,
          password: req.password,
          portal: portalFromProto(req.portal),
          userAgent: req.userAgent,
        }),
      ),
    ssoLogin: async (req) =>
      loginResponse(
        await sessions.ssoLogin({
          accessToken: req.accessToken,
          refreshToken: req.refreshToken,
          portal: portalFromProto(req.portal),
          userAgent: req.userAgent,
        }),
      ),
    refreshSession: async (req) => {
      const { tokens, user } = await sessions.refresh(req);
      return { tokens: protoTokens(tokens), user: toProtoUser(user) };
    },
    requestPasswordReset: async (req) => passwords.requestReset(req.emailOrUsername),
    verifyPasswordResetOtp: async (req) => passwords.verifyReset(req.emailOrUsername, req.otp),
    resetPassword: async (req) => passwords.reset(req.emailOrUsername, req.password),

    // ---- signed in --------------------------------------------------------------------------
    logout: async (req, ctx) => {
      await sessions.logout(ctx.caller, req);
      return {};
    },
    getCurrentUser: async (_req, ctx) => ({ user: toProtoUser(await accounts.current(signedIn(ctx))) }),
    updateProfile: async (req, ctx) => ({
      user: toProtoUser(await accounts.updateProfile(signedIn(ctx), profileFromProto(req))),
    }),
    recordActivity: async (req, ctx) => ({
      recorded: await accounts.recordActivity(signedIn(ctx), req.action, req.details),
    }),
    requestPasswordChangeOtp: async (_req, ctx) => passwords.requestChange(signedIn(ctx)),
    verifyCurrentPassword: async (req, ctx) => passwords.verifyCurrent(signedIn(ctx), req.currentPassword),
    verifyPasswordChangeOtp: async (req, ctx) => {
      const { changed, message, session } = await passwords.verifyChange(signedIn(ctx), {
        otp: req.otp,
        newPassword: req.newPassword,
        currentPassword: req.currentPassword,
      });
      return session
        ? { changed, message, tokens: protoTokens(session.tokens), user: toProtoUser(session.user) }
        : { changed, message };
    },
    requestEmailChange: async (req, ctx) =>
      emailChanges.request(signedIn(ctx), { newEmail: req.newEmail, currentPassword: req.currentPassword }),
    confirmEmailChange: async (req, ctx) => {
      const { user, message } = await emailChanges.confirm(signedIn(ctx), req.otp);
      return { user: toProtoUser(user), message };
    },
    getUser: async (req, ctx) => {
      const { user, view } = await accounts.get(signedIn(ctx), req.id);
      return {
        view:
          view === 'user'
            ? { $case: 'user', value: toProtoUser(user) }
            : { $case: 'card', value: toCard(user) },
      };
    },

    lookupUser: async (req, ctx) => {
      if (!req.by) throw invalid('Give an id or a username');
      const by = req.by.$case === 'id' ? { id: req.by.value } : { username: req.by.value };
      return { user: toProtoUser(await accounts.lookup(ctx.service, by)) };
    },

    // ---- administrators ---------------------------------------------------------------------
    listUsers: async (req, ctx) => {
      admin(ctx);
      const status = statusFromProto(req.status);
      if (!req.page) {
        const users = await accounts.list(status);
        return { users: users.map(toProtoUser), total: users.length };
      }
      validPaging(req, 100);
      if (req.search.length > 100) throw invalid('Search must be at most 100 characters');
      const role = req.role === identityV1.Role.ROLE_UNSPECIFIED ? undefined : roles.fromProto(req.role);
      if (req.role !== identityV1.Role.ROLE_UNSPECIFIED && !role) throw invalid('Unknown role');
      const { users, total } = await accounts.search({
        text: req.search,
        status,
        role,
        page: req.page,
        pageSize: req.pageSize,
      });
      return { users: users.map(toProtoUser), total };
    },
    updateUserStatus: async (req, ctx) => {
      const caller = admin(ctx);
      const user = await accounts.updateStatus(
        caller,
        req.userId,
        statusFromProto(req.status),
        req.rejectionReason,
      );
      return { user: toProtoUser(user) };
    },
    deleteUser: async (req, ctx) => {
      admin(ctx);
      await accounts.deleteUser(req.userId);
      return {};
    },
    getUserStats: async (_req, ctx) => {
      admin(ctx);
      const { byStatus, byRole } = await accounts.stats();
      return {
        pendingCount: byStatus.pending,
        approvedCount: byStatus.approved,
        rejectedCount: byStatus.rejected,
        roles: Object.entries(byRole).map(([role, count]) => ({
          role: roles.toProto(role as UserRole),
          count,
        })),
      };
    },
  };

  const mapped = Object.fromEntries(
    Object.entries(impl).map(([name, fn]) => [
      name,
      async (req: unknown, ctx: RequestContext) => {
        try {
          return await (fn as (r: unknown, c: RequestContext) => Promise<unknown>)(req, ctx);
        } catch (err) {
          throw mapError(err);
        }
      },
    ]),
  ) as unknown as UnaryImpl<Def>;
  grpc.add('qm.identity.v1.IdentityService', identityV1.IdentityServiceService, mapped);
}
