import { notifications } from '@mantine/notifications';
import { apiFetch, CURRENT_USER_QUERY_KEY, currentUserQueryOptions, errorMessage } from '@qm/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';

/**
 * Sign out (spec §4): log the activity, POST /api/logout, clear cached data, refetch the user (now none),
 * go to /auth and confirm with a toast.
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  return useMutation({
    mutationFn: async () => {
      // Recorded while the session is still valid; failures are only logged locally (spec §7).
      await apiFetch('/api/user/activity', {
        method: 'POST',
        body: { action: 'logout', details: 'User logged out' },
      }).catch((error: unknown) => console.warn('activity log failed', error));
      await apiFetch('/api/logout', { method: 'POST' });
    },
    onSuccess: async () => {
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== CURRENT_USER_QUERY_KEY[0] });
      await queryClient.fetchQuery({ ...currentUserQueryOptions, staleTime: 0 }).catch(() => null);
      void navigate('/auth');
      notifications.show({ title: 'Logged out', message: 'You have been successfully logged out' });
    },
    onError: (error) => {
      notifications.show({
        color: 'red',
        title: 'Logout failed',
        message: errorMessage(error, 'Failed to log out. Please try again.'),
      });
    },
  });
}
