import { Badge, Loader, Stack, Text } from '@mantine/core';
import type { Product } from '@qm/contracts/rest';
import {
  apiFetchPage,
  EmptyState,
  formatINR,
  PageHeader,
  type ResponsiveColumn,
  ResponsiveTable,
  toQueryString,
  userDisplayName,
  useUserSummary,
} from '@qm/ui';
import { IconPackage } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ListPager } from '../components/ListPager';
import { QueryPage } from '../components/QueryPage';
import { DeletedUser, NO_WRAP } from '../components/UserName';

const PAGE_SIZE = 50;

function ManufacturerName({ id }: { id: number }) {
  const { data, isPending } = useUserSummary(id);
  if (isPending) return <Loader size="xs" role="status" aria-label="Loading manufacturer" />;
  if (!data) return <DeletedUser />;
  return (
    <Stack gap={0}>
      <Text size="sm">{userDisplayName(data)}</Text>
      {data.username && (
        <Text size="xs" c="dimmed" style={NO_WRAP} title={data.username}>
          @{data.username}
        </Text>
      )}
    </Stack>
  );
}

function ProductName({ product }: { product: Product }) {
  return (
    <>
      <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
        {product.name}
      </Text>
      <Text size="xs" c="dimmed">
        {product.type}
      </Text>
    </>
  );
}

function StockBadge({ product }: { product: Product }) {
  return product.stock > 0 ? (
    <Badge color="green" variant="light">
      In Stock
    </Badge>
  ) : (
    <Badge color="red" variant="light">
      Out of Stock
    </Badge>
  );
}

const COLUMNS: ResponsiveColumn<Product>[] = [
  { header: 'ID', cell: (product) => product.id },
  { header: 'Name', cell: (product) => <ProductName product={product} />, hideOnCard: true },
  { header: 'Price', cell: (product) => formatINR(product.price), align: 'right', nowrap: true },
  { header: 'Stock', cell: (product) => product.stock.toLocaleString('en-IN'), align: 'right' },
  { header: 'Manufacturer', cell: (product) => <ManufacturerName id={product.manufacturerId} />, wide: true },
  { header: 'Status', cell: (product) => <StockBadge product={product} />, hideOnCard: true },
];

/** /admin/products: read-only list of every product (docs/product.md §2); cards on a phone. */
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

  return (
    <QueryPage
      header={header}
      query={products}
      loading="Loading products..."
      failed={{ title: 'Failed to fetch products', fallback: 'The products could not be loaded.' }}
    >
      {({ items, total }) => {
        if (total === 0) {
          return (
            <EmptyState
              icon={<IconPackage size={26} />}
              title="No products yet"
              description="Products appear here once manufacturers list them."
            />
          );
        }

        return (
          <>
            <ResponsiveTable
              rows={items}
              columns={COLUMNS}
              rowKey={(product) => product.id}
              label="Products"
              minWidth={720}
              rowAttributes={() => ({ 'data-testid': 'admin-product-row' })}
              cardAttributes={() => ({ 'data-testid': 'admin-product-card' })}
              cardTitle={(product) => <ProductName product={product} />}
              cardBadge={(product) => <StockBadge product={product} />}
            />
            <ListPager
              total={total}
              page={page}
              pageSize={PAGE_SIZE}
              noun={['product', 'products']}
              onPage={setPage}
            />
          </>
        );
      }}
    </QueryPage>
  );
}
