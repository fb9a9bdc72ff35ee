import { transactionStatuses, walletV1 } from '@qm/contracts/grpc';
import { type TransactionsPage, TransactionsQuery, WALLET_LIMITS, WALLET_MESSAGES } from '@qm/contracts/rest';
import { z } from 'zod';
import type { Api } from '../../http/api';
import type { WalletContext } from './context';
import { OwnWalletViewSchema, TransactionViewSchema, ownWalletToRest, transactionToRest } from './rest';

const NO_WALLET = `"${WALLET_MESSAGES.adminNoWallet}"`;

/** The caller's own wallet: balance and history (docs/product.md §7 GET /api/wallet, GET /api/transactions). */
export function registerAccountRoutes(api: Api, { clients }: WalletContext): void {
  api.route({
    method: 'get',
    path: '/api/wallet',
    tag: 'Wallet',
    summary:
      "The caller's wallet (created on first use). A read only: the /wallet page loads it with " +
      'POST /api/wallet/views, which records the view.',
    access: 'user',
    response: OwnWalletViewSchema,
    errors: { 403: NO_WALLET },
    async handler() {
      return ownWalletToRest(await clients.wallet.getWallet({ recordView: false }));
    },
  });

  // The view is recorded by a POST, never by a GET (which a cross-site link or prefetch can trigger).
  api.route({
    method: 'post',
    path: '/api/wallet/views',
    tag: 'Wallet',
    summary:
      "The /wallet page's load: records a wallet_view activity and answers the caller's wallet, as " +
      'GET /api/wallet does.',
    access: 'user',
    response: OwnWalletViewSchema,
    errors: { 403: NO_WALLET },
    async handler() {
      return ownWalletToRest(await clients.wallet.getWallet({ recordView: true }));
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
      return ownTransactions(clients, query);
    },
  });
}

/** A page of the caller's history as GET /api/transactions answers it (the /wallet page's data too). */
export async function ownTransactions(
  clients: Pick<WalletContext['clients'], 'wallet'>,
  query: TransactionsQuery,
  opts?: { deadlineMs?: number },
): Promise<TransactionsPage> {
  const out = await clients.wallet.listTransactions(
    {
      page: query.page,
      pageSize: query.pageSize,
      status: query.status
        ? transactionStatuses.toProto(query.status)
        : walletV1.TransactionStatus.TRANSACTION_STATUS_UNSPECIFIED,
    },
    opts,
  );
  return {
    transactions: out.transactions.map(transactionToRest),
    total: out.total,
    page: query.page,
    pageSize: query.pageSize,
  };
}
