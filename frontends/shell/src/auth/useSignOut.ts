import { notifications } from '@mantine/notifications';
import { apiFetch, CURRENT_USER_QUERY_KEY, currentUserQueryOptions, errorMessage, toast } from '@qm/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';

/**
 * Sign out (docs/product.md §4): POST /api/logout, clear cached data, refetch the user (now none), go to /auth and
 * confirm with a toast. The logout activity is recorded by the server with the session it ends (the
 * identity service ignores a client-reported "logout"), so the page does not send one.
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  return useMutation({
    mutationFn: () => apiFetch('/api/logout', { method: 'POST' }),
    // Not repeated: a second logout after a lost answer has nothing left to end.
    retry: false,
    onSuccess: async () => {
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== CURRENT_USER_QUERY_KEY[0] });
      await queryClient.fetchQuery({ ...currentUserQueryOptions, staleTime: 0 }).catch(() => null);
      toast({ title: 'Logged out', message: 'You have been successfully logged out' }, { nextPage: true });
      void navigate('/auth');
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
