import { identityV1, roles, userStatuses } from '@qm/contracts/grpc';
import {
  AdminUsersQuery,
  IDENTITY_MESSAGES,
  IdentityMessageSchema,
  UpdateUserStatusBody,
  UpdateUserStatusResponseSchema,
  USER_STATUSES,
  UserCardSchema,
  UserIdParams,
  UserSchema,
  UserStatusParams,
} from '@qm/contracts/rest';
import { z } from 'zod';
import type { Api } from '../../http/api';
import { HttpError } from '../../http/errors';
import type { IdentityContext } from './context';
import { cardToRest, userToRest } from './rest';

const { Role, UserStatus } = identityV1;

/** Users as administrators manage them, and the public card of an approved manufacturer. */
export function registerUserRoutes(api: Api, { clients }: IdentityContext): void {
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
        search: '',
        role: Role.ROLE_UNSPECIFIED,
        page: 0,
        pageSize: 0,
      });
      return users.map(userToRest);
    },
  });

  api.route({
    method: 'get',
    path: '/api/admin/users',
    tag: 'Users',
    summary:
      'The administrators’ user list, in id order: ?search (part of the username, first or last name or email, ' +
      'any case), ?status, ?role, paged (?page, ?pageSize 1–100, default 20), with how many match.',
    access: 'admin',
    query: AdminUsersQuery,
    response: z.object({
      users: z.array(UserSchema),
      total: z.number().int().describe('How many users match the search and filters'),
      page: z.number().int(),
      pageSize: z.number().int(),
    }),
    async handler({ query }) {
      const { users, total } = await clients.identity.listUsers({
        search: query.search ?? '',
        status: query.status ? userStatuses.toProto(query.status) : UserStatus.USER_STATUS_UNSPECIFIED,
        role: query.role ? roles.toProto(query.role) : Role.ROLE_UNSPECIFIED,
        page: query.page,
        pageSize: query.pageSize,
      });
      return { users: users.map(userToRest), total, page: query.page, pageSize: query.pageSize };
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
      'Deletes a user (administrators; not administrator accounts): Keycloak user and profile, and every session of theirs at once; the catalog removes their products.',
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
