import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from './api';

/**
 * What GET /api/users/{id} gives a product card about a manufacturer (non-admins get these fields; admins
 * get the whole user, which includes them and the username).
 */
export interface UserSummary {
  id: number;
  firstName: string;
  lastName: string;
  username?: string;
  yearsOfExperience: number | null;
  licenseNumber: string | null;
}

/** docs/product.md §9: manufacturer lookups are cached for 60 s. */
export const USER_LOOKUP_STALE_MS = 60_000;

/**
 * GET /api/users/{id}, or null when it fails (docs/product.md §7: "null on failure"). The request is not tied to the
 * query's abort signal: it is small, and a card that unmounts mid-request (paging, a refetch) should still
 * leave the answer in the cache for the next one asking.
 */
export async function fetchUserSummary(id: number): Promise<UserSummary | null> {
  try {
    return (await apiFetch<UserSummary>(`/api/users/${id}`)) ?? null;
  } catch {
    return null;
  }
}

export const userSummaryQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['/api/users', id] as const,
    queryFn: () => fetchUserSummary(id),
    staleTime: USER_LOOKUP_STALE_MS,
    gcTime: 5 * 60_000,
    retry: false,
  });

/** A user's details for display (product cards, admin tables), shared across every component asking. */
export function useUserSummary(id: number | null | undefined) {
  return useQuery({
    ...userSummaryQueryOptions(id ?? 0),
    enabled: typeof id === 'number' && id > 0,
  });
}

/** "First Last", else the username, else "User #id". */
export function userDisplayName(
  user: Pick<UserSummary, 'id' | 'firstName' | 'lastName' | 'username'>,
): string {
  const full = [user.firstName, user.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  return full || user.username || `User #${user.id}`;
}
