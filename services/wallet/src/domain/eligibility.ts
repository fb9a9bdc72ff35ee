import type { Caller } from '@qm/platform';

/** What the eligibility check needs of a looked-up user. */
export interface Candidate {
  id: number;
  username: string;
  status: string;
  isAdmin: boolean;
  role: string;
}

export interface Eligibility {
  eligible: boolean;
  message: string;
}

export const ELIGIBILITY_MESSAGES = {
  eligible: 'User is eligible for transfers',
  notFound: 'No user with this username',
  self: 'You cannot transfer money to yourself',
  notApproved: 'This user’s account is not approved yet',
  admin: 'Administrators cannot receive transfers',
} as const;

/** Money goes only to another existing, approved, non-admin user (docs/product.md §5). */
export function eligibility(caller: Pick<Caller, 'userId'>, user: Candidate | null): Eligibility {
  const no = (message: string) => ({ eligible: false, message });
  if (!user) return no(ELIGIBILITY_MESSAGES.notFound);
  if (user.id === caller.userId) return no(ELIGIBILITY_MESSAGES.self);
  if (user.isAdmin || user.role === 'Admin') return no(ELIGIBILITY_MESSAGES.admin);
  if (user.status !== 'approved') return no(ELIGIBILITY_MESSAGES.notApproved);
  return { eligible: true, message: ELIGIBILITY_MESSAGES.eligible };
}
