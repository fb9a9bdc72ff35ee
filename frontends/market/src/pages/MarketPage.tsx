import { Button, Group, Select, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { PRODUCT_TYPES } from '@qm/contracts/rules';
import { MountedFromFirstOpening, PAGE_HEADINGS, PageHeader, useCurrentUser } from '@qm/ui';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, useDeferredValue, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { MARKET_PAGE_SIZE, MARKET_REFETCH_MS, type Product } from '../api';
import { MarketPagination, MarketResults } from './MarketResults';
import { marketProductsQuery, readMarketView } from './marketQuery';
import { useConfirmDeleteProduct } from './useConfirmDeleteProduct';

/** Only a product's manufacturer edits it: its form (and zod, @mantine/form) is fetched on the first Edit. */
const EditProductDialog = lazy(() =>
  import('../components/EditProductDialog').then((m) => ({ default: m.EditProductDialog })),
);

const ALL_TYPES = 'all';
const SEARCH_DEBOUNCE_MS = 300;

export function MarketPage() {
  const { user, isManufacturer, isAdmin } = useCurrentUser();
  const [searchParams, setSearchParams] = useSearchParams();
  const view = readMarketView(searchParams);
  const { page, type, q } = view;
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

  const latest = useQuery({ ...marketProductsQuery(view), refetchInterval: MARKET_REFETCH_MS });
  // The grid and the pagination under it render an answer deferred: React Query delivers it as a
  // synchronous update, and a page of cards rendered in one go held the main thread for 200–250 ms
  // (Lighthouse's total blocking time); deferred, React renders it in slices, showing the previous state
  // meanwhile. A first render whose answer is already there (prefetched with the remote) draws it at
  // once: that render is already sliced (the shell's is a transition), and a skeleton pass before the
  // cards put the first card 8 % later on a phone (docs/performance/2026-12-03-market-first-render.md).
  // Grid and pagination read the same value, or the pagination lands under the skeletons and moves.
  const products = useDeferredValue<typeof latest | null>(latest, latest.isSuccess ? latest : null);

  const total = products?.data?.total ?? 0;
  const totalPages = Math.max(1, Math.ceil(total / MARKET_PAGE_SIZE));

  // A page that no longer exists (its products were deleted meanwhile): show the last one instead.
  const pageOutOfRange = !!products?.isSuccess && !products.isPlaceholderData && page > totalPages;
  useEffect(() => {
    if (pageOutOfRange) setFilters({ page: totalPages });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- setFilters is recreated each render
  }, [pageOutOfRange, totalPages]);

  const confirmDelete = useConfirmDeleteProduct();

  const filtered = Boolean(type || q);

  return (
    <>
      <PageHeader
        {...PAGE_HEADINGS['/market']}
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

      <MarketResults
        products={products}
        filtered={filtered}
        isOwner={(product) => user !== null && user.id === product.manufacturerId}
        canPurchase={!isAdmin}
        onEdit={setEditing}
        onDelete={confirmDelete}
        onClearFilters={() => {
          setSearchText('');
          setFilters({ q: '', type: ALL_TYPES });
        }}
      />

      {products?.isSuccess && total > MARKET_PAGE_SIZE && (
        <MarketPagination
          total={total}
          totalPages={totalPages}
          page={page}
          onChange={(next) => setFilters({ page: next })}
        />
      )}

      <MountedFromFirstOpening opened={editing !== null}>
        <EditProductDialog product={editing} onClose={() => setEditing(null)} />
      </MountedFromFirstOpening>
    </>
  );
}
