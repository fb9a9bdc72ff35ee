import { roles } from '@qm/contracts/grpc';
import {
  CheckUsernameParams,
  CheckUsernameResponseSchema,
  RegisterBody,
  RegisterResponseSchema,
} from '@qm/contracts/rest';
import type { Api } from '../../http/api';
import { type IdentityContext, LIMITS } from './context';
import { userToRest } from './rest';

/** Registration of Army and Manufacturer accounts, and the username check of its form. */
export function registerRegistrationRoutes(api: Api, { clients, scaled }: IdentityContext): void {
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
}
