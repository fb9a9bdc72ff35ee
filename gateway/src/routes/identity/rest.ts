import { identityV1, type User, type UserCard } from '@qm/contracts';

const { Role, UserStatus } = identityV1;

const ROLE_NAMES: Record<number, User['role']> = {
  [Role.ROLE_ARMY]: 'Army',
  [Role.ROLE_NAVY]: 'Navy',
  [Role.ROLE_AIRFORCE]: 'Airforce',
  [Role.ROLE_MANUFACTURER]: 'Manufacturer',
  [Role.ROLE_ADMIN]: 'Admin',
};
const STATUS_NAMES: Record<number, User['status']> = {
  [UserStatus.USER_STATUS_PENDING]: 'pending',
  [UserStatus.USER_STATUS_APPROVED]: 'approved',
  [UserStatus.USER_STATUS_REJECTED]: 'rejected',
};
export const STATUS_TO_PROTO: Record<User['status'], identityV1.UserStatus> = {
  pending: UserStatus.USER_STATUS_PENDING,
  approved: UserStatus.USER_STATUS_APPROVED,
  rejected: UserStatus.USER_STATUS_REJECTED,
};

export function userToRest(u: identityV1.User): User {
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    phoneNumber: u.phoneNumber,
    role: ROLE_NAMES[u.role] ?? 'Army',
    status: STATUS_NAMES[u.status] ?? 'pending',
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
