import { Group, Pagination, SimpleGrid, Stack, Text } from '@mantine/core';
import { EmptyState, LoadError, PageLoader, RefreshingLoader } from '@qm/ui';
import { IconReceipt } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ORDERS_PAGE_SIZE, ordersQuery, type OrdersTab } from './api';
import { OrderCard } from './OrderCard';
import { RefundRequestDialog } from './RefundRequestDialog';
import type { PurchasedOrderView } from '@qm/contracts/rest';

export interface OrderListProps {
  tab: OrdersTab;
  /** docs/product.md §8: "Failed to fetch purchased orders" / "Failed to fetch sold orders". */
  failedTitle: string;
  emptyTitle: string;
  emptyText: string;
  emptyAction?: ReactNode;
}

/** One tab of /orders: the caller's purchases or sales as cards, newest first, paged. */
export function OrderList({ tab, failedTitle, emptyTitle, emptyText, emptyAction }: OrderListProps) {
  const [page, setPage] = useState(1);
  const orders = useQuery(ordersQuery(tab, page));
  // The purchase whose refund request is open in the dialog.
  const [refunding, setRefunding] = useState<PurchasedOrderView | null>(null);

  if (orders.isPending) return <PageLoader message="Loading orders..." />;
  if (orders.isError) {
    return (
      <LoadError
        title={failedTitle}
        error={orders.error}
        fallback="Please try again in a moment."
        onRetry={() => void orders.refetch()}
      />
    );
  }

  const { orders: items, total } = orders.data;
  if (items.length === 0 && page === 1) {
    return (
      <EmptyState
        icon={<IconReceipt size={26} />}
        title={emptyTitle}
        description={emptyText}
        action={emptyAction}
      />
    );
  }
  const totalPages = Math.max(1, Math.ceil(total / ORDERS_PAGE_SIZE));
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        {items.map((order) => (
          <OrderCard
            key={order.id}
            order={order}
            readAt={orders.dataUpdatedAt}
            onRequestRefund={
              tab === 'purchased' ? () => setRefunding(order as PurchasedOrderView) : undefined
            }
          />
        ))}
      </SimpleGrid>
      <RefundRequestDialog order={refunding} onClose={() => setRefunding(null)} />
      <Group justify="space-between" gap="sm">
        <Group gap="xs">
          <Text size="sm" c="dimmed">
            {total.toLocaleString('en-IN')} {total === 1 ? 'order' : 'orders'}
          </Text>
          {orders.isFetching && <RefreshingLoader />}
        </Group>
        {totalPages > 1 && (
          <Pagination
            total={totalPages}
            value={Math.min(page, totalPages)}
            onChange={setPage}
            getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
            siblings={1}
            boundaries={1}
          />
        )}
      </Group>
    </Stack>
  );
}
