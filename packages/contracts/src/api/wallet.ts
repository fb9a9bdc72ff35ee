import { z } from 'zod';
import { charCount } from './catalog';
import { acceptedPaise, parseRupees } from './money';
import { NUMBER_LIMITS, pagingQuery } from './numbers';
import {
  type PaymentProviderName,
  TRANSACTION_SORTS,
  TRANSACTION_STATUSES,
  type TransactionStatusName,
  type TransactionTypeName,
  WALLET_LIMITS,
  WALLET_MESSAGES,
} from './wallet-rules';

/**
 * REST shapes of docs/product.md §7 for the wallet (balance, history, add money, PIN, transfer, admin views),
 * shared by the gateway (validation, OpenAPI), the wallet service (the same rules and messages) and
 * the wallet and admin remotes. Money travels as a string with two decimals ("1234.50").
 */

/**
 * Why a rupee amount is refused, or undefined: a string ("1250.50") or JSON number with at most two
 * decimals, above 0, at most 99,999,999.99, read by parseRupees as the gateway's conversion is.
 */
export function amountProblem(input: unknown): string | undefined {
  const parsed = parseRupees(input);
  if (parsed.ok) return parsed.paise > 0 ? undefined : WALLET_MESSAGES.amountPositive;
  return {
    missing: WALLET_MESSAGES.amountRequired,
    format: WALLET_MESSAGES.amountFormat,
    negative: WALLET_MESSAGES.amountFormat,
    range: WALLET_MESSAGES.amountTooLarge,
  }[parsed.reason];
}

