import { formatCardNumber, formatExpiry, testCardExpiry } from '../src/cardFormat';

describe('formatCardNumber', () => {
  it('groups digits in fours and drops anything else', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4000-0000 0000 0002')).toBe('4000 0000 0000 0002');
    expect(formatCardNumber('42a4')).toBe('424');
    expect(formatCardNumber('4242')).toBe('4242');
  });

  it('stops at 19 digits', () => {
    expect(formatCardNumber('1'.repeat(25)).replace(/ /g, '')).toHaveLength(19);
  });
});

describe('formatExpiry', () => {
  it('adds the slash after the month', () => {
    expect(formatExpiry('12', '1')).toBe('12/');
    expect(formatExpiry('1228')).toBe('12/28');
    expect(formatExpiry('12/2', '12/')).toBe('12/2');
  });

  it('reads a first digit above 1 as a month', () => {
    expect(formatExpiry('4', '')).toBe('04/');
    expect(formatExpiry('1', '')).toBe('1');
  });

  it('lets a deleted slash stay deleted', () => {
    expect(formatExpiry('12', '12/')).toBe('12');
    expect(formatExpiry('0', '04')).toBe('0');
  });
});

describe('testCardExpiry', () => {
  it('is a future month in MM/YY, also late in December', () => {
    expect(testCardExpiry(new Date(2026, 10, 27))).toBe('12/28');
    expect(testCardExpiry(new Date(2099, 11, 31))).toBe('12/01');
  });
});
