import { acceptedPaise, formatMoney, MAX_PAISE, parseRupees } from '../src/api/money';

describe('money', () => {
  it.each([
    ['0', 0],
    ['1234.5', 123450],
    ['1234.50', 123450],
    ['0.01', 1],
    ['99999999.99', MAX_PAISE],
    [' 12 ', 1200],
    [1250.5, 125050],
    // Leading zeros are not digits of the value (a top-up of "000000000000229.68" was refused).
    ['000000000000229.68', 22968],
    ['0000000000000', 0],
    ['00.50', 50],
  ])('parses %p to %p paise', (input, paise) => {
    expect(parseRupees(input)).toEqual({ ok: true, paise });
  });

  it.each(['abc', '1.234', '1e3', '1,000', '.5', '12.', true, {}, Number.NaN])(
    'refuses %p as a format error',
    (input) => {
      expect(parseRupees(input)).toEqual({ ok: false, reason: 'format' });
    },
  );

  it('tells a missing amount and a negative one from a malformed one', () => {
    for (const missing of [undefined, null, '', '   '])
      expect(parseRupees(missing)).toEqual({ ok: false, reason: 'missing' });
    expect(parseRupees('-1')).toEqual({ ok: false, reason: 'negative' });
    expect(parseRupees(-0.5)).toEqual({ ok: false, reason: 'negative' });
  });

  it('converts what a schema accepted, and refuses to convert anything else', () => {
    expect(acceptedPaise('0012.50')).toBe(1250);
    expect(() => acceptedPaise('12.345')).toThrow(RangeError);
  });

  it('refuses amounts above the decimal(10,2) limit as out of range', () => {
    expect(parseRupees('100000000')).toEqual({ ok: false, reason: 'range' });
    expect(parseRupees('0000100000000.00')).toEqual({ ok: false, reason: 'range' });
    expect(parseRupees(1e21)).toEqual({ ok: false, reason: 'format' });
  });

  it('never goes through floating point: 0.1 + 0.2 style values stay exact', () => {
    expect(parseRupees('0.29')).toEqual({ ok: true, paise: 29 });
    expect(formatMoney(29)).toBe('0.29');
    expect(formatMoney(123450)).toBe('1234.50');
    expect(formatMoney(-5)).toBe('-0.05');
    expect(() => formatMoney(1.5)).toThrow(RangeError);
  });
});
