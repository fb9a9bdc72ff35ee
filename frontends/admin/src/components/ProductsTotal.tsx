import { Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { productsTotalQuery } from '../stats';

/** The dashboard's Products figure: the products list's total (spec §2). */
export function ProductsTotal() {
  const total = useQuery(productsTotalQuery());
  if (total.isPending) return <Loader size="xs" aria-label="Loading products total" />;
  if (total.isError)
    return (
      <Text size="sm" c="dimmed">
        Total unavailable
      </Text>
    );
  return (
    <Stack gap={0}>
      <Text fw={700} fz="xl" data-testid="dashboard-products-total">
        {total.data.toLocaleString('en-IN')}
      </Text>
      <Text size="xs" c="dimmed">
        {total.data === 1 ? 'product' : 'products'} listed
      </Text>
    </Stack>
  );
}