const amountField = z
  .union([z.string(), z.number()], {
    error: (iss) => (iss.input == null ? WALLET_MESSAGES.amountRequired : WALLET_MESSAGES.amountFormat),
  })
  .superRefine((v, ctx) => {
    const problem = amountProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  // The rules above, stated in the OpenAPI document: above 0, at most 8 digits before the point.
  .meta({
    anyOf: [
      { type: 'string', pattern: '^\\s*(0*[1-9]\\d{0,7}(\\.\\d{1,2})?|0+\\.(0[1-9]|[1-9]\\d?))\\s*$' },
      { type: 'number', minimum: 0.01, maximum: WALLET_LIMITS.amountMaxPaise / 100, multipleOf: 0.01 },
    ],
  })
  .describe(
    'Rupees with at most two decimals: "1250.50" (a JSON number such as 1250.5 is accepted too; leading ' +
      'zeros are ignored: "0012.50" is 12.50)',
  );

const text = (required: string, max: number, tooLong: string) =>
  z
    .string({
      error: (iss) => (iss.input == null ? required : `${required.replace(' is required', '')} must be text`),
    })
    .trim()
    .min(1, required)
    .refine((s) => charCount(s) <= max, tooLong)
    // Trimmed, so not blank; counted in characters as JSON Schema does: said so in the OpenAPI document.
    .meta({ maxLength: max, pattern: '\\S' });

const pinField = z
  .string({ error: (iss) => (iss.input == null ? WALLET_MESSAGES.pinRequired : 'PIN must be text') })
  .refine((s) => charCount(s) >= WALLET_LIMITS.pinMinChars, WALLET_MESSAGES.pinTooShort)
  .refine((s) => charCount(s) <= WALLET_LIMITS.pinMaxChars, WALLET_MESSAGES.pinTooLong)
  // Counted in characters, as JSON Schema does.
  .meta({ minLength: WALLET_LIMITS.pinMinChars, maxLength: WALLET_LIMITS.pinMaxChars });

const otpField = z.string({ error: WALLET_MESSAGES.otpFormat }).regex(/^\d{6}$/, WALLET_MESSAGES.otpFormat);

/** Why an Add Money amount is refused: the amount rules, then 100 to 100000 rupees inclusive. */
export function topUpProblem(input: unknown): string | undefined {
  const problem = amountProblem(input);
  if (problem) return problem === WALLET_MESSAGES.amountRequired ? problem : WALLET_MESSAGES.topUpRange;
  const paise = acceptedPaise(input);
  return paise < WALLET_LIMITS.topUpMinPaise || paise > WALLET_LIMITS.topUpMaxPaise
    ? WALLET_MESSAGES.topUpRange
    : undefined;
}

const topUpField = z
  .union([z.string(), z.number()], {
    error: (iss) => (iss.input == null ? WALLET_MESSAGES.amountRequired : WALLET_MESSAGES.topUpRange),
  })
  .superRefine((v, ctx) => {
    const problem = topUpProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({
    anyOf: [
      { type: 'string', pattern: '^\\s*0*([1-9]\\d{2,4}(\\.\\d{1,2})?|100000(\\.0{1,2})?)\\s*$' },
      {
        type: 'number',
        minimum: WALLET_LIMITS.topUpMinPaise / 100,
        maximum: WALLET_LIMITS.topUpMaxPaise / 100,
        multipleOf: 0.01,
      },
    ],
  })
  .describe(
    'Rupees, 100 to 100000 inclusive, at most two decimals: "500" or 500 (leading zeros are ignored)',
  );

/** POST /api/create-order. */
export const CreateTopUpBody = z.object({ amount: topUpField });
export type CreateTopUpBody = z.infer<typeof CreateTopUpBody>;

/** The Add Money form (docs/product.md §5): the same rule on the text of the number input. */
export const AddMoneyForm = z.object({ amount: topUpField });
export type AddMoneyForm = z.infer<typeof AddMoneyForm>;

/** POST /api/sandbox/pay: the sandbox checkout's card form. */
export const SandboxPayBody = z.object({
  orderId: text('Order id is required', 200, 'Order id is too long'),
  cardNumber: z
    .string({ error: WALLET_MESSAGES.cardNumberInvalid })
    .transform((s) => s.replace(/[\s-]/g, ''))
    .refine((s) => /^\d{12,19}$/.test(s), WALLET_MESSAGES.cardNumberInvalid)
    .meta({ pattern: '^[\\s-]*(\\d[\\s-]*){12,19}$' }),
  expiry: z
    .string({ error: WALLET_MESSAGES.cardExpiryInvalid })
    .trim()
    .regex(/^(0[1-9]|1[0-2])\s*\/\s*\d{2}$/, WALLET_MESSAGES.cardExpiryInvalid)
    .meta({ pattern: '^\\s*(0[1-9]|1[0-2])\\s*/\\s*\\d{2}\\s*$' }),
  cvc: z
    .string({ error: WALLET_MESSAGES.cardCvcInvalid })
    .trim()
    .regex(/^\d{3,4}$/, WALLET_MESSAGES.cardCvcInvalid)
    .meta({ pattern: '^\\s*\\d{3,4}\\s*$' }),
});
export type SandboxPayBody = z.infer<typeof SandboxPayBody>;

/** POST /api/verify-payment: what the provider's checkout handed the page. */
export const VerifyPaymentBody = z.object({
  providerOrderId: text('Provider order id is required', 200, 'Provider order id is too long'),
  providerPaymentId: text('Provider payment id is required', 200, 'Provider payment id is too long'),
  providerSignature: z
    .string({ error: 'Provider signature must be text' })
    .max(512, 'Provider signature is too long')
    .default(''),
});
export type VerifyPaymentBody = z.infer<typeof VerifyPaymentBody>;

/** POST /api/wallet/setup-pin. */
export const SetupPinBody = z
  .object({ pin: pinField, confirmPin: z.string({ error: WALLET_MESSAGES.pinsDontMatch }) })
  .refine((b) => b.pin === b.confirmPin, { message: WALLET_MESSAGES.pinsDontMatch, path: ['confirmPin'] });
export type SetupPinBody = z.infer<typeof SetupPinBody>;

/** The Setup Wallet PIN dialog (docs/product.md §5): the body plus the emailed code. */
export const PinSetupForm = z
  .object({ pin: pinField, confirmPin: z.string(), otp: z.string() })
  .refine((b) => b.pin === b.confirmPin, { message: WALLET_MESSAGES.pinsDontMatch, path: ['confirmPin'] });
export type PinSetupForm = z.infer<typeof PinSetupForm>;

/** POST /api/wallet/verify-otp. */
export const VerifyPinOtpBody = z.object({ otp: otpField });
export type VerifyPinOtpBody = z.infer<typeof VerifyPinOtpBody>;

/** POST /api/wallet/transfer. */
export const TransferBody = z.object({
  receiverUsername: text(
    WALLET_MESSAGES.receiverRequired,
    WALLET_LIMITS.usernameMaxChars,
    'Receiver username is too long',
  ),
  amount: amountField,
  pin: pinField,
});
export type TransferBody = z.infer<typeof TransferBody>;

/** The Transfer dialog (docs/product.md §5). */
export const TransferForm = z.object({
  receiverUsername: z.string().trim().min(1, WALLET_MESSAGES.receiverRequired),
  amount: z.string().superRefine((v, ctx) => {
    const problem = amountProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  pin: pinField,
});
export type TransferForm = z.infer<typeof TransferForm>;

/** GET /api/check-username-eligibility/{username}. */
export const EligibilityParams = z.object({
  username: text('Username is required', WALLET_LIMITS.usernameMaxChars, 'Username is too long'),
});

/** GET /api/transactions. */
export const TransactionsQuery = z.object({
  ...pagingQuery(WALLET_LIMITS.historyPageSizeMax),
  status: z
    .enum(TRANSACTION_STATUSES, { error: `Status must be one of ${TRANSACTION_STATUSES.join(', ')}` })
    .optional(),
});
export type TransactionsQuery = z.infer<typeof TransactionsQuery>;

/** GET /api/admin/transactions. */
export const AdminTransactionsQuery = TransactionsQuery.extend({
  pageSize: pagingQuery(NUMBER_LIMITS.pageSizeMax).pageSize,
  sort: z
    .enum(TRANSACTION_SORTS, { error: `Sort must be one of ${TRANSACTION_SORTS.join(', ')}` })
    .default('date_desc'),
  userId: z.coerce
    .number({ error: 'User id must be a number' })
    .int('User id must be a whole number')
    .min(1, 'User id must be positive')
    .max(Number.MAX_SAFE_INTEGER, 'User id is too large')
    .optional()
    .describe("Only this user's transactions"),
});
export type AdminTransactionsQuery = z.infer<typeof AdminTransactionsQuery>;

/** The administrators' search boxes: at most this many characters. */
export const ADMIN_SEARCH_MAX_CHARS = 100;

/** GET /api/admin/wallets. */
export const AdminWalletsQuery = z.object({
  page: TransactionsQuery.shape.page,
  pageSize: AdminTransactionsQuery.shape.pageSize,
  search: z
    .string()
    .trim()
    .max(ADMIN_SEARCH_MAX_CHARS, `Search must be at most ${ADMIN_SEARCH_MAX_CHARS} characters`)
    .optional()
    .describe('Case-insensitive part of the username'),
});
export type AdminWalletsQuery = z.infer<typeof AdminWalletsQuery>;

/** The optional Idempotency-Key header of money-moving calls (Stripe's semantics). */
export const IdempotencyKeyHeader = z
  .string()
  .min(1, 'Idempotency-Key must not be empty')
  .max(
    WALLET_LIMITS.idempotencyKeyMaxChars,
    `Idempotency-Key must be at most ${WALLET_LIMITS.idempotencyKeyMaxChars} characters`,
  )
  .regex(/^[\x21-\x7e]+$/, 'Idempotency-Key must be printable ASCII without spaces');

// ---- responses -------------------------------------------------------------------------------------

export interface WalletView {
  balance: string;
  heldBalance: string;
  availableBalance: string;
  currency: 'INR';
  isActive: boolean;
  isPinSetup: boolean;
}

/** One sale's proceeds in escrow (docs/adr/028). */
export interface HeldProceedsView {
  /** The order's reference. */
  reference: string;
  amount: string;
  /** When they go to the seller's balance (ISO 8601). */
  releaseAt: string;
  /** The buyer asked for a refund: held until an administrator decides. */
  refundRequested: boolean;
}

/** The caller's own wallet (GET /api/wallet): with a seller's proceeds waiting out the refund window. */
export interface OwnWalletView extends WalletView {
  /** Not in `balance` until released. */
  proceedsOnHold: string;
  /** The soonest released first, at most 20. */
  heldProceeds: HeldProceedsView[];
}

export interface TransactionView {
  id: number;
  userId: number;
  createdAt: string;
  updatedAt: string;
  description: string;
  amount: string;
  type: TransactionTypeName;
  status: TransactionStatusName;
  counterparty: string;
  transferReference: string;
  providerOrderId: string;
  providerPaymentId: string;
  senderWalletId: number | null;
  receiverWalletId: number | null;
  /** A failed line's reason in the user's words (a card decline, an expired checkout); empty otherwise. */
  failureReason: string;
}

export interface TransactionsPage {
  transactions: TransactionView[];
  total: number;
  page: number;
  pageSize: number;
}

export interface AdminTransactionsPage extends TransactionsPage {
  pendingCount: number;
  completedCount: number;
  failedCount: number;
  totalBalance: string;
  /** The sum of the amounts of every completed transaction (whatever the filters). */
  completedAmount: string;
}

export interface AdminWalletView {
  id: number;
  userId: number;
  username: string;
  balance: string;
  heldBalance: string;
  currency: 'INR';
  isActive: boolean;
  isPinSetup: boolean;
  lastTransactionAt: string | null;
  createdAt: string;
}

export interface AdminWalletsPage {
  wallets: AdminWalletView[];
  total: number;
  page: number;
  pageSize: number;
  totalBalance: string;
}

export interface PaymentOrderView {
  id: string;
  amount: string;
  currency: 'INR';
  provider: PaymentProviderName;
  /** Stripe only. */
  clientSecret?: string;
  publishableKey?: string;
  /** ISO 8601: when the checkout expires unless paid (TOPUP_EXPIRY_MINUTES after it started). */
  expiresAt: string;
}

export interface SandboxPaymentView {
  providerOrderId: string;
  providerPaymentId: string;
  providerSignature: string;
}

export interface EligibilityView {
  eligible: boolean;
  message: string;
}
