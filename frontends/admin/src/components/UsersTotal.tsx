import { Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { userStatsQuery } from '../stats';

/** The dashboard's Users figure: every account, and how many wait for a decision. */
export function UsersTotal() {
  const stats = useQuery(userStatsQuery());
  if (stats.isPending) return <Loader size="xs" aria-label="Loading users total" />;
  if (stats.isError)
    return (
      <Text size="sm" c="dimmed">
        Total unavailable
      </Text>
    );
  return (
    <Stack gap={0}>
      <Text fw={700} fz="xl" data-testid="dashboard-users-total">
        {stats.data.total.toLocaleString('en-IN')}
      </Text>
      <Text size="xs" c="dimmed">
        {stats.data.total === 1 ? 'user' : 'users'} · {stats.data.byStatus.pending.toLocaleString('en-IN')}{' '}
        pending
      </Text>
    </Stack>
  );
}
