import {
  ConfirmEmailChangeBody,
  EmailChangeBody,
  EmailChangedSchema,
  IDENTITY_MESSAGES,
  OtpSentSchema,
  ProfileUpdateBody,
  UserSchema,
} from '@qm/contracts/rest';
import type { Api } from '../../http/api';
import type { IdentityContext } from './context';
import { userToRest } from './rest';

/** The signed-in user's profile (the activities the browser records: ../activity.ts). */
export function registerProfileRoutes(api: Api, { clients, codeLimit }: IdentityContext): void {
  api.route({
    method: 'patch',
    path: '/api/user/profile',
    tag: 'Profile',
    summary:
      'Updates the fields present (null or "" clears an optional one). Only a Manufacturer may set licenseNumber and yearsOfExperience. ' +
      'email may only differ from the current address in letter case: another address goes through /api/user/email-change.',
    access: 'user',
    body: ProfileUpdateBody,
    response: UserSchema,
    errors: {
      400: `Invalid input, or another email (${IDENTITY_MESSAGES.emailChangeNeedsConfirmation})`,
      404: 'The account is gone',
      409: IDENTITY_MESSAGES.emailTaken,
    },
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
    path: '/api/user/email-change',
    tag: 'Profile',
    summary:
      'Starts an email change: checks the current password, emails a 6-digit code (valid 10 minutes, 5 tries; a new one at ' +
      'most every 30 seconds, else 429) to the new address and a notice to the current one. Nothing changes yet.',
    access: 'user',
    body: EmailChangeBody,
    response: OtpSentSchema,
    before: [codeLimit()],
    errors: {
      400: `Invalid input, ${IDENTITY_MESSAGES.currentPasswordIncorrect} or ${IDENTITY_MESSAGES.emailUnchanged}`,
      404: 'The account is gone',
      409: IDENTITY_MESSAGES.emailTaken,
      429: 'Rate limit, or a code was sent less than 30 seconds ago',
    },
    async handler({ body }) {
      return clients.identity.requestEmailChange({
        newEmail: body.newEmail,
        currentPassword: body.currentPassword,
      });
    },
  });

  api.route({
    method: 'post',
    path: '/api/user/email-change/confirm',
    tag: 'Profile',
    summary:
      'Confirms an email change with the code sent to the new address: the change applies now and the old address is told.',
    access: 'user',
    body: ConfirmEmailChangeBody,
    response: EmailChangedSchema,
    before: [codeLimit()],
    errors: {
      400: 'Invalid input, or a wrong, expired or missing code (the message says which)',
      404: 'The account is gone',
      409: IDENTITY_MESSAGES.emailTaken,
      429: 'Rate limit, or too many wrong codes',
    },
    async handler({ body }) {
      const { user, message } = await clients.identity.confirmEmailChange({ otp: body.otp });
      return { message, user: userToRest(user!) };
    },
  });
}
