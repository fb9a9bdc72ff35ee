import { Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { adminQueriesQuery } from '../queries';

/** The dashboard's Queries figure (spec §2): how many queries there are, from the counts alone. */
export function QueriesTotal() {
  const summary = useQuery(adminQueriesQuery({ page: 1, pageSize: 1, status: 'all' }));
  if (summary.isPending) return <Loader size="xs" aria-label="Loading queries total" />;
  if (summary.isError)
    return (
      <Text size="sm" c="dimmed">
        Total unavailable
      </Text>
    );
  return (
    <Stack gap={0}>
      <Text fw={700} fz="xl" data-testid="dashboard-queries-total">
        {summary.data.allCount.toLocaleString('en-IN')}
      </Text>
      <Text size="xs" c="dimmed">
        {summary.data.allCount === 1 ? 'query' : 'queries'} ·{' '}
        {summary.data.pendingCount.toLocaleString('en-IN')} pending
      </Text>
    </Stack>
  );
}
