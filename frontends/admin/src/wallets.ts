import type { AdminWalletsPage } from '@qm/contracts/rest';
import { apiFetch, toQueryString } from '@qm/ui';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';

export const ADMIN_WALLETS_KEY = ['/api/admin/wallets'] as const;

/** Rows per page of /admin/wallets. */
export const ADMIN_WALLETS_PAGE_SIZE = 20;

export interface AdminWalletsFilters {
  page: number;
  pageSize: number;
  search?: string;
}

/** GET /api/admin/wallets: one page of the wallets whose username contains the search, and the sum of all. */
export const adminWalletsQuery = (filters: AdminWalletsFilters) =>
  queryOptions({
    queryKey: [...ADMIN_WALLETS_KEY, filters] as const,
    queryFn: ({ signal }) =>
      apiFetch<AdminWalletsPage>(`/api/admin/wallets${toQueryString({ ...filters })}`, { signal }),
    placeholderData: keepPreviousData,
  });

/** The page number of a URL search parameter: a whole number from 1, else 1. */
export function pageParam(value: string | null): number {
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 1 ? n : 1;
}
