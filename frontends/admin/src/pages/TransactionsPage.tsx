import { PageHeader } from '@qm/ui';

export function TransactionsPage() {
  return <PageHeader title="Transaction Management" />;
}
