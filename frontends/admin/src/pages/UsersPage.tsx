import { PageHeader } from '@qm/ui';

export function UsersPage() {
  return <PageHeader title="User Management" />;
}
