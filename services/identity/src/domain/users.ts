import { IDENTITY_MESSAGES as MSG, type UserRole, type UserStatusName } from '@qm/contracts/rest';
import { alreadyExists, conflict, forbidden, invalid } from '@qm/platform';

/** Rules about users: no I/O here, only decisions on values. */

export type UserStatus = UserStatusName;
export type Portal = 'user' | 'admin';

/** A user as the service stores it (docs/product.md §3 users, without password fields). */
export interface UserRecord {
  id: number;
  username: string;
  /** Lowercased username: unique, so usernames are unique without regard to letter case. */
  usernameKey: string;
  email: string;
  emailKey: string;
  firstName: string;
  lastName: string;
  phoneNumber: string;
  role: UserRole;
  status: UserStatus;
  isAdmin: boolean;
  address?: string | null;
  bio?: string | null;
  licenseNumber?: string | null;
  yearsOfExperience?: number | null;
  rank?: string | null;
  barretNumber?: string | null;
  division?: string | null;
  specialization?: string | null;
  serviceYears?: number | null;
  rejectionReason?: string | null;
  /** Keycloak user id; empty while the registration is being written. */
  kcId?: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const usernameKey = (username: string) => username.trim().toLowerCase();
export const emailKey = (email: string) => email.trim().toLowerCase();
export const isReservedUsername = (username: string) => usernameKey(username) === 'admin';

export interface Registration {
  username: string;
  usernameKey: string;
  password: string;
  email: string;
  emailKey: string;
  firstName: string;
  lastName: string;
  phoneNumber: string;
  role: 'Army' | 'Manufacturer';
}

/** A registration that passed the REST rules of docs/product.md §5 (RegisterBody, checked at the edge). */
export type RegistrationInput = Omit<Registration, 'usernameKey' | 'emailKey'>;

export function newRegistration(v: RegistrationInput): Registration {
  return {
    username: v.username,
    usernameKey: usernameKey(v.username),
    password: v.password,
    email: v.email,
    emailKey: emailKey(v.email),
    firstName: v.firstName,
    lastName: v.lastName,
    phoneNumber: v.phoneNumber,
    role: v.role,
  };
}

export type Availability = { isAvailable: true; message: string } | { isAvailable: false; message: string };

/** `problem`: why the name breaks the username rules (UsernameSchema), if it does. */
export function availability(problem: string | undefined, taken: boolean): Availability {
  if (problem) return { isAvailable: false, message: problem };
  if (taken) return { isAvailable: false, message: MSG.usernameTaken };
  return { isAvailable: true, message: MSG.usernameAvailable };
}

export const duplicateUsername = () => alreadyExists(MSG.usernameTaken);
export const duplicateEmail = () => alreadyExists(MSG.emailTaken);

/** An admin's decision on a pending registration (docs/product.md §4). */
export interface Decision {
  status: 'approved' | 'rejected';
  rejectionReason: string | null;
}

export function decide(user: UserRecord, status: UserStatus | undefined, reason: string): Decision {
  if (status !== 'approved' && status !== 'rejected') throw invalid('Status must be approved or rejected');
  const trimmed = reason.trim();
  if (status === 'rejected' && !trimmed) throw invalid('Rejection reason is required');
  if (trimmed.length > 1000) throw invalid('Rejection reason must be at most 1000 characters');
  if (user.status !== 'pending')
    throw conflict(`Only pending users can be approved or rejected; this user is already ${user.status}`);
  return { status, rejectionReason: status === 'rejected' ? trimmed : null };
}

/** Who may be deleted by an administrator. */
export function assertDeletable(user: UserRecord): void {
  if (user.isAdmin || user.role === 'Admin') throw forbidden('Administrator accounts cannot be deleted');
}

// ---- sign-in ----------------------------------------------------------------------------------

export type StatusGate =
  { outcome: 'pending'; message: string } | { outcome: 'rejected'; message: string } | undefined;

/** Pending and rejected accounts do not sign in; they get the screens' dialogs. */
export function statusGate(user: UserRecord): StatusGate {
  if (user.status === 'pending') return { outcome: 'pending', message: MSG.pendingApproval };
  if (user.status === 'rejected') {
    const reason = user.rejectionReason ? ` Reason: ${user.rejectionReason}` : '';
    return { outcome: 'rejected', message: `${MSG.rejected}${reason}` };
  }
  return undefined;
}

/** /admin accepts administrators only; /auth refuses them (docs/product.md §2, §6). */
export function assertPortal(user: UserRecord, portal: Portal): void {
  const admin = user.isAdmin || user.role === 'Admin';
  if (portal === 'admin' && !admin) throw forbidden(MSG.accessDenied);
  if (portal === 'user' && admin) throw forbidden(MSG.adminMustUsePortal);
}

/** docs/product.md §2: admins land on the dashboard, everyone else on the wallet. */
export const redirectFor = (user: UserRecord) =>
  user.isAdmin || user.role === 'Admin' ? '/admin/dashboard' : '/wallet';

// ---- profile ----------------------------------------------------------------------------------

/** A profile update that passed the REST rules (ProfileUpdateBody, at the edge): null or "" clears. */
export type ProfileInput = Readonly<Record<string, string | number | null | undefined>>;

const MANUFACTURER_ONLY = new Set(['licenseNumber', 'yearsOfExperience']);

export interface ProfileChange {
  set: Partial<UserRecord>;
  unset: (keyof UserRecord)[];
  /** Field names that changed, for the activity details. */
  fields: string[];
}

/**
 * A profile update: fields present change, empty text or a value-less count clears; only a
 * Manufacturer may set licenseNumber and yearsOfExperience.
 */
export function planProfileUpdate(user: UserRecord, v: ProfileInput): ProfileChange {
  const set: Record<string, unknown> = {};
  const unset: string[] = [];
  for (const [k, value] of Object.entries(v)) {
    if (value === undefined) continue;
    const clearing = value === null || value === '';
    if (MANUFACTURER_ONLY.has(k) && user.role !== 'Manufacturer') {
      if (clearing) continue; // forms of other roles may send the empty field; nothing to change
      throw forbidden('Only manufacturers can set license number and years of experience');
    }
    if (clearing) {
      if (k === 'phoneNumber') set.phoneNumber = '';
      else unset.push(k);
    } else set[k] = value;
  }
  if (typeof set.email === 'string') set.emailKey = emailKey(set.email);
  const fields = [...Object.keys(set).filter((k) => k !== 'emailKey'), ...unset];
  return { set: set as Partial<UserRecord>, unset: unset as (keyof UserRecord)[], fields };
}

// ---- views --------------------------------------------------------------------------------------

/**
 * GET /api/users/{id}: admins and the user themself see everything; anyone else sees only an
 * approved manufacturer's card (what a product card shows), and nothing of other users.
 */
export function viewFor(
  target: UserRecord,
  caller: { userId: number; roles: readonly string[] },
): { kind: 'user' } | { kind: 'card' } | { kind: 'hidden' } {
  if (caller.roles.includes('Admin') || caller.userId === target.id) return { kind: 'user' };
  if (target.role === 'Manufacturer' && target.status === 'approved') return { kind: 'card' };
  return { kind: 'hidden' };
}
