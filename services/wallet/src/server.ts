import { transactionSorts, transactionStatuses, transactionTypes, walletV1 } from '@qm/contracts/grpc';
import type { TransactionStatusName } from '@qm/contracts/rest';
import { type Caller, type GrpcServer, invalid, type UnaryImpl, validPaging } from '@qm/platform';
import type { Escrows } from './app/escrows';
import type { Holds } from './app/holds';
import type { SaleRefunds } from './app/sale-refunds';
import type { Pins } from './app/pins';
import type { MoneyStats } from './app/stats';
import type { Wallets } from './app/wallets';
import { type TransferState, userIdOf } from './domain/ledger';
import type { Account } from './store/accounts';
import type { HistoryLine, HistorySort } from './store/history';
import type { Transfer } from './store/transfers';

export const WALLET_SERVICE = 'qm.wallet.v1.WalletService';
const { TransferState: State, TransactionStatus } = walletV1;

// ---- proto ⇄ domain ---------------------------------------------------------------------------

export function walletToProto(
  a: Account,
  extra: { isPinSetup?: boolean; username?: string } = {},
): walletV1.Wallet {
  return {
    id: a.walletId ?? 0,
    userId: a.userId ?? 0,
    balancePaise: a.balance,
    heldPaise: a.held,
    availablePaise: a.available,
    currency: a.currency,
    isActive: a.isActive,
    isPinSetup: extra.isPinSetup ?? false,
    lastTransactionAt: a.lastTransactionAt ? new Date(a.lastTransactionAt).toISOString() : '',
    createdAt: new Date(a.createdAt).toISOString(),
    username: extra.username ?? '',
  };
}

export function lineToProto(l: HistoryLine): walletV1.Transaction {
  return {
    id: l.id,
    userId: l.userId,
    amountPaise: l.amount,
    type: transactionTypes.toProto(l.type),
    status: transactionStatuses.toProto(l.status),
    description: l.description,
    providerOrderId: l.providerOrderId,
    providerPaymentId: l.providerPaymentId,
    senderWalletId: l.senderWalletId ?? 0,
    receiverWalletId: l.receiverWalletId ?? 0,
    transferReference: l.transferReference,
    createdAt: new Date(l.createdAt).toISOString(),
    updatedAt: new Date(l.updatedAt).toISOString(),
    counterparty: l.counterparty,
    failureReason: l.failureReason ?? '',
  };
}

const STATES: Record<TransferState, walletV1.TransferState> = {
  initiated: State.TRANSFER_STATE_PENDING,
  debited: State.TRANSFER_STATE_PENDING,
  pending: State.TRANSFER_STATE_PENDING,
  posting: State.TRANSFER_STATE_PENDING,
  voiding: State.TRANSFER_STATE_PENDING,
  expiring: State.TRANSFER_STATE_PENDING,
  posted: State.TRANSFER_STATE_POSTED,
  voided: State.TRANSFER_STATE_VOIDED,
  expired: State.TRANSFER_STATE_EXPIRED,
  failed: State.TRANSFER_STATE_FAILED,
};

/** The sale a PaySale or CancelSalePayment names. */
function requestedSale(req: { sale?: walletV1.Sale }): walletV1.Sale {
  if (!req.sale) throw invalid('A sale is required');
  return req.sale;
}

export function pendingToProto(t: Transfer, reference: string): walletV1.PendingTransfer {
  return {
    reference,
    debitUserId: userIdOf(t.debitAccount) ?? 0,
    // A sale's proceeds go to its escrow; the seller is the user its line is for.
    creditUserId: userIdOf(t.creditAccount) ?? t.history.find((l) => l._id.endsWith(':in'))?.userId ?? 0,
    amountPaise: t.amount,
    state: STATES[t.state],
    timeoutAt: t.timeoutAt ? new Date(t.timeoutAt).toISOString() : '',
  };
}

const statusFromProto = (s: walletV1.TransactionStatus): TransactionStatusName | undefined => {
  if (s === TransactionStatus.TRANSACTION_STATUS_UNSPECIFIED) return undefined;
  const name = transactionStatuses.fromProto(s);
  if (!name) throw invalid('Unknown transaction status');
  return name;
};

const SORTS: Record<string, HistorySort> = {
  date_desc: { field: 'createdAt', direction: -1 },
  date_asc: { field: 'createdAt', direction: 1 },
  amount_desc: { field: 'amount', direction: -1 },
  amount_asc: { field: 'amount', direction: 1 },
};

const paging = (page: number, pageSize: number, max: number) => validPaging({ page, pageSize }, max);

// ---- handlers ---------------------------------------------------------------------------------

/** Card top-ups (app/topups.ts): what the handlers need of them. */
export interface TopUps {
  create(caller: Caller | undefined, req: walletV1.CreateTopUpRequest): Promise<walletV1.CreateTopUpResponse>;
  sandboxPay(
    caller: Caller | undefined,
    req: walletV1.SandboxPayRequest,
  ): Promise<walletV1.SandboxPayResponse>;
  verifyPayment(
    caller: Caller | undefined,
    req: walletV1.VerifyPaymentRequest,
  ): Promise<{ account: Account; line: HistoryLine }>;
  handleWebhook(req: { provider: string; payload: Buffer; signature: string }): Promise<{ handled: boolean }>;
}

export interface WalletUseCases {
  wallets: Wallets;
  pins: Pins;
  holds: Holds;
  escrows: Escrows;
  saleRefunds: SaleRefunds;
  topUps: TopUps;
  stats: MoneyStats;
}

