import { Card } from '@mantine/core';
import { PageHeader } from '@qm/ui';

export function CreateProductPage() {
  return (
    <>
      <PageHeader title="Create New Product" subtitle="List a product in the marketplace." />
      <Card withBorder radius="md" padding="lg" maw={720} />
    </>
  );
}
