import { formatMoney } from '@qm/contracts/rest';
import {
  canPay,
  clampNote,
  clampQuantity,
  exceedsBalance,
  orderTotal,
  purchaseOutcome,
  toPaise,
  type PurchaseState,
} from '../src/purchase/rules';

describe('money in paise', () => {
  it('parses the API amounts digit by digit', () => {
    expect(toPaise('1250.50')).toBe(125050);
    expect(toPaise('1250.5')).toBe(125050);
    expect(toPaise('7')).toBe(700);
    expect(toPaise('0.01')).toBe(1);
    expect(toPaise(' 12.34 ')).toBe(1234);
  });

  it('refuses what is not an amount', () => {
    expect(toPaise('')).toBeUndefined();
    expect(toPaise('-1.00')).toBeUndefined();
    expect(toPaise('1.234')).toBeUndefined();
    expect(toPaise('1e3')).toBeUndefined();
    expect(toPaise('abc')).toBeUndefined();
  });

  it('formats paise as the API form', () => {
    expect(formatMoney(125050)).toBe('1250.50');
    expect(formatMoney(5)).toBe('0.05');
    expect(formatMoney(0)).toBe('0.00');
  });
});

describe('orderTotal', () => {
  it('multiplies without floating-point error', () => {
    // 0.1 * 3 is 0.30000000000000004 in floating point.
    expect(orderTotal('0.10', 3)).toBe('0.30');
    expect(orderTotal('19.99', 3)).toBe('59.97');
    expect(orderTotal('1250.00', 2)).toBe('2500.00');
  });

  it('has no total for a quantity below 1 or an unreadable price', () => {
    expect(orderTotal('10.00', 0)).toBeUndefined();
    expect(orderTotal('10.00', 1.5)).toBeUndefined();
    expect(orderTotal('ten', 1)).toBeUndefined();
  });
});

describe('clampQuantity', () => {
  it('keeps the stepper between 1 and the stock', () => {
    expect(clampQuantity(3, 5)).toBe(3);
    expect(clampQuantity(9, 5)).toBe(5);
    expect(clampQuantity(0, 5)).toBe(1);
    expect(clampQuantity(-2, 5)).toBe(1);
    expect(clampQuantity('4', 5)).toBe(4);
    expect(clampQuantity('', 5)).toBe(1);
    expect(clampQuantity(2.7, 5)).toBe(2);
  });

  it('holds 1 when nothing is in stock', () => {
    expect(clampQuantity(3, 0)).toBe(1);
  });
});

describe('clampNote', () => {
  it('says why a typed quantity was changed', () => {
    expect(clampNote(99, 7)).toBe('Only 7 in stock');
    expect(clampNote(0, 7)).toBe('The quantity must be at least 1');
    expect(clampNote(3, 7)).toBeUndefined();
    expect(clampNote(7, 7)).toBeUndefined();
  });
});

describe('exceedsBalance', () => {
  it('compares to the paisa', () => {
    expect(exceedsBalance('100.00', '100.00')).toBe(false);
    expect(exceedsBalance('100.01', '100.00')).toBe(true);
    expect(exceedsBalance('99.99', '100')).toBe(false);
  });

  it('treats an unknown amount as not affordable', () => {
    expect(exceedsBalance(undefined, '100.00')).toBe(true);
    expect(exceedsBalance('1.00', undefined)).toBe(true);
  });
});

describe('canPay', () => {
  const ready: PurchaseState = {
    productLoaded: true,
    walletLoaded: true,
    stock: 5,
    quantity: 2,
    total: '200.00',
    balance: '500.00',
    busy: false,
  };

  it('allows a loaded, valid, affordable purchase', () => {
    expect(canPay(ready)).toBe(true);
    expect(canPay({ ...ready, quantity: 5, total: '500.00' })).toBe(true);
  });

  it('refuses while the product or the wallet is loading', () => {
    expect(canPay({ ...ready, productLoaded: false })).toBe(false);
    expect(canPay({ ...ready, walletLoaded: false })).toBe(false);
  });

  it('refuses a quantity outside 1..stock', () => {
    expect(canPay({ ...ready, quantity: 0 })).toBe(false);
    expect(canPay({ ...ready, quantity: 6 })).toBe(false);
    expect(canPay({ ...ready, stock: 0, quantity: 1 })).toBe(false);
  });

  it('refuses while a request is pending and when the total exceeds the balance', () => {
    expect(canPay({ ...ready, busy: true })).toBe(false);
    expect(canPay({ ...ready, balance: '199.99' })).toBe(false);
  });
});

describe('purchaseOutcome (docs/product.md §4: idle → processing → success)', () => {
  const none = { isPending: false, isSuccess: false, isError: false };

  it('walks idle, processing and success', () => {
    expect(purchaseOutcome(none, 'x')).toEqual({ phase: 'idle' });
    expect(purchaseOutcome({ ...none, isPending: true }, 'x')).toEqual({ phase: 'processing' });
    const completed = { status: 'completed', cancelReason: null };
    expect(purchaseOutcome({ ...none, isSuccess: true, order: completed }, 'x')).toEqual({
      phase: 'success',
    });
  });

  it('counts a still-pending order as placed', () => {
    const pending = { status: 'pending', cancelReason: null };
    expect(purchaseOutcome({ ...none, isSuccess: true, order: pending }, 'x').phase).toBe('success');
  });

  it('fails with the reason of an order the saga cancelled', () => {
    const order = { status: 'cancelled', cancelReason: 'Insufficient wallet balance' };
    expect(purchaseOutcome({ ...none, isSuccess: true, order }, 'Failed to create order')).toEqual({
      phase: 'failed',
      failure: 'Insufficient wallet balance',
    });
    const silent = { status: 'cancelled', cancelReason: null };
    expect(
      purchaseOutcome({ ...none, isSuccess: true, order: silent }, 'Failed to create order').failure,
    ).toBe('Failed to create order');
  });

  it('fails with the message of a refused request (e.g. the price changed)', () => {
    expect(purchaseOutcome({ ...none, isError: true, errorText: 'The price changed' }, 'x')).toEqual({
      phase: 'failed',
      failure: 'The price changed',
    });
  });
});
