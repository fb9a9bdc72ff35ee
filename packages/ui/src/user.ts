import type { UserRole, UserStatusName as UserStatus } from '@qm/contracts/rest';
import { queryOptions, useQuery } from '@tanstack/react-query';

export type { UserRole, UserStatus };

/** The current-user response (docs/product.md §3: at least these fields; the rest are optional profile fields). */
export interface CurrentUser {
  id: number;
  username: string;
  isAdmin: boolean;
  status: UserStatus;
  role: UserRole;
  firstName: string;
  lastName?: string;
  email?: string;
  phoneNumber?: string;
  address?: string;
  bio?: string;
  licenseNumber?: string;
  yearsOfExperience?: number;
}

/** One rule for the avatar everywhere: the name's initials, or the username's first two letters. */
export function userInitials(user: Pick<CurrentUser, 'username' | 'firstName' | 'lastName'>): string {
  const fromName = `${user.firstName?.trim()[0] ?? ''}${user.lastName?.trim()[0] ?? ''}`;
  return (fromName || user.username.slice(0, 2)).toUpperCase() || 'U';
}

export const CURRENT_USER_QUERY_KEY = ['/api/user'] as const;

/** GET /api/user with no-cache headers; 401 means nobody is signed in (null). */
export async function fetchCurrentUser(signal?: AbortSignal): Promise<CurrentUser | null> {
  const res = await fetch('/api/user', {
    credentials: 'include',
    cache: 'no-store',
    headers: { Accept: 'application/json', 'Cache-Control': 'no-cache', Pragma: 'no-cache' },
    signal,
  });
  if (res.status === 401) {
    await res.body?.cancel(); // release the connection; the body is not needed
    return null;
  }
  if (!res.ok) throw new Error(`Failed to fetch user data: ${res.status}`);
  return (await res.json()) as CurrentUser;
}

/** docs/product.md §9: refetch every 5 min and on window focus, fresh for 4 min, kept 6 min, one retry. */
export const currentUserQueryOptions = queryOptions({
  queryKey: CURRENT_USER_QUERY_KEY,
  queryFn: ({ signal }) => fetchCurrentUser(signal),
  refetchInterval: 300_000,
  staleTime: 240_000,
  gcTime: 360_000,
  retry: 1,
  refetchOnWindowFocus: true,
});

export interface CurrentUserState {
  user: CurrentUser | null;
  /** True until the first answer (user or null) is known. */
  isLoading: boolean;
  isAdmin: boolean;
  isManufacturer: boolean;
  refetch: () => Promise<unknown>;
}

/** The signed-in user (shared by the shell and every remote through the shared QueryClient). */
export function useCurrentUser(): CurrentUserState {
  const query = useQuery(currentUserQueryOptions);
  const user = query.data ?? null;
  return {
    user,
    isLoading: query.isPending,
    isAdmin: user?.isAdmin === true,
    isManufacturer: user?.role === 'Manufacturer',
    refetch: query.refetch,
  };
}
