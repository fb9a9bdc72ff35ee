import { Loader, Stack, Text } from '@mantine/core';
import { type QueryKey, useQuery, type UseQueryOptions } from '@tanstack/react-query';
import type { ReactNode } from 'react';

/** Counts in Indian digit grouping, as the rest of the product shows them. */
export const grouped = (n: number) => n.toLocaleString('en-IN');
export const plural = (n: number, one: string, many = `${one}s`) => (n === 1 ? one : many);

/**
 * A dashboard card's figure (docs/product.md §2): its number, read from the list's own totals, and a caption.
 * `name` is the card's ("orders"): it names the spinner and the figure's test id.
 */
export function DashboardFigure<T, K extends QueryKey>({
  name,
  query,
  figure,
  caption,
}: {
  name: string;
  query: UseQueryOptions<T, Error, T, K>;
  figure(data: T): ReactNode;
  caption(data: T): ReactNode;
}) {
  const result = useQuery(query);
  if (result.isPending) return <Loader size="xs" role="status" aria-label={`Loading ${name} total`} />;
  if (result.isError)
    return (
      <Text size="sm" c="dimmed">
        Total unavailable
      </Text>
    );
  return (
    <Stack gap={0}>
      <Text fw={700} fz="xl" data-testid={`dashboard-${name}-total`}>
        {figure(result.data)}
      </Text>
      <Text size="xs" c="dimmed">
        {caption(result.data)}
      </Text>
    </Stack>
  );
}
