import type { AdminTransactionsPage, TransactionSortName, TransactionStatusName } from '@qm/contracts/rest';
import { apiFetch, toQueryString } from '@qm/ui';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';

export const ADMIN_TRANSACTIONS_KEY = ['/api/admin/transactions'] as const;

export type SortColumn = 'date' | 'amount';
export type SortDirection = 'asc' | 'desc';

/** The sort of the API (`date_desc`, ...) as a column and a direction, and back. */
export const parseSort = (sort: TransactionSortName) => {
  const [column, direction] = sort.split('_') as [SortColumn, SortDirection];
  return { column, direction };
};

/**
 * A click on a sortable column header (docs/product.md §2): the same column flips its direction, another column
 * starts descending (newest or largest first).
 */
export function toggleSort(current: TransactionSortName, clicked: SortColumn): TransactionSortName {
  const { column, direction } = parseSort(current);
  if (column !== clicked) return `${clicked}_desc`;
  return `${clicked}_${direction === 'desc' ? 'asc' : 'desc'}`;
}

export interface AdminTransactionsFilters {
  page: number;
  pageSize: number;
  status?: TransactionStatusName;
  sort: TransactionSortName;
  /** Only this user's transactions. */
  userId?: number;
}

/** GET /api/admin/transactions: one page, with the counts and the total balance of all wallets. */
export const adminTransactionsQuery = (filters: AdminTransactionsFilters) =>
  queryOptions({
    queryKey: [...ADMIN_TRANSACTIONS_KEY, filters] as const,
    queryFn: ({ signal }) =>
      apiFetch<AdminTransactionsPage>(`/api/admin/transactions${toQueryString({ ...filters })}`, { signal }),
    placeholderData: keepPreviousData,
  });
