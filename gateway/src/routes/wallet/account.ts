import { transactionStatuses, walletV1 } from '@qm/contracts/grpc';
import { TransactionsQuery, WALLET_LIMITS, WALLET_MESSAGES } from '@qm/contracts/rest';
import { z } from 'zod';
import type { Api } from '../../http/api';
import type { WalletContext } from './context';
import { TransactionViewSchema, WalletViewSchema, transactionToRest, walletToRest } from './rest';

const NO_WALLET = `"${WALLET_MESSAGES.adminNoWallet}"`;

/** The caller's own wallet: balance and history (spec §7 GET /api/wallet, GET /api/transactions). */
export function registerAccountRoutes(api: Api, { clients }: WalletContext): void {
  api.route({
    method: 'get',
    path: '/api/wallet',
    tag: 'Wallet',
    summary:
      "The caller's wallet (created on first use). With ?view=1 the read is recorded as a wallet_view " +
      'activity (the /wallet page).',
    access: 'user',
    query: z.object({
      view: z
        .enum(['0', '1', 'true', 'false'], { error: 'view must be 1 or 0' })
        .optional()
        .describe('1: record a wallet_view activity'),
    }),
    response: WalletViewSchema,
    errors: { 403: NO_WALLET },
    async handler({ query }) {
      const { wallet } = await clients.wallet.getWallet({
        recordView: query.view === '1' || query.view === 'true',
      });
      return walletToRest(wallet!);
    },
  });

  api.route({
    method: 'get',
    path: '/api/transactions',
    tag: 'Wallet',
    summary:
      `The caller's transactions, newest first: page (from 1) and pageSize (1 to ` +
      `${WALLET_LIMITS.historyPageSizeMax}, default 20), optional status filter.`,
    access: 'user',
    query: TransactionsQuery,
    response: z.object({
      transactions: z.array(TransactionViewSchema),
      total: z.number().int(),
      page: z.number().int(),
      pageSize: z.number().int(),
    }),
    errors: { 403: NO_WALLET },
    async handler({ query }) {
      const out = await clients.wallet.listTransactions({
        page: query.page,
        pageSize: query.pageSize,
        status: query.status
          ? transactionStatuses.toProto(query.status)
          : walletV1.TransactionStatus.TRANSACTION_STATUS_UNSPECIFIED,
      });
      return {
        transactions: out.transactions.map(transactionToRest),
        total: out.total,
        page: query.page,
        pageSize: query.pageSize,
      };
    },
  });
}
