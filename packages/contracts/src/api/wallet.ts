import { z } from 'zod';
import { charCount } from './catalog';
import { acceptedPaise, parseRupees } from './money';
import { NUMBER_LIMITS, pagingQuery } from './numbers';

/**
 * REST shapes of docs/product.md §7 for the wallet (balance, history, add money, PIN, transfer, admin views),
 * shared by the gateway (validation, OpenAPI), the wallet service (the same rules and messages) and
 * the wallet and admin remotes. Money travels as a string with two decimals ("1234.50").
 */
export const TRANSACTION_TYPES = ['credit', 'debit', 'transfer'] as const;
export type TransactionTypeName = (typeof TRANSACTION_TYPES)[number];
export const TRANSACTION_STATUSES = ['pending', 'completed', 'failed'] as const;
export type TransactionStatusName = (typeof TRANSACTION_STATUSES)[number];
export const TRANSACTION_SORTS = ['date_desc', 'date_asc', 'amount_desc', 'amount_asc'] as const;
export type TransactionSortName = (typeof TRANSACTION_SORTS)[number];
export const PAYMENT_PROVIDERS = ['sandbox', 'stripe'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

export const WALLET_LIMITS = {
  /** Add money: 100 to 100000 rupees inclusive (docs/product.md §9). */
  topUpMinPaise: 100_00,
  topUpMaxPaise: 100_000_00,
  /** The wallet's history page size (a feed bucket). */
  historyPageSizeMax: 32,
  /** The /wallet page's history page: the page asks for it, and the gateway sends its first with the page. */
  historyPageSize: 20,
  pinMinChars: 6,
  /** A PIN is hashed slowly; a longer one only costs more to hash. */
  pinMaxChars: 64,
  otpDigits: 6,
  usernameMaxChars: 50,
  /** At most 99,999,999.99 rupees (decimal 10,2). */
  amountMaxPaise: 9_999_999_999,
  idempotencyKeyMaxChars: 255,
} as const;

/** The user-facing texts of docs/product.md §5 and §8 for the wallet; the service answers with the same. */
export const WALLET_MESSAGES = {
  amountRequired: 'Amount is required',
  // The product reference's words; its limits in the one Indian format of formatRupees (docs/product.md §9 writes "₹100,000").
  topUpRange: 'Amount must be between ₹100 and ₹1,00,000',
  amountFormat: 'Amount must be a positive number with at most two decimals',
  amountPositive: 'Amount must be greater than 0',
  amountTooLarge: 'Amount must be at most ₹9,99,99,999.99',
  insufficientBalance: 'Insufficient wallet balance',
  receiverRequired: 'Receiver username is required',
  notEligible: 'Selected user is not eligible for transfers',
  pinTooShort: 'PIN must be at least 6 digits',
  pinTooLong: 'PIN must be at most 64 characters',
  pinsDontMatch: "PINs don't match",
  pinRequired: 'PIN is required',
  otpFormat: 'OTP must be 6 digits',
  pinSetupFirst: 'Please set up your wallet PIN first',
  wrongPin: (left: number) => `Incorrect PIN. ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`,
  pinLocked: (untilIso: string) => `Too many incorrect PIN attempts. Transfers are locked until ${untilIso}.`,
  transferred: 'Money transferred successfully',
  paymentVerificationFailed: 'Payment Verification Failed',
  orderNotFound: 'Payment order not found',
  checkoutExpired: 'This checkout has expired. Please start a new top-up.',
  cardDeclined: 'Your card was declined.',
  cardInsufficientFunds: 'Your card has insufficient funds.',
  cardNumberInvalid: 'Enter a valid card number',
  cardExpiryInvalid: 'Enter the expiry as MM/YY',
  cardExpired: 'Your card has expired.',
  cardCvcInvalid: 'Enter the 3 or 4 digit security code',
  sandboxOnly: 'The sandbox checkout is not in use: payments go through Stripe',
  walletNotFound: 'Wallet not found',
  forbidden: 'You can only access your own wallet',
  adminNoWallet: 'Administrators do not have a wallet',
  /** The user was deleted: their wallet is closed and sends nothing. */
  accountClosed: 'Your account is no longer active',
  idempotencyInProgress: 'A request with this Idempotency-Key is still being processed. Retry later.',
  idempotencyMismatch: (fields: string[]) =>
    `This Idempotency-Key was already used with a different ${fields.join(', ')}. Use a new key for a new request.`,
} as const;

/** The payment provider's label in the UI when no real provider is configured. */
const EXPIRED_PREFIX = 'Expired: ';

/** What an expired checkout's line says (TOPUP_EXPIRY_MINUTES), in the user's words. */
export const expiredTopUpReason = (minutes: number) =>
  `${EXPIRED_PREFIX}the checkout was not completed within ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;

/**
 * How a line's status reads: a failed line that is a checkout never paid in time reads "Expired"
 * (docs/adr/007), otherwise its status. The filter still counts it among the failed ones.
 */
export function transactionStatusLabel(tx: { status: string; failureReason?: string }): string {
  if (tx.status === 'failed' && tx.failureReason?.startsWith(EXPIRED_PREFIX)) return 'Expired';
  return tx.status.charAt(0).toUpperCase() + tx.status.slice(1);
}

/** A failed line's reason without the "Expired: " its status already says ("the checkout was not completed …"). */
export const failureReasonDetail = (reason: string): string =>
  reason.startsWith(EXPIRED_PREFIX) ? reason.slice(EXPIRED_PREFIX.length) : reason;

export type TransactionTypeLabel = 'Received' | 'Credit' | 'Top-up' | 'Debit' | 'Transfer';

interface TypedLine {
  type: string;
  status: string;
  counterparty?: string;
  transferReference?: string;
}

/** Money that came into the wallet: a credit that completed (only it is drawn as a credit, teal). */
export const transactionCredited = (tx: TypedLine): boolean =>
  tx.type === 'credit' && tx.status === 'completed';

/**
 * How a line's type reads, in the wallet history, the admin transactions and the assistant: a credit
 * from another user's transfer is "Received"; a top-up is "Credit" once its money arrived, and "Top-up"
 * while it is pending or after it failed or expired, when nothing was credited; debits and
 * sent transfers are "Debit" and "Transfer".
 */
export function transactionTypeLabel(tx: TypedLine): TransactionTypeLabel {
  if (tx.type === 'credit') {
    const received = !!tx.counterparty?.trim() && !!tx.transferReference?.trim();
    if (received) return 'Received';
    return transactionCredited(tx) ? 'Credit' : 'Top-up';
  }
  return tx.type === 'debit' ? 'Debit' : 'Transfer';
}

export const SANDBOX_LABEL = 'Sandbox — no real money';

/** The header carrying the HMAC of a sandbox webhook's raw body (the gateway passes it on as is). */
export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

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
