/** Display helpers of the sandbox card form: digits grouped as printed on a card. */

/** "4242424242424242" → "4242 4242 4242 4242" (at most 19 digits; anything else is dropped). */
export function formatCardNumber(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, 19);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * "1228" → "12/28" while typing; a deleted slash stays deleted ("12/" backspaced gives "12"), and a lone
 * first digit above 1 is a month ("4" → "04/").
 */
export function formatExpiry(input: string, previous = ''): string {
  const digits = input.replace(/\D/g, '').slice(0, 4);
  const deleting = input.length < previous.length;
  if (digits.length === 1 && !deleting && Number(digits) > 1) return `0${digits}/`;
  if (digits.length < 2) return digits;
  if (digits.length === 2) return deleting ? digits : `${digits}/`;
  return `${digits.slice(0, 2)}/${digits.slice(2)}`;
}

/** The expiry "Use test card" fills in: December, two years from `now` ("12/28" in 2026), always ahead. */
export function testCardExpiry(now = new Date()): string {
  return `12/${String((now.getFullYear() + 2) % 100).padStart(2, '0')}`;
}

/** The CVC "Use test card" fills in: any three digits do for the sandbox, as for Stripe's test cards. */
export const TEST_CARD_CVC = '123';
