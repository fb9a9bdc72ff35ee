import { AppError, validPaging } from '@qm/platform';
import type { z } from 'zod';
import {
  AdminActivitiesQuery,
  AdminQueriesQuery,
  AdminTransactionsQuery,
  AdminUsersQuery,
  ListProductsQuery,
  MyActivitiesQuery,
  NUMBER_LIMITS,
  OrdersQuery,
  ORDER_LIMITS,
  SUPPORT_LIMITS,
  TransactionsQuery,
  WALLET_LIMITS,
  ACTIVITY_LIMITS,
} from '../src/rest';

// Every list's page and page size: one rule, one wording, at the REST edge (the schemas) and in the
// services (@qm/platform validPaging on a gRPC request).
const LISTS: [string, z.ZodType, number][] = [
  ['MyActivitiesQuery', MyActivitiesQuery, ACTIVITY_LIMITS.pageSizeMax],
  ['AdminActivitiesQuery', AdminActivitiesQuery, ACTIVITY_LIMITS.pageSizeMax],
  ['OrdersQuery', OrdersQuery, ORDER_LIMITS.pageSizeMax],
  ['AdminQueriesQuery', AdminQueriesQuery, SUPPORT_LIMITS.pageSizeMax],
  ['AdminUsersQuery', AdminUsersQuery, NUMBER_LIMITS.pageSizeMax],
  ['TransactionsQuery', TransactionsQuery, WALLET_LIMITS.historyPageSizeMax],
  ['AdminTransactionsQuery', AdminTransactionsQuery, NUMBER_LIMITS.pageSizeMax],
  ['ListProductsQuery', ListProductsQuery, NUMBER_LIMITS.pageSizeMax],
];

const schemaMessage = (schema: z.ZodType, query: Record<string, string>) => {
  const r = schema.safeParse(query);
  return r.success ? undefined : r.error.issues[0]!.message;
};
const serviceMessage = (paging: { page?: number; pageSize?: number }, max: number) => {
  try {
    validPaging(paging, max);
    return undefined;
  } catch (err) {
    return (err as AppError).message;
  }
};

describe.each(LISTS)('%s paging', (_name, schema, max) => {
  it.each<[Record<string, string>, { page?: number; pageSize?: number }]>([
    [{ page: '-1' }, { page: -1 }],
    [{ page: '1000001' }, { page: 1_000_001 }],
    [{ pageSize: String(max + 1) }, { pageSize: max + 1 }],
    [{ pageSize: '-3' }, { pageSize: -3 }],
    [
      { page: '2', pageSize: String(max) },
      { page: 2, pageSize: max },
    ],
  ])('answers %j as the services do', (query, paging) => {
    expect(schemaMessage(schema, query)).toBe(serviceMessage(paging, max));
  });

  // A query string may hold what gRPC's int32 cannot: the schemas refuse it first.
  it('refuses what is not a whole number', () => {
    expect(schemaMessage(schema, { page: 'x' })).toBe('Page must be a whole number');
    expect(schemaMessage(schema, { page: '1.5' })).toBe('Page must be a whole number');
    expect(schemaMessage(schema, { pageSize: 'x' })).toBe('Page size must be a whole number');
  });
});
