import { Button, Card, Group, Pagination, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { EmptyState, LoadError } from '@qm/ui';
import { IconPackage, IconSearch } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { startTransition, useEffect, useState } from 'react';
import type { Product } from '../api';
import { ProductCard } from '../components/ProductCard';

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

interface MarketResultsProps {
  products: UseQueryResult<{ items: Product[] }> | null;
  /** A search text or type filter is applied (changes the empty state). */
  filtered: boolean;
  isOwner: (product: Product) => boolean;
  /** Administrators oversee the market and buy nothing: no Purchase buttons (docs/product.md §2). */
  canPurchase: boolean;
  onEdit: (product: Product) => void;
  onDelete: (product: Product) => void;
  onClearFilters: () => void;
}

/**
 * The market's body: loading skeletons (also while `products` is null: the answer is not rendered yet,
 * MarketPage), the error with Retry, the two empty states, or the product grid.
 */
export function MarketResults({
  products,
  filtered,
  isOwner,
  canPurchase,
  onEdit,
  onDelete,
  onClearFilters,
}: MarketResultsProps) {
  const items = products?.data?.items ?? [];

  if (!products || products.isPending) {
    return (
      <SimpleGrid
        cols={{ base: 1, sm: 2, lg: 3 }}
        spacing="lg"
        aria-busy="true"
        role="status"
        aria-label="Loading products"
      >
        {Array.from({ length: 6 }, (_, i) => (
          <CardSkeleton key={i} />
        ))}
      </SimpleGrid>
    );
  }
  if (products.isError) {
    return (
      <LoadError
        title="Failed to fetch products"
        error={products.error}
        fallback="The products could not be loaded. Please try again."
        onRetry={() => void products.refetch()}
      />
    );
  }
  if (items.length === 0 && filtered) {
    return (
      <EmptyState
        icon={<IconSearch size={26} />}
        title="No matching products"
        description="No products match your search or type filter. Try different words or another type."
        action={
          <Button variant="light" onClick={onClearFilters}>
            Clear filters
          </Button>
        }
      />
    );
  }
  if (items.length === 0) {
    return (
      <EmptyState
        icon={<IconPackage size={26} />}
        title="No Products Available"
        description="Check back later for new military equipment and supplies."
      />
    );
  }
  return (
    <ProductGrid
      items={items}
      isOwner={isOwner}
      canPurchase={canPurchase}
      onEdit={onEdit}
      onDelete={onDelete}
    />
  );
}

/** The cards of the first three rows on a wide screen: what a first paint of the grid shows. */
const FIRST_CARDS = 9;

function ProductGrid({
  items,
  isOwner,
  canPurchase,
  onEdit,
  onDelete,
}: Pick<MarketResultsProps, 'isOwner' | 'canPurchase' | 'onEdit' | 'onDelete'> & { items: Product[] }) {
  // A page of 24 cards committed at once blocked the main thread for about 110 ms, and the first rows
  // waited for the last (Lighthouse's total blocking time and largest paint). The grid shows the first
  // rows, then renders the rest in a transition; later pages render whole (the grid stays mounted).
  const [shown, setShown] = useState(FIRST_CARDS);
  useEffect(() => startTransition(() => setShown(Infinity)), []);
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg" data-testid="product-grid">
      {items.slice(0, shown).map((product) => (
        <ProductCard
          key={product.id}
          product={product}
          isOwner={isOwner(product)}
          canPurchase={canPurchase}
          onEdit={onEdit}
          onDelete={onDelete}
        />
      ))}
    </SimpleGrid>
  );
}

interface MarketPaginationProps {
  total: number;
  totalPages: number;
  page: number;
  onChange: (page: number) => void;
}

/** The product count and page links under the grid. */
export function MarketPagination({ total, totalPages, page, onChange }: MarketPaginationProps) {
  return (
    <Group justify="space-between" mt="xl" gap="sm">
      <Text size="sm" c="dimmed">
        {total.toLocaleString('en-IN')} products
      </Text>
      <Pagination
        total={totalPages}
        value={Math.min(page, totalPages)}
        onChange={(next) => {
          onChange(next);
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
  );
}
