import { formatMoney, MAX_PAISE, parseMoney } from '../src/money';

describe('money', () => {
  it.each([
    ['0', 0],
    ['1234.5', 123450],
    ['1234.50', 123450],
    ['0.01', 1],
    ['99999999.99', MAX_PAISE],
    [' 12 ', 1200],
    [1250.5, 125050],
    // Leading zeros are not digits of the value (issue 29: a top-up of "000000000000229.68").
    ['000000000000229.68', 22968],
    ['0000000000000', 0],
    ['00.50', 50],
  ])('parses %p to %p paise', (input, paise) => {
    expect(parseMoney(input)).toEqual({ ok: true, paise });
  });

  it.each(['', 'abc', '1.234', '-1', '1e3', '1,000', '.5', '12.'])(
    'refuses %p as a format error',
    (input) => {
      expect(parseMoney(input)).toEqual({ ok: false, reason: 'format' });
    },
  );

  it('refuses amounts above the decimal(10,2) limit as out of range', () => {
    expect(parseMoney('100000000')).toEqual({ ok: false, reason: 'range' });
    expect(parseMoney('0000100000000.00')).toEqual({ ok: false, reason: 'range' });
    expect(parseMoney(1e21)).toEqual({ ok: false, reason: 'format' });
  });

  it('never goes through floating point: 0.1 + 0.2 style values stay exact', () => {
    expect(parseMoney('0.29')).toEqual({ ok: true, paise: 29 });
    expect(formatMoney(29)).toBe('0.29');
    expect(formatMoney(123450)).toBe('1234.50');
    expect(formatMoney(-5)).toBe('-0.05');
    expect(() => formatMoney(1.5)).toThrow(RangeError);
  });
});
