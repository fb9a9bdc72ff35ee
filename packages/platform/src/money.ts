/**
 * Money is an integer number of paise. The REST API carries it as a string with two decimals.
 * Conversion is done on the digits, never through floating point.
 */
export const MAX_PAISE = 9_999_999_999; // 99,999,999.99 (decimal 10,2)

const MONEY_PATTERN = /^(\d{1,8})(?:\.(\d{1,2}))?$/;

export type MoneyParseResult = { ok: true; paise: number } | { ok: false; reason: 'format' | 'range' };

export function parseMoney(input: string | number): MoneyParseResult {
  // Leading zeros are no digits of the value ("000229.68" is 229.68), as the REST schemas count them.
  const text = typeof input === 'number' ? numberToText(input) : input.trim().replace(/^0+(?=\d)/, '');
  if (text === null) return { ok: false, reason: 'format' };
  if (/^\d{9,}(\.\d{1,2})?$/.test(text)) return { ok: false, reason: 'range' };
  const m = MONEY_PATTERN.exec(text);
  if (!m) return { ok: false, reason: 'format' };
  const rupees = Number(m[1]);
  const paise = Number((m[2] ?? '').padEnd(2, '0'));
  return { ok: true, paise: rupees * 100 + paise };
}

/** Numbers from JSON (e.g. 1250.5) are accepted only when their shortest text form has at most 2 decimals. */
function numberToText(n: number): string | null {
  if (!Number.isFinite(n) || n < 0) return null;
  const text = String(n);
  return /e/i.test(text) ? null : text;
}

export function formatMoney(paise: number): string {
  if (!Number.isSafeInteger(paise)) throw new RangeError(`not an integer amount of paise: ${paise}`);
  const sign = paise < 0 ? '-' : '';
  const abs = Math.abs(paise);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
