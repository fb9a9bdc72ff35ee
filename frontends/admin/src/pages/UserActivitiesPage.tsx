import { PageHeader } from '@qm/ui';

export function UserActivitiesPage() {
  return <PageHeader title="User Management" subtitle="Select a user to view their activity history" />;
}
