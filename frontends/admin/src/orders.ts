import type { AdminOrdersPage, OrderScopeName } from '@qm/contracts/rest';
import { apiFetch, toQueryString } from '@qm/ui';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';

export const ADMIN_ORDERS_KEY = ['/api/orders'] as const;

/** Rows per page of /admin/orders (the API allows at most 32: one feed bucket). */
export const ADMIN_ORDERS_PAGE_SIZE = 20;

/** The tabs of /admin/orders (docs/product.md §2) and the scope each asks the API for. */
export const ORDER_TABS: { value: OrderScopeName; label: string }[] = [
  { value: 'all', label: 'All Orders' },
  { value: 'army', label: 'Army Orders' },
  { value: 'manufacturer', label: 'Manufacturer Sales' },
];

export interface AdminOrdersFilters {
  page: number;
  pageSize: number;
  scope: OrderScopeName;
}

/** GET /api/orders: one page in a scope, with the counts of the stat cards over every order. */
export const adminOrdersQuery = (filters: AdminOrdersFilters) =>
  queryOptions({
    queryKey: [...ADMIN_ORDERS_KEY, filters] as const,
    queryFn: ({ signal }) =>
      apiFetch<AdminOrdersPage>(`/api/orders${toQueryString({ ...filters })}`, { signal }),
    placeholderData: keepPreviousData,
  });
