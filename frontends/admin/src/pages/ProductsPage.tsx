import { PageHeader } from '@qm/ui';

export function ProductsPage() {
  return <PageHeader title="Product Management" />;
}
