import { Button } from '@mantine/core';
import { EmptyState, PageHeader, useCurrentUser } from '@qm/ui';
import { IconPackage, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router-dom';

export function MarketPage() {
  const { isManufacturer } = useCurrentUser();
  return (
    <>
      <PageHeader
        title="Military Market"
        subtitle="Browse and acquire military-grade equipment and supplies"
        actions={
          isManufacturer && (
            <Button component={Link} to="/create-product" leftSection={<IconPlus size={16} />}>
              Create Item
            </Button>
          )
        }
      />
      <EmptyState
        icon={<IconPackage size={26} />}
        title="No Products Available"
        description="Check back later for new military equipment and supplies."
      />
    </>
  );
}
