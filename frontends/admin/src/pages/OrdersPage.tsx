import { PageHeader } from '@qm/ui';

export function OrdersPage() {
  return <PageHeader title="Order Management" />;
}
