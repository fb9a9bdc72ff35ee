import type { AdminQueriesPage, QueryFilterName, QueryStatusName } from '@qm/contracts/rest';
import { apiFetch, toQueryString } from '@qm/ui';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';

/** docs/product.md §7: a status change invalidates this list (every page and filter). */
export const ADMIN_QUERIES_KEY = ['/api/admin/queries'] as const;

/** Rows per page of /admin/queries (the API allows at most 32). */
export const ADMIN_QUERIES_PAGE_SIZE = 20;

/** The status filter of /admin/queries (docs/product.md §2). */
export const QUERY_FILTERS: { value: QueryFilterName; label: string }[] = [
  { value: 'all', label: 'All Queries' },
  { value: 'pending', label: 'Pending' },
  { value: 'in-progress', label: 'In Progress' },
  { value: 'resolved', label: 'Resolved' },
];

export const QUERY_STATUS_LOOK: Record<QueryStatusName, { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'yellow' },
  'in-progress': { label: 'In Progress', color: 'blue' },
  resolved: { label: 'Resolved', color: 'green' },
};

export interface AdminQueriesFilters {
  page: number;
  pageSize: number;
  status: QueryFilterName;
}

/** GET /api/admin/queries: one page of a status, with the four cards' counts over every query. */
export const adminQueriesQuery = (filters: AdminQueriesFilters) =>
  queryOptions({
    queryKey: [...ADMIN_QUERIES_KEY, filters] as const,
    queryFn: ({ signal }) =>
      apiFetch<AdminQueriesPage>(`/api/admin/queries${toQueryString({ ...filters })}`, { signal }),
    placeholderData: keepPreviousData,
  });
