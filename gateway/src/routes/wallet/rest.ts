import { transactionStatuses, transactionTypes, type walletV1 } from '@qm/contracts/grpc';
import {
  type AdminWalletView,
  formatMoney,
  type OwnWalletView,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  type TransactionView,
  type WalletView,
} from '@qm/contracts/rest';

import { z } from 'zod';

/**
 * The wallet's REST views (packages/contracts/src/api/wallet.ts) made from the service's messages:
 * paise become two-decimal rupee strings here and nowhere else. The zod schemas document them in
 * the OpenAPI document and are checked against the contract's types.
 */
const money = (what: string) => z.string().describe(`${what}: rupees with two decimals, e.g. "1234.50"`);

export const WalletViewSchema = z.object({
  balance: money('Posted balance'),
  heldBalance: money('Held by pending purchases'),
  availableBalance: money('What can be spent: balance less held'),
  currency: z.literal('INR'),
  isActive: z.boolean(),
  isPinSetup: z.boolean(),
}) satisfies z.ZodType<WalletView>;

export const OwnWalletViewSchema = WalletViewSchema.extend({
  proceedsOnHold: money(
    "A seller's sale proceeds kept for the refund window; not in the balance until released",
  ),
  heldProceeds: z
    .array(
      z.object({
        reference: z.string().describe("The sale's order reference"),
        amount: money('Proceeds'),
        releaseAt: z.string().describe('When they go to the balance (ISO 8601)'),
        refundRequested: z.boolean().describe('The buyer asked for a refund: held until it is decided'),
      }),
    )
    .describe('The soonest released first, at most 20'),
}) satisfies z.ZodType<OwnWalletView>;

export const TransactionViewSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  description: z.string(),
  amount: money('Amount'),
  type: z.enum(TRANSACTION_TYPES),
  status: z.enum(TRANSACTION_STATUSES),
  counterparty: z.string().describe("The other user's username for transfers; the provider for top-ups"),
  transferReference: z.string(),
  providerOrderId: z.string(),
  providerPaymentId: z.string(),
  senderWalletId: z.number().int().nullable(),
  receiverWalletId: z.number().int().nullable(),
  failureReason: z
    .string()
    .describe('Why a failed line failed (a card decline, an expired checkout); empty for other lines'),
}) satisfies z.ZodType<TransactionView>;

export const AdminWalletViewSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  username: z.string(),
  balance: money('Posted balance'),
  heldBalance: money('Held by pending purchases'),
  currency: z.literal('INR'),
  isActive: z.boolean(),
  isPinSetup: z.boolean(),
  lastTransactionAt: z.string().nullable(),
  createdAt: z.string(),
}) satisfies z.ZodType<AdminWalletView>;

/** A wallet and the transaction a money movement made (transfer, credited top-up). */
export const MovedSchema = z.object({
  message: z.string(),
  wallet: WalletViewSchema,
  transaction: TransactionViewSchema,
});

export function walletToRest(w: walletV1.Wallet): WalletView {
  return {
    balance: formatMoney(w.balancePaise),
    heldBalance: formatMoney(w.heldPaise),
    availableBalance: formatMoney(w.availablePaise),
    currency: 'INR',
    isActive: w.isActive,
    isPinSetup: w.isPinSetup,
  };
}

export function ownWalletToRest(r: walletV1.GetWalletResponse): OwnWalletView {
  return {
    ...walletToRest(r.wallet!),
    proceedsOnHold: formatMoney(r.proceedsOnHoldPaise),
    heldProceeds: r.heldProceeds.map((p) => ({
      reference: p.reference,
      amount: formatMoney(p.amountPaise),
      releaseAt: p.releaseAt,
      refundRequested: p.refundRequested,
    })),
  };
}

export function transactionToRest(t: walletV1.Transaction): TransactionView {
  return {
    id: t.id,
    userId: t.userId,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    description: t.description,
    amount: formatMoney(t.amountPaise),
    type: transactionTypes.fromProto(t.type) ?? 'transfer',
    status: transactionStatuses.fromProto(t.status) ?? 'pending',
    counterparty: t.counterparty,
    transferReference: t.transferReference,
    providerOrderId: t.providerOrderId,
    providerPaymentId: t.providerPaymentId,
    // Proto has no null: 0 is "no such side" (a top-up has no sending wallet).
    senderWalletId: t.senderWalletId || null,
    receiverWalletId: t.receiverWalletId || null,
    failureReason: t.failureReason,
  };
}

export function adminWalletToRest(w: walletV1.Wallet): AdminWalletView {
  return {
    id: w.id,
    userId: w.userId,
    username: w.username,
    balance: formatMoney(w.balancePaise),
    heldBalance: formatMoney(w.heldPaise),
    currency: 'INR',
    isActive: w.isActive,
    isPinSetup: w.isPinSetup,
    lastTransactionAt: w.lastTransactionAt || null,
    createdAt: w.createdAt,
  };
}
