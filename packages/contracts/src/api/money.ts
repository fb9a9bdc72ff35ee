/**
 * Money is an integer number of paise. The REST API carries it as rupees in a decimal string with
 * at most two decimals ("1250.50"), which this one parser reads, by its digits, never through
 * floating point: the schemas' rules (price, amount, top-up, total) and the gateway's conversion are
 * both built on it, so what a schema accepts always converts.
 */
export const MAX_PAISE = 9_999_999_999; // 99,999,999.99 (decimal 10,2)

export type RupeesParse =
  { ok: true; paise: number } | { ok: false; reason: 'missing' | 'format' | 'negative' | 'range' };

const RUPEES = /^(-)?(\d+)(?:\.(\d{1,2}))?$/;

/**
 * Rupees as text ("1250.5", " 12 ") or as a JSON number whose shortest form has at most two decimals
 * (1250.5; not 1e3). Leading zeros are no digits of the value ("000229.68" is 229.68); more than 8
 * digits before the point is out of range. Missing: undefined, null or blank.
 */
export function parseRupees(input: unknown): RupeesParse {
  if (input === undefined || input === null) return { ok: false, reason: 'missing' };
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return { ok: false, reason: 'format' };
    text = String(input);
  } else if (typeof input === 'string') text = input.trim();
  else return { ok: false, reason: 'format' };
  if (text === '') return { ok: false, reason: 'missing' };
  const m = RUPEES.exec(text);
  if (!m) return { ok: false, reason: 'format' };
  const rupees = m[2]!.replace(/^0+(?=\d)/, '');
  if (rupees.length > 8) return { ok: false, reason: 'range' };
  if (m[1]) return { ok: false, reason: 'negative' };
  return { ok: true, paise: Number(rupees) * 100 + Number((m[3] ?? '').padEnd(2, '0')) };
}

/** The paise of an amount a schema has accepted already (built on parseRupees, so it always is). */
export function acceptedPaise(input: unknown): number {
  const parsed = parseRupees(input);
  if (!parsed.ok) throw new RangeError(`not an accepted amount of rupees (${parsed.reason})`);
  return parsed.paise;
}

/** Paise in the API's form: 123450 → "1234.50", -5 → "-0.05". */
/** Whether an API amount ("0.00", "12.50") is more than nothing: any non-zero digit, no float conversion. */
export const isNonZeroAmount = (amount: string): boolean => /[1-9]/.test(amount);

export function formatMoney(paise: number): string {
  if (!Number.isSafeInteger(paise)) throw new RangeError(`not an integer amount of paise: ${paise}`);
  const sign = paise < 0 ? '-' : '';
  const abs = Math.abs(paise);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
