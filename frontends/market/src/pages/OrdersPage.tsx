import { Tabs } from '@mantine/core';
import { PageHeader, useCurrentUser } from '@qm/ui';

export function OrdersPage() {
  const { isManufacturer } = useCurrentUser();
  return (
    <>
      <PageHeader title="Orders" />
      <Tabs defaultValue="purchases">
        <Tabs.List>
          <Tabs.Tab value="purchases">Purchases</Tabs.Tab>
          {isManufacturer && <Tabs.Tab value="sales">Sales</Tabs.Tab>}
        </Tabs.List>
      </Tabs>
    </>
  );
}
