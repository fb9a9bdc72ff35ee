import {
  Alert,
  Button,
  Card,
  Group,
  Pagination,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { toast } from '../toast';
import { PRODUCT_TYPES, type ProductTypeName } from '@qm/contracts/rest';
import { EmptyState, errorMessage, PageHeader, useCurrentUser } from '@qm/ui';
import { IconAlertTriangle, IconPackage, IconPlus, IconSearch } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import {
  deleteProduct,
  MARKET_PAGE_SIZE,
  MARKET_REFETCH_MS,
  MARKET_STALE_MS,
  productsPageQuery,
  useInvalidateProducts,
  type Product,
} from '../api';
import { EditProductDialog } from '../components/EditProductDialog';
import { ProductCard } from '../components/ProductCard';

const ALL_TYPES = 'all';
const SEARCH_DEBOUNCE_MS = 300;

function isProductType(value: string | null): value is ProductTypeName {
  return value !== null && (PRODUCT_TYPES as readonly string[]).includes(value);
}

function readPage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page > 0 ? page : 1;
}

function CardSkeleton() {
  return (
    <Card withBorder radius="md" padding="lg" aria-hidden>
      <Stack gap="sm">
        <Skeleton height={22} width="70%" />
        <Skeleton height={12} />
        <Skeleton height={12} />
        <Skeleton height={12} width="60%" />
        <Skeleton height={40} mt="sm" />
        <Skeleton height={36} mt="sm" />
      </Stack>
    </Card>
  );
}

export function MarketPage() {
  const { user, isManufacturer } = useCurrentUser();
  const invalidateProducts = useInvalidateProducts();
  const [searchParams, setSearchParams] = useSearchParams();
  const page = readPage(searchParams.get('page'));
  const typeParam = searchParams.get('type');
  const type = isProductType(typeParam) ? typeParam : undefined;
  const q = searchParams.get('q')?.trim() || undefined;
  const [searchText, setSearchText] = useState(q ?? '');
  const [editing, setEditing] = useState<Product | null>(null);

  /** Changes filters in the URL (so Back from a product returns to the same view); any change resets paging. */
  const setFilters = (changes: { page?: number; type?: string; q?: string }) => {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value === undefined || value === '' || value === ALL_TYPES || (key === 'page' && value === 1))
            next.delete(key);
          else next.set(key, String(value));
        }
        if (changes.page === undefined) next.delete('page');
        return next;
      },
      { replace: true },
    );
  };
  const applySearch = useDebouncedCallback(
    (text: string) => setFilters({ q: text.trim() }),
    SEARCH_DEBOUNCE_MS,
  );

  const products = useQuery({
    ...productsPageQuery({ page, pageSize: MARKET_PAGE_SIZE, type, q }),
    refetchInterval: MARKET_REFETCH_MS,
    staleTime: MARKET_STALE_MS,
  });

  const total = products.data?.total ?? 0;
  const totalPages = Math.max(1, Math.ceil(total / MARKET_PAGE_SIZE));

  // A page that no longer exists (its products were deleted meanwhile): show the last one instead.
  const pageOutOfRange = products.isSuccess && !products.isPlaceholderData && page > totalPages;
  useEffect(() => {
    if (pageOutOfRange) setFilters({ page: totalPages });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- setFilters is recreated each render
  }, [pageOutOfRange, totalPages]);

  const remove = useMutation({
    mutationFn: (product: Product) => deleteProduct(product.id),
    onSuccess: () => {
      toast({
        color: 'green',
        title: 'Product deleted',
        message: 'The product has been removed from the marketplace.',
      });
      void invalidateProducts();
    },
    onError: (error) => {
      toast({
        color: 'red',
        title: 'Failed to delete product',
        message: errorMessage(error, 'Please try again.'),
      });
    },
  });

  const confirmDelete = (product: Product) =>
    modals.openConfirmModal({
      title: 'Delete product',
      centered: true,
      children: (
        <Text size="sm">
          Delete <strong>{product.name}</strong>? It will be removed from the marketplace. This cannot be
          undone.
        </Text>
      ),
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(product),
    });

  const filtered = Boolean(type || q);
  const items = products.data?.items ?? [];

  let body;
  if (products.isPending) {
    body = (
      <SimpleGrid
        cols={{ base: 1, sm: 2, lg: 3 }}
        spacing="lg"
        aria-busy="true"
        aria-label="Loading products"
      >
        {Array.from({ length: 6 }, (_, i) => (
          <CardSkeleton key={i} />
        ))}
      </SimpleGrid>
    );
  } else if (products.isError) {
    body = (
      <Alert color="red" title="Failed to fetch products" icon={<IconAlertTriangle size={18} />}>
        <Stack gap="sm" align="flex-start">
          <Text size="sm">
            {errorMessage(products.error, 'The products could not be loaded. Please try again.')}
          </Text>
          <Button size="xs" variant="light" color="red" onClick={() => void products.refetch()}>
            Retry
          </Button>
        </Stack>
      </Alert>
    );
  } else if (items.length === 0 && filtered) {
    body = (
      <EmptyState
        icon={<IconSearch size={26} />}
        title="No matching products"
        description="No products match your search or type filter. Try different words or another type."
        action={
          <Button
            variant="light"
            onClick={() => {
              setSearchText('');
              setFilters({ q: '', type: ALL_TYPES });
            }}
          >
            Clear filters
          </Button>
        }
      />
    );
  } else if (items.length === 0) {
    body = (
      <EmptyState
        icon={<IconPackage size={26} />}
        title="No Products Available"
        description="Check back later for new military equipment and supplies."
      />
    );
  } else {
    body = (
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg" data-testid="product-grid">
        {items.map((product) => (
          <ProductCard
            key={product.id}
            product={product}
            isOwner={user !== null && user.id === product.manufacturerId}
            onEdit={setEditing}
            onDelete={confirmDelete}
          />
        ))}
      </SimpleGrid>
    );
  }

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

      <Group mb="lg" gap="sm" align="flex-end" role="search">
        <TextInput
          label="Search products"
          placeholder="Name or description"
          leftSection={<IconSearch size={16} />}
          value={searchText}
          onChange={(event) => {
            setSearchText(event.currentTarget.value);
            applySearch(event.currentTarget.value);
          }}
          style={{ flex: '1 1 240px' }}
          maxLength={200}
        />
        <Select
          label="Type"
          data={[
            { value: ALL_TYPES, label: 'All types' },
            ...PRODUCT_TYPES.map((t) => ({ value: t, label: t })),
          ]}
          value={type ?? ALL_TYPES}
          onChange={(value) => setFilters({ type: value ?? ALL_TYPES })}
          allowDeselect={false}
          w={{ base: '100%', xs: 180 }}
        />
      </Group>

      {body}

      {products.isSuccess && total > MARKET_PAGE_SIZE && (
        <Group justify="space-between" mt="xl" gap="sm">
          <Text size="sm" c="dimmed">
            {total.toLocaleString('en-IN')} products
          </Text>
          <Pagination
            total={totalPages}
            value={Math.min(page, totalPages)}
            onChange={(next) => {
              setFilters({ page: next });
              window.scrollTo({ top: 0, behavior: 'smooth' });
            }}
            getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
            getControlProps={(control) => ({
              'aria-label': {
                first: 'First page',
                last: 'Last page',
                next: 'Next page',
                previous: 'Previous page',
              }[control],
            })}
            siblings={1}
            boundaries={1}
          />
        </Group>
      )}

      <EditProductDialog product={editing} onClose={() => setEditing(null)} />
    </>
  );
}
