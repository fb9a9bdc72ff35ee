import type { EligibilityView } from '@qm/contracts/rest';

/** Typing pauses this long before the receiver is checked (docs/product.md §5). */
export const ELIGIBILITY_DEBOUNCE_MS = 500;

export type Eligibility =
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'eligible'; message: string }
  | { state: 'ineligible'; message: string }
  | { state: 'error'; message: string };

/**
 * The receiver indicator from what is typed, what was last checked and the check's answer. An answer
 * counts only for the name it was asked about: until the debounced name catches up it is "checking".
 */
export function eligibilityOf(
  typed: string,
  checked: string,
  query: { isFetching: boolean; isError: boolean; data: EligibilityView | undefined },
): Eligibility {
  const name = typed.trim();
  if (name === '') return { state: 'idle' };
  if (name !== checked || query.isFetching) return { state: 'checking' };
  if (query.isError) return { state: 'error', message: 'Could not check this user. Please try again.' };
  if (!query.data) return { state: 'checking' };
  return query.data.eligible
    ? { state: 'eligible', message: query.data.message || 'User is eligible for transfers' }
    : { state: 'ineligible', message: query.data.message || 'Selected user is not eligible for transfers' };
}
