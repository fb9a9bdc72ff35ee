import { identityV1, roles, userStatuses } from '@qm/contracts/grpc';
import type { User, UserCard } from '@qm/contracts/rest';

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

export const cardToRest = (c: identityV1.UserCard): UserCard => ({
  id: c.id,
  firstName: c.firstName,
  lastName: c.lastName,
  yearsOfExperience: c.yearsOfExperience ?? null,
  licenseNumber: c.licenseNumber ?? null,
});