/**
 * gRPC handlers: decode, let the use case authorise (the caller from the gateway's metadata, or the
 * orders service's proven identity for holds), map back. AppErrors become statuses in @qm/platform.
 */
export function walletHandlers(u: WalletUseCases): UnaryImpl<typeof walletV1.WalletServiceService> {
  const { wallets, pins, holds, escrows, saleRefunds, topUps, stats } = u;
  const withPin = async (caller: Caller | undefined, a: Account) =>
    walletToProto(a, { isPinSetup: caller ? await pins.gate.isSetUp(caller.userId) : false });
  const hold = (ref: string) => async (t: Transfer) => ({ transfer: pendingToProto(t, ref) });

  return {
    getWallet: async (req, ctx) => {
      const { account, isPinSetup } = await wallets.wallet(ctx.caller, req.recordView);
      const held = await escrows.heldFor(account.userId!);
      return {
        wallet: walletToProto(account, { isPinSetup }),
        proceedsOnHoldPaise: held.totalPaise,
        heldProceeds: held.items.map((p) => ({
          reference: p.reference,
          amountPaise: p.available,
          releaseAt: p.releaseAt ? new Date(p.releaseAt).toISOString() : '',
          refundRequested: !!p.frozen,
        })),
      };
    },
    listTransactions: async (req, ctx) => {
      const { page, pageSize } = paging(req.page, req.pageSize, 32);
      const { items, total } = await wallets.transactions(
        ctx.caller,
        page,
        pageSize,
        statusFromProto(req.status),
      );
      return { transactions: items.map(lineToProto), total };
    },

    createTopUp: (req, ctx) => topUps.create(ctx.caller, req),
    sandboxPay: (req, ctx) => topUps.sandboxPay(ctx.caller, req),
    verifyPayment: async (req, ctx) => {
      const { account, line } = await topUps.verifyPayment(ctx.caller, req);
      return { wallet: await withPin(ctx.caller, account), transaction: lineToProto(line) };
    },
    handleProviderWebhook: (req) => topUps.handleWebhook({ ...req, payload: Buffer.from(req.payload) }),

    getPinStatus: (_req, ctx) => pins.status(ctx.caller),
    setupPin: (req, ctx) => pins.choose(ctx.caller, req.pin, req.confirmPin),
    sendPinOtp: (_req, ctx) => pins.sendCode(ctx.caller),
    verifyPinOtp: (req, ctx) => pins.verifyCode(ctx.caller, req.otp),

    checkEligibility: (req, ctx) => wallets.eligibility(ctx.caller, req.username),
    transfer: async (req, ctx) => {
      const done = await wallets.transfer(ctx.caller, req);
      return {
        message: done.message,
        // A transfer needs the PIN, so it is set up: no need to read it again.
        wallet: walletToProto(done.wallet, { isPinSetup: true }),
        transaction: lineToProto(done.transaction),
      };
    },

    paySale: async (req, ctx) => {
      const sale = requestedSale(req);
      return hold(sale.reference)(await holds.pay(ctx.service, sale));
    },
    cancelSalePayment: async (req, ctx) => {
      const sale = requestedSale(req);
      return hold(sale.reference)(await holds.cancel(ctx.service, sale));
    },
    createPendingTransfer: (req, ctx) => holds.create(ctx.service, req).then(hold(req.reference)),
    postPendingTransfer: (req, ctx) => holds.post(ctx.service, req.reference).then(hold(req.reference)),
    voidPendingTransfer: (req, ctx) => holds.void(ctx.service, req.reference).then(hold(req.reference)),
    holdSaleProceeds: (req, ctx) => saleRefunds.hold(ctx.service, req.reference),
    unholdSaleProceeds: async (req, ctx) => {
      await saleRefunds.unhold(ctx.service, req.reference);
      return {};
    },
    refundSale: async (req, ctx) => {
      const r = await saleRefunds.refund(ctx.service, req.reference, req.attempt);
      return { source: r.source, amountPaise: r.amount };
    },

    listWallets: async (req, ctx) => {
      const { page, pageSize } = paging(req.page, req.pageSize, 100);
      if (req.search.length > 100) throw invalid('Search must be at most 100 characters');
      const {
        wallets: list,
        total,
        totalBalance,
      } = await wallets.listWallets(ctx.caller, page, pageSize, req.search);
      return {
        wallets: list.map((a) => walletToProto(a, { username: a.username ?? '' })),
        total,
        totalBalancePaise: totalBalance,
      };
    },
    getMoneyStats: async (req, ctx) => ({ days: await stats.perDay(ctx.caller, req.days) }),
    listAllTransactions: async (req, ctx) => {
      const { page, pageSize } = paging(req.page, req.pageSize, 100);
      const sortName = req.sort ? transactionSorts.fromProto(req.sort) : 'date_desc';
      if (!sortName) throw invalid('Unknown sort');
      const r = await wallets.listAllTransactions(
        ctx.caller,
        page,
        pageSize,
        SORTS[sortName]!,
        statusFromProto(req.status),
        req.userId || undefined,
      );
      return {
        transactions: r.items.map(lineToProto),
        total: r.total,
        pendingCount: r.pending,
        completedCount: r.completed,
        failedCount: r.failed,
        totalBalancePaise: r.totalBalance,
        completedAmountPaise: r.completedAmount,
      };
    },
  };
}

export function addWalletService(grpc: GrpcServer, u: WalletUseCases): void {
  grpc.add(WALLET_SERVICE, walletV1.WalletServiceService, walletHandlers(u));
}
