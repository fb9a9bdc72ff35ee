import { WALLET_MESSAGES } from '@qm/contracts/rest';
import { conflict, invalid } from '@qm/platform';

/**
 * The sandbox checkout's card rules, modelled on Stripe's test cards
 * (https://docs.stripe.com/testing): 4000 0000 0000 0002 is declined, 4000 0000 0000 9995 fails
 * for insufficient funds; every other Luhn-valid number (4242 4242 4242 4242 among them) is
 * charged. A malformed number, expiry or CVC is bad input; a refusal by the "bank" is a failed
 * precondition, as a real provider's decline is.
 */
export const SANDBOX_CARDS = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const;

export interface CardInput {
  cardNumber: string;
  /** MM/YY */
  expiry: string;
  cvc: string;
}

/** The Luhn check every card number passes. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** A card is valid through the last day of its expiry month. */
export function cardExpired(expiry: string, now: Date): boolean {
  const m = /^(0[1-9]|1[0-2])\s*\/\s*(\d{2})$/.exec(expiry.trim())!;
  const endOfMonth = Date.UTC(2000 + Number(m[2]), Number(m[1]), 1); // first instant of the next month
  return now.getTime() >= endOfMonth;
}

/** Throws the refusal the card gets, or returns when the sandbox would charge it. */
export function chargeCard(card: CardInput, now: Date): void {
  const number = card.cardNumber.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) throw invalid(WALLET_MESSAGES.cardNumberInvalid);
  if (!/^(0[1-9]|1[0-2])\s*\/\s*\d{2}$/.test(card.expiry.trim()))
    throw invalid(WALLET_MESSAGES.cardExpiryInvalid);
  if (!/^\d{3,4}$/.test(card.cvc.trim())) throw invalid(WALLET_MESSAGES.cardCvcInvalid);
  if (cardExpired(card.expiry, now)) throw conflict(WALLET_MESSAGES.cardExpired);
  if (number === SANDBOX_CARDS.declined) throw conflict(WALLET_MESSAGES.cardDeclined);
  if (number === SANDBOX_CARDS.insufficientFunds) throw conflict(WALLET_MESSAGES.cardInsufficientFunds);
}
