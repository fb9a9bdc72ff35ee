import { notifications } from '@mantine/notifications';
import { currentUserQueryOptions } from '@qm/ui';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';

/**
 * docs/product.md §8: a failure to load the current user other than 401 (which just means nobody is signed in) is
 * reported as "Failed to fetch user data: {status}". Shown once per failure, from the layout.
 */
export function useUserFetchErrorToast() {
  const { error, errorUpdatedAt } = useQuery(currentUserQueryOptions);
  useEffect(() => {
    if (!error) return;
    notifications.show({
      id: `user-fetch-error-${errorUpdatedAt}`,
      color: 'red',
      title: 'Error',
      message: error.message.startsWith('Failed to fetch user data')
        ? error.message
        : 'Failed to fetch user data. Please check your connection.',
    });
  }, [error, errorUpdatedAt]);
}
