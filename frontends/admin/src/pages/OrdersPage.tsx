import { SimpleGrid, Tabs } from '@mantine/core';
import type { AdminOrdersPage, OrderScopeName } from '@qm/contracts/rest';
import { EmptyState, PageHeader } from '@qm/ui';
import {
  type Icon,
  IconBuildingFactory2,
  IconReceipt,
  IconShieldCheck,
  IconShoppingCart,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { AdminOrderList } from '../components/AdminOrderList';
import { ListPager } from '../components/ListPager';
import { QueryPage } from '../components/QueryPage';
import { SummaryCard } from '../components/SummaryCard';
import { type OrderCard, orderCards } from '../orderCards';
import { ADMIN_ORDERS_PAGE_SIZE, adminOrdersQuery, ORDER_TABS } from '../orders';

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
      {(data) => (
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
          <ListPager
            total={data.total}
            page={page}
            pageSize={ADMIN_ORDERS_PAGE_SIZE}
            noun={['order', 'orders']}
            fetching={orders.isFetching}
            onPage={setPage}
          />
        </>
      )}
    </QueryPage>
  );
}

/** The cards' look; what each says is orderCards' (docs/product.md §2). */
const CARD_LOOK: Record<OrderCard['label'], { icon: Icon; color?: string }> = {
  'Total Orders': { icon: IconShoppingCart },
  'Army Purchases': { icon: IconShieldCheck, color: 'green' },
  'Manufacturer Sales': { icon: IconBuildingFactory2, color: 'blue' },
};

function OrderStats({ data }: { data: AdminOrdersPage }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} mb="lg">
      {orderCards(data).map((card) => (
        <SummaryCard key={card.label} {...card} {...CARD_LOOK[card.label]} />
      ))}
    </SimpleGrid>
  );
}
