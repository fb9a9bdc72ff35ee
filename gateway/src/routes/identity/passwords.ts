import {
  IdentityMessageSchema,
  OtpSentSchema,
  RequestPasswordResetBody,
  ResetPasswordBody,
  VerifyCurrentPasswordBody,
  VerifyCurrentPasswordResponseSchema,
  VerifyPasswordOtpBody,
  VerifyPasswordOtpResponseSchema,
  VerifyPasswordResetOtpBody,
} from '@qm/contracts/rest';
import type { Api } from '../../http/api';
import type { IdentityContext } from './context';

/** Forgot password: a code by email, then a new password. */
export function registerPasswordResetRoutes(api: Api, { clients, codeLimit }: IdentityContext): void {
  api.route({
    method: 'post',
    path: '/api/request-password-reset',
    tag: 'Password',
    summary:
      'Emails a 6-digit code (valid 10 minutes; a new one at most every 30 seconds, else 429). The same answer whether ' +
      'the account exists or not; an unknown one gets no mail.',
    access: 'public',
    body: RequestPasswordResetBody,
    response: OtpSentSchema,
    before: [codeLimit()],
    errors: { 429: 'Rate limit, or a code was sent less than 30 seconds ago' },
    async handler({ body }) {
      return clients.identity.requestPasswordReset({ emailOrUsername: body.emailOrUsername });
    },
  });

  api.route({
    method: 'post',
    path: '/api/verify-password-reset-otp',
    tag: 'Password',
    summary:
      'Checks the code; 5 wrong tries void it (counted before comparing, so parallel guesses cannot pass it). A verified ' +
      'code allows one reset within 10 minutes. An unknown account is refused as a wrong code is.',
    access: 'public',
    body: VerifyPasswordResetOtpBody,
    response: IdentityMessageSchema,
    before: [codeLimit()],
    errors: {
      400: 'Invalid input, or a wrong, expired or missing code (the message says which)',
      429: 'Rate limit, or too many wrong codes',
    },
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
    errors: { 409: 'No code verified in the last 10 minutes (also for an unknown account)' },
    async handler({ body }) {
      return clients.identity.resetPassword({
        emailOrUsername: body.emailOrUsername,
        password: body.password,
      });
    },
  });
}

/** The signed-in user's Change Password dialog: a code by email and the current password. */
export function registerPasswordChangeRoutes(
  api: Api,
  { clients, codeLimit, manager }: IdentityContext,
): void {
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
}
