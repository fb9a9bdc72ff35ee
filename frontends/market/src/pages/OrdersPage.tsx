import { Button, Tabs } from '@mantine/core';
import { ORDER_MESSAGES } from '@qm/contracts/rest';
import { PAGE_HEADINGS, PageHeader, useCurrentUser } from '@qm/ui';
import { IconPackageExport, IconShoppingBag } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { OrderList } from '../orders/OrderList';

/** /orders (docs/product.md §2): Purchases for everyone, Sales for Manufacturers only (docs/product.md §6). */
export function OrdersPage() {
  const { isManufacturer } = useCurrentUser();
  return (
    <>
      <PageHeader {...PAGE_HEADINGS['/orders']} />
      <Tabs defaultValue="purchases" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="purchases" leftSection={<IconShoppingBag size={16} />}>
            Purchases
          </Tabs.Tab>
          {isManufacturer && (
            <Tabs.Tab value="sales" leftSection={<IconPackageExport size={16} />}>
              Sales
            </Tabs.Tab>
          )}
        </Tabs.List>
        <Tabs.Panel value="purchases">
          <OrderList
            tab="purchased"
            failedTitle={ORDER_MESSAGES.fetchPurchasedFailed}
            emptyTitle={ORDER_MESSAGES.noPurchases}
            emptyText="Products you buy in the market appear here."
            emptyAction={
              <Button component={Link} to="/market" mt="sm">
                Browse Market
              </Button>
            }
          />
        </Tabs.Panel>
        {isManufacturer && (
          <Tabs.Panel value="sales">
            <OrderList
              tab="sold"
              failedTitle={ORDER_MESSAGES.fetchSoldFailed}
              emptyTitle={ORDER_MESSAGES.noSales}
              emptyText="Orders for your products appear here."
            />
          </Tabs.Panel>
        )}
      </Tabs>
    </>
  );
}
