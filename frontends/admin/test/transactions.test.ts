import { parseSort, toggleSort } from '../src/transactions';

describe('toggleSort', () => {
  it('flips the direction when the sorted column is clicked again', () => {
    expect(toggleSort('date_desc', 'date')).toBe('date_asc');
    expect(toggleSort('date_asc', 'date')).toBe('date_desc');
    expect(toggleSort('amount_desc', 'amount')).toBe('amount_asc');
    expect(toggleSort('amount_asc', 'amount')).toBe('amount_desc');
  });

  it('starts another column descending, whatever the current direction', () => {
    expect(toggleSort('date_desc', 'amount')).toBe('amount_desc');
    expect(toggleSort('date_asc', 'amount')).toBe('amount_desc');
    expect(toggleSort('amount_asc', 'date')).toBe('date_desc');
  });
});

describe('parseSort', () => {
  it('splits the API sort into column and direction', () => {
    expect(parseSort('amount_asc')).toEqual({ column: 'amount', direction: 'asc' });
    expect(parseSort('date_desc')).toEqual({ column: 'date', direction: 'desc' });
  });
});
