import { PageHeader } from '@qm/ui';

export function QueriesPage() {
  return <PageHeader title="User Queries" />;
}
