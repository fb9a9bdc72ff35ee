import { Loader, Stack, Text } from '@mantine/core';
import { formatINR } from '@qm/ui';
import { useQuery } from '@tanstack/react-query';
import { adminTransactionsQuery } from '../transactions';

/**
 * The dashboard's Transactions figure: the balance of all wallets (the wallets list summed, spec §2,
 * computed by the server) and how many transactions there are. Summing the amounts of all transactions
 * would count every transfer twice (both sides carry it), so the money figure is the balance.
 */
export function TransactionsTotal() {
  const summary = useQuery(adminTransactionsQuery({ page: 1, pageSize: 1, sort: 'date_desc' }));
  if (summary.isPending) return <Loader size="xs" aria-label="Loading transactions total" />;
  if (summary.isError)
    return (
      <Text size="sm" c="dimmed">
        Total unavailable
      </Text>
    );
  return (
    <Stack gap={0}>
      <Text fw={700} fz="xl" data-testid="dashboard-transactions-total">
        {formatINR(summary.data.totalBalance)}
      </Text>
      <Text size="xs" c="dimmed">
        Total balance · {summary.data.total.toLocaleString('en-IN')}{' '}
        {summary.data.total === 1 ? 'transaction' : 'transactions'}
      </Text>
    </Stack>
  );
}
