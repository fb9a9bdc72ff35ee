import { transactionSorts, transactionStatuses, walletV1 } from '@qm/contracts/grpc';
import { AdminTransactionsQuery, AdminWalletsQuery, formatMoney } from '@qm/contracts/rest';

import { z } from 'zod';
import type { Api } from '../../http/api';
import type { WalletContext } from './context';
import { AdminWalletViewSchema, TransactionViewSchema, adminWalletToRest, transactionToRest } from './rest';

/** The administrators' view of money (docs/product.md §2 /admin/transactions, the dashboard's card). */
export function registerAdminWalletRoutes(api: Api, { clients }: WalletContext): void {
  api.route({
    method: 'get',
    path: '/api/admin/wallets',
    tag: 'Wallet administration',
    summary:
      "Every user's wallet with its balance, paged, optionally only usernames containing ?search, and the " +
      'sum of all balances (administrators). A deleted user’s wallet is closed (isActive false).',
    access: 'admin',
    query: AdminWalletsQuery,
    response: z.object({
      wallets: z.array(AdminWalletViewSchema),
      total: z.number().int().describe('How many wallets match the search'),
      page: z.number().int(),
      pageSize: z.number().int(),
      totalBalance: z.string().describe('Sum of every user wallet, rupees with two decimals'),
    }),
    async handler({ query }) {
      const out = await clients.wallet.listWallets({
        page: query.page,
        pageSize: query.pageSize,
        search: query.search ?? '',
      });
      return {
        wallets: out.wallets.map(adminWalletToRest),
        total: out.total,
        page: query.page,
        pageSize: query.pageSize,
        totalBalance: formatMoney(out.totalBalancePaise),
      };
    },
  });

  api.route({
    method: 'get',
    path: '/api/admin/transactions',
    tag: 'Wallet administration',
    summary:
      "Every user's transactions (administrators): paged, optional status and user filters, sorted by date " +
      'or amount (default date_desc), with the counts per status, the total balance and the sum of completed amounts.',
    access: 'admin',
    query: AdminTransactionsQuery,
    response: z.object({
      transactions: z.array(TransactionViewSchema),
      total: z.number().int(),
      page: z.number().int(),
      pageSize: z.number().int(),
      pendingCount: z.number().int(),
      completedCount: z.number().int(),
      failedCount: z.number().int(),
      totalBalance: z.string(),
      completedAmount: z.string().describe('Sum of the amounts of every completed transaction, rupees'),
    }),
    async handler({ query }) {
      const out = await clients.wallet.listAllTransactions({
        page: query.page,
        pageSize: query.pageSize,
        status: query.status
          ? transactionStatuses.toProto(query.status)
          : walletV1.TransactionStatus.TRANSACTION_STATUS_UNSPECIFIED,
        sort: transactionSorts.toProto(query.sort),
        userId: query.userId ?? 0,
      });
      return {
        transactions: out.transactions.map(transactionToRest),
        total: out.total,
        page: query.page,
        pageSize: query.pageSize,
        pendingCount: out.pendingCount,
        completedCount: out.completedCount,
        failedCount: out.failedCount,
        totalBalance: formatMoney(out.totalBalancePaise),
        completedAmount: formatMoney(out.completedAmountPaise),
      };
    },
  });
}
