/**
 * The wallet's rules that need no zod (docs/product.md §5, §8, §9): its names, limits and messages, and
 * how a history line reads. The schemas (wallet.ts) are built on them; the wallet's first screen takes
 * them from `@qm/contracts/rules` (docs/adr/037-first-screens-without-zod.md).
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

/** The payment provider's label in the UI when no real provider is configured. */
export const SANDBOX_LABEL = 'Sandbox — no real money';

/** The header carrying the HMAC of a sandbox webhook's raw body (the gateway passes it on as is). */
export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';
