import { Group, Loader, Pagination, SimpleGrid, Tabs, Text } from '@mantine/core';
import type { AdminOrdersPage, OrderScopeName } from '@qm/contracts/rest';
import { EmptyState, PageHeader } from '@qm/ui';
import { IconBuildingFactory2, IconReceipt, IconShieldCheck, IconShoppingCart } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { AdminOrderList } from '../components/AdminOrderList';
import { QueryPage } from '../components/QueryPage';
import { SummaryCard } from '../components/SummaryCard';
import { ADMIN_ORDERS_PAGE_SIZE, adminOrdersQuery, ORDER_TABS } from '../orders';

const count = (n: number) => n.toLocaleString('en-IN');

/** /admin/orders (docs/product.md §2): the stat cards, the three tabs and every order of the tab, paged. */
export function OrdersPage() {
  const [scope, setScope] = useState<OrderScopeName>('all');
  const [page, setPage] = useState(1);
  const orders = useQuery(adminOrdersQuery({ page, pageSize: ADMIN_ORDERS_PAGE_SIZE, scope }));

  const header = <PageHeader title="Order Management" subtitle="Every order placed in the marketplace." />;
  return (
    <QueryPage
      header={header}
      query={orders}
      loading="Loading orders..."
      failed={{ title: 'Failed to fetch orders', fallback: 'The orders could not be loaded.' }}
    >
      {(data) => {
        const totalPages = Math.max(1, Math.ceil(data.total / ADMIN_ORDERS_PAGE_SIZE));
        return (
          <>
            <OrderStats data={data} />
            <Tabs
              value={scope}
              onChange={(value) => {
                setScope((value as OrderScopeName | null) ?? 'all');
                setPage(1);
              }}
            >
              <Tabs.List mb="md">
                {ORDER_TABS.map((tab) => (
                  <Tabs.Tab key={tab.value} value={tab.value}>
                    {tab.label}
                  </Tabs.Tab>
                ))}
              </Tabs.List>
              {/* The selected tab's panel (its tab's aria-controls points here); the others are not rendered. */}
              <Tabs.Panel value={scope}>
                {data.orders.length === 0 ? (
                  <EmptyState icon={<IconReceipt size={26} />} title="No orders found" />
                ) : (
                  <AdminOrderList orders={data.orders} />
                )}
              </Tabs.Panel>
            </Tabs>
            <Group justify="space-between" mt="md" gap="sm">
              <Group gap="xs">
                <Text size="sm" c="dimmed">
                  {count(data.total)} {data.total === 1 ? 'order' : 'orders'}
                </Text>
                {orders.isFetching && <Loader size="xs" aria-label="Refreshing" />}
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
          </>
        );
      }}
    </QueryPage>
  );
}

function OrderStats({ data }: { data: AdminOrdersPage }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} mb="lg">
      <SummaryCard
        label="Total Orders"
        value={count(data.allCount)}
        icon={IconShoppingCart}
        detail={`${count(data.completedCount)} completed · ${count(data.pendingCount)} pending`}
      />
      <SummaryCard
        label="Army Purchases"
        value={count(data.armyCount)}
        icon={IconShieldCheck}
        color="green"
      />
      <SummaryCard
        label="Manufacturer Sales"
        value={count(data.manufacturerCount)}
        icon={IconBuildingFactory2}
        color="blue"
      />
    </SimpleGrid>
  );
}
