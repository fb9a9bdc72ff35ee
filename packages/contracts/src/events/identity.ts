/** What identity publishes (stream QM_IDENTITY, plus activity.recorded on QM_ACTIVITY). */
export const IDENTITY_SUBJECTS = {
  registered: 'identity.user.registered',
  approved: 'identity.user.approved',
  rejected: 'identity.user.rejected',
  /** The catalog deletes a deleted manufacturer's products on it. */
  deleted: 'identity.user.deleted',
  /** Profile fields others may show (name, email, phone) changed. */
  updated: 'identity.user.updated',
  /** The password changed: sessions begun before `notBefore` must end (the gateway drops its copies). */
  sessionsRevoked: 'identity.user.sessions_revoked',
} as const;

export interface UserRegisteredData {
  userId: number;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  role: string;
  status: 'pending';
}
export interface UserApprovedData {
  userId: number;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  role: string;
}
export interface UserRejectedData {
  userId: number;
  username: string;
  reason: string;
}
export interface UserDeletedData {
  userId: number;
  username: string;
  role: string;
}
export interface UserUpdatedData {
  userId: number;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  phoneNumber: string;
  role: string;
}

export interface UserSessionsRevokedData {
  userId: number;
  username: string;
  /** ISO time of the password change. */
  notBefore: string;
}
