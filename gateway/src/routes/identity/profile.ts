import { ProfileUpdateBody, IDENTITY_MESSAGES, UserSchema } from '@qm/contracts/rest';
import type { Api } from '../../http/api';
import type { IdentityContext } from './context';
import { userToRest } from './rest';

/** The signed-in user's profile (the activities the browser records: ../activity.ts). */
export function registerProfileRoutes(api: Api, { clients }: IdentityContext): void {
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
}
