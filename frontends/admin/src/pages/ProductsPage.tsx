import { Alert, Badge, Button, Group, Loader, Pagination, Paper, Stack, Table, Text } from '@mantine/core';
import type { Product } from '@qm/contracts/rest';
import {
  apiFetchPage,
  EmptyState,
  errorMessage,
  formatINR,
  PageHeader,
  PageLoader,
  toQueryString,
  userDisplayName,
  useUserSummary,
} from '@qm/ui';
import { IconAlertTriangle, IconPackage } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';

const PAGE_SIZE = 50;

function ManufacturerName({ id }: { id: number }) {
  const { data, isPending } = useUserSummary(id);
  if (isPending) return <Loader size="xs" aria-label="Loading manufacturer" />;
  if (!data) return <Text c="dimmed">User #{id}</Text>;
  return (
    <Stack gap={0}>
      <Text size="sm">{userDisplayName(data)}</Text>
      {data.username && (
        <Text size="xs" c="dimmed">
          @{data.username}
        </Text>
      )}
    </Stack>
  );
}

/** /admin/products: read-only list of every product (spec §2). */
export function ProductsPage() {
  const [page, setPage] = useState(1);
  const products = useQuery({
    queryKey: ['/api/products', { page, pageSize: PAGE_SIZE, view: 'admin' }],
    queryFn: ({ signal }) =>
      apiFetchPage<Product>(`/api/products${toQueryString({ page, pageSize: PAGE_SIZE })}`, { signal }),
    placeholderData: keepPreviousData,
  });

  const header = (
    <PageHeader title="Product Management" subtitle="Every product listed in the marketplace." />
  );

  if (products.isPending) {
    return (
      <>
        {header}
        <PageLoader message="Loading products..." />
      </>
    );
  }
  if (products.isError) {
    return (
      <>
        {header}
        <Alert color="red" title="Failed to fetch products" icon={<IconAlertTriangle size={18} />}>
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{errorMessage(products.error, 'The products could not be loaded.')}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void products.refetch()}>
              Retry
            </Button>
          </Stack>
        </Alert>
      </>
    );
  }

  const { items, total } = products.data;
  const totalPages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  if (total === 0) {
    return (
      <>
        {header}
        <EmptyState
          icon={<IconPackage size={26} />}
          title="No products yet"
          description="Products appear here once manufacturers list them."
        />
      </>
    );
  }

  return (
    <>
      {header}
      <Paper withBorder radius="md">
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover verticalSpacing="sm" aria-label="Products">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">ID</Table.Th>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col" ta="right">
                  Price
                </Table.Th>
                <Table.Th scope="col" ta="right">
                  Stock
                </Table.Th>
                <Table.Th scope="col">Manufacturer</Table.Th>
                <Table.Th scope="col">Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((product) => (
                <Table.Tr key={product.id} data-testid="admin-product-row">
                  <Table.Td>{product.id}</Table.Td>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {product.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {product.type}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {formatINR(product.price)}
                  </Table.Td>
                  <Table.Td ta="right">{product.stock.toLocaleString('en-IN')}</Table.Td>
                  <Table.Td>
                    <ManufacturerName id={product.manufacturerId} />
                  </Table.Td>
                  <Table.Td>
                    {product.stock > 0 ? (
                      <Badge color="green" variant="light">
                        In Stock
                      </Badge>
                    ) : (
                      <Badge color="red" variant="light">
                        Out of Stock
                      </Badge>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      <Group justify="space-between" mt="md" gap="sm">
        <Text size="sm" c="dimmed">
          {total.toLocaleString('en-IN')} {total === 1 ? 'product' : 'products'}
        </Text>
        {totalPages > 1 && (
          <Pagination
            total={totalPages}
            value={Math.min(page, totalPages)}
            onChange={setPage}
            getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
            siblings={1}
            boundaries={1}
          />
        )}
      </Group>
    </>
  );
}
