import type {
  GenerateDescriptionInput,
  Product,
  ProductTypeName,
  UpdateProductInput,
} from '@qm/contracts/rest';
import { apiFetch, apiFetchPage, PRODUCTS_KEY, toQueryString } from '@qm/ui';
import { keepPreviousData, queryOptions, useQueryClient } from '@tanstack/react-query';

export type { Product, ProductTypeName };

/**
 * Every products query starts with this key, so one invalidation refreshes lists and single products
 * (from @qm/ui: the shell's live updates invalidate it when a product's stock changes).
 */
export { PRODUCTS_KEY };

/** docs/product.md §9: the market list refetches every 10 s and is stale after 5 s. */
export const MARKET_REFETCH_MS = 10_000;
export const MARKET_STALE_MS = 5_000;

/** Cards per market page (divides evenly into 1, 2, 3 and 4 columns). */
export const MARKET_PAGE_SIZE = 24;

export interface ProductFilters {
  page: number;
  pageSize: number;
  type?: ProductTypeName;
  q?: string;
}

/**
 * One page of GET /api/products (`page`, `pageSize`, optional `type` and `q`; total in X-Total-Count).
 * Page 1 without filters is the head of the plain list of docs/product.md §7 (newest first).
 */
export const productsPageQuery = (filters: ProductFilters) =>
  queryOptions({
    queryKey: [...PRODUCTS_KEY, filters] as const,
    queryFn: ({ signal }) =>
      apiFetchPage<Product>(
        `/api/products${toQueryString({
          page: filters.page,
          pageSize: filters.pageSize,
          type: filters.type,
          q: filters.q,
        })}`,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });

/** POST /api/products/{id}/views: records a product_view (a GET records nothing). */
export const recordProductView = (id: number) =>
  apiFetch<undefined>(`/api/products/${id}/views`, { method: 'POST' });

/** GET /api/products/{id}. */
export const productQuery = (id: number) =>
  queryOptions({
    queryKey: [...PRODUCTS_KEY, id] as const,
    queryFn: ({ signal }) => apiFetch<Product>(`/api/products/${id}`, { signal }),
  });

/** A price from a form (NumberInput gives a number or a string) as the API's string with two decimals. */
export function priceToApi(value: number | string): string {
  const text = (typeof value === 'number' ? String(value) : value).trim();
  // Pads by digits only ("12" → "12.00", "12.5" → "12.50"): no floating-point arithmetic on money.
  if (/^\d+$/.test(text)) return `${text}.00`;
  if (/^\d+\.\d$/.test(text)) return `${text}0`;
  return text;
}

export interface ProductWrite {
  name: string;
  price: string;
  description: string;
  stock: number;
}

export const createProduct = (body: ProductWrite & { type: ProductTypeName }) =>
  apiFetch<Product>('/api/products', { method: 'POST', body });

/** Only the changed fields and the version they are based on (see productChanges). */
export const updateProduct = (id: number, body: UpdateProductInput) =>
  apiFetch<Product>(`/api/products/${id}`, { method: 'PATCH', body });

export const deleteProduct = (id: number) =>
  apiFetch<{ message: string }>(`/api/products/${id}`, { method: 'DELETE' });

export const generateDescription = (body: GenerateDescriptionInput) =>
  apiFetch<{ description: string }>('/api/ai/generate-description', { method: 'POST', body });

/** Refreshes every products query (market pages, single products, the admin table in this client). */
export function useInvalidateProducts() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: PRODUCTS_KEY });
}
