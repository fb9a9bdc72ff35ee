import { apiFetch } from '@qm/ui';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';

/** Typing pauses this long before the name is checked. */
export const USERNAME_CHECK_DEBOUNCE_MS = 500;

export type UsernameNote =
  | { state: 'idle' }
  | { state: 'checking'; text: 'Checking username...' }
  | { state: 'available'; text: 'Username is available' }
  | { state: 'taken'; text: string }
  | { state: 'error'; text: 'Error checking username' };

interface CheckUsernameResponse {
  isAvailable: boolean;
  message?: string;
}

/**
 * The name the product reference's note is about: "admin" as typed (docs/product.md §2 "Typing admin as username"). Other letter
 * cases of the reserved name go to the server, which refuses the administrator on /auth with Access
 * Denied (docs/product.md §5) and reports the name as reserved when registering.
 */
export const isAdminName = (username: string) => username.trim() === 'admin';

/**
 * The live availability note of the registration form (docs/product.md §2, §9): GET /api/check-username/{name},
 * debounced, cached 2 s, garbage-collected after 5 s, never retried. Not asked for "admin" (reserved) or
 * while signing in. A failed check counts as unavailable (docs/product.md §7).
 */
export function useUsernameAvailability(username: string, enabled: boolean): UsernameNote {
  const name = username.trim();
  const [debounced] = useDebouncedValue(name, USERNAME_CHECK_DEBOUNCE_MS);
  const active = enabled && debounced.length > 0 && !isAdminName(debounced);

  const query = useQuery({
    queryKey: ['/api/check-username', debounced],
    queryFn: ({ signal }) =>
      apiFetch<CheckUsernameResponse>(`/api/check-username/${encodeURIComponent(debounced)}`, { signal }),
    enabled: active,
    staleTime: 2_000,
    gcTime: 5_000,
    retry: false,
  });

  if (!enabled || name.length === 0 || isAdminName(name)) return { state: 'idle' };
  if (name !== debounced || query.isFetching || query.isPending) {
    return { state: 'checking', text: 'Checking username...' };
  }
  if (query.isError) return { state: 'error', text: 'Error checking username' };
  if (query.data?.isAvailable) return { state: 'available', text: 'Username is available' };
  // The server explains other refusals (too short, characters); "already taken" is the usual one.
  return { state: 'taken', text: query.data?.message || 'Username is already taken' };
}
