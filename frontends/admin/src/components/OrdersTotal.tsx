import { Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { adminOrdersQuery } from '../orders';

/** The dashboard's Orders figure (spec §2): how many orders there are, and how many completed. */
export function OrdersTotal() {
  const summary = useQuery(adminOrdersQuery({ page: 1, pageSize: 1, scope: 'all' }));
  if (summary.isPending) return <Loader size="xs" aria-label="Loading orders total" />;
  if (summary.isError)
    return (
      <Text size="sm" c="dimmed">
        Total unavailable
      </Text>
    );
  return (
    <Stack gap={0}>
      <Text fw={700} fz="xl" data-testid="dashboard-orders-total">
        {summary.data.allCount.toLocaleString('en-IN')}
      </Text>
      <Text size="xs" c="dimmed">
        {summary.data.allCount === 1 ? 'order' : 'orders'} ·{' '}
        {summary.data.completedCount.toLocaleString('en-IN')} completed
      </Text>
    </Stack>
  );
}
