import { MAX_PAISE, WALLET_MESSAGES } from '@qm/contracts/rest';
import { invalid } from '@qm/platform';

/**
 * The ledger's rules on plain values (docs/adr/006-ledger.md).
 *
 * Accounts: a user's wallet `user:<userId>` may never go below zero (available = balance - held
 * ≥ 0); a payment provider's clearing account `provider:<name>` goes negative by exactly the money
 * that came in through it; a sale's escrow `escrow:<order reference>` keeps the sale's proceeds for
 * the refund window (docs/adr/028) and, like a wallet, never goes below zero. Every transfer debits
 * one account and credits another by the same amount, so the balances of all accounts always sum
 * to zero.
 *
 * A transfer is recorded first and then moved through steps, each a single-document conditional
 * update made at most once (a marker `<transferId>:<step>` on the account it changes):
 *
 *   single-phase: initiated ─debit, credit, entries─▶ posted
 *                     └──(insufficient, or abandoned before the debit; the debit barred first, so
 *                        one that landed meanwhile goes on instead)──▶ failed
 *                  (`debited`, between debit and credit, is an earlier build's state: still driven
 *                  on, and a debit that raced a failure then is refunded when it settles)
 *   two-phase:    initiated ─hold─▶ pending ─▶ posting ─debit+credit, entries─▶ posted
 *                     │                 ├──▶ voiding ─release─▶ voided
 *                     └─▶ failed        └──▶ expiring ─release─▶ expired (after its timeout)
 *
 * The state changes by compare-and-set, so of two resolutions only one wins. After a final state
 * the transfer *settles*: its markers are cleared (refunding or releasing what a failed one left)
 * and `settled` is set; the sweeper finishes whatever a crash left unsettled.
 */
export type AccountId = `user:${number}` | `provider:${string}` | `escrow:${string}`;
/**
 * `release`: an escrow's proceeds to its seller once the refund window closed; `refund`: a sale's
 * price back to its buyer (docs/adr/028).
 */
export type TransferKind = 'topup' | 'p2p' | 'purchase' | 'release' | 'refund';
export type TransferState =
  | 'initiated'
  | 'debited'
  | 'pending'
  | 'posting'
  | 'voiding'
  | 'expiring'
  | 'posted'
  | 'voided'
  | 'expired'
  | 'failed';
export type FailureReason = 'insufficient' | 'abandoned' | 'inactive';

export const FINAL_STATES: ReadonlySet<TransferState> = new Set(['posted', 'voided', 'expired', 'failed']);

export const userAccount = (userId: number): AccountId => `user:${userId}`;
export const providerAccount = (provider: string): AccountId => `provider:${provider}`;
export const escrowAccount = (reference: string): AccountId => `escrow:${reference}`;
export const isUserAccount = (id: string): boolean => id.startsWith('user:');
export const isEscrowAccount = (id: string): boolean => id.startsWith('escrow:');
export const isClearingAccount = (id: string): boolean => id.startsWith('provider:');
export const userIdOf = (id: string): number | undefined =>
  isUserAccount(id) ? Number(id.slice('user:'.length)) : undefined;

/** Holds last 15 minutes unless the caller asks otherwise; never more than a day. */
export const DEFAULT_HOLD_SECONDS = 15 * 60;
export const MAX_HOLD_SECONDS = 24 * 60 * 60;

export function holdTimeout(seconds: number, now: Date): Date {
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_HOLD_SECONDS)
    throw invalid('The hold timeout must be between 1 second and 24 hours (0: 15 minutes)');
  return new Date(now.getTime() + (seconds || DEFAULT_HOLD_SECONDS) * 1000);
}

/** An escrow keeps a sale's proceeds at most this long (the orders service sets the refund window). */
export const MAX_ESCROW_DAYS = 90;

/** When an escrow's proceeds go to the seller: the moment asked, or at once when none is. */
export function validReleaseAt(iso: string, now: Date): Date {
  if (!iso) return now;
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) throw invalid('The release time must be an ISO 8601 date and time');
  if (at.getTime() > now.getTime() + MAX_ESCROW_DAYS * 86_400_000)
    throw invalid(`Proceeds can be held for at most ${MAX_ESCROW_DAYS} days`);
  return at;
}

/** A positive whole number of paise within decimal(10,2). */
export function validAmount(paise: number): number {
  if (!Number.isSafeInteger(paise)) throw invalid(WALLET_MESSAGES.amountFormat);
  if (paise <= 0) throw invalid(WALLET_MESSAGES.amountPositive);
  if (paise > MAX_PAISE) throw invalid(WALLET_MESSAGES.amountTooLarge);
  return paise;
}

const REFERENCE = /^[A-Za-z0-9._\-:@/]{1,200}$/;

export function validReference(reference: string): string {
  const ref = reference.trim();
  if (!ref) throw invalid('Transfer reference is required');
  if (!REFERENCE.test(ref))
    throw invalid('Transfer reference must be up to 200 letters, digits or . _ - : @ /');
  return ref;
}

/**
 * The marker an account carries while a transfer's step on it is applied but not yet settled:
 * `debit` and `credit`; `refund`, a debit that raced its transfer's failure, given back (the debit's
 * marker stays, so a late copy finds the debit applied); `void`, a debit never taken and now barred
 * (its transfer was abandoned, or its hold released).
 */
export const marker = (transferId: string, step: 'debit' | 'credit' | 'refund' | 'void') =>
  `${transferId}:${step}`;
