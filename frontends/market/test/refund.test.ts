import type { OrderView } from '@qm/contracts/rest';
import { mayRequestRefund, proceedsLine, refundLine } from '../src/orders/refund';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const order = (o: Partial<OrderView> = {}) =>
  ({
    status: 'completed',
    totalPrice: '200.00',
    refund: null,
    refundableUntil: '2026-11-30T12:00:00Z',
    ...o,
  }) as Pick<OrderView, 'status' | 'totalPrice' | 'refund' | 'refundableUntil'>;
const refund = (status: 'requested' | 'approved' | 'rejected') => ({
  status,
  reason: 'Arrived damaged',
  requestedAt: '2026-11-28T11:00:00Z',
  decisionReason: status === 'rejected' ? 'Used in the field' : null,
  decidedAt: status === 'requested' ? null : '2026-11-28T11:30:00Z',
  source: status === 'approved' ? ('escrow' as const) : null,
});

describe('mayRequestRefund', () => {
  it('offers a refund on a paid, completed order within its window, once', () => {
    expect(mayRequestRefund(order(), NOW)).toBe(true);
    expect(mayRequestRefund(order({ refundableUntil: '2026-11-28T11:59:59Z' }), NOW)).toBe(false);
    expect(mayRequestRefund(order({ refundableUntil: null }), NOW)).toBe(false);
    expect(mayRequestRefund(order({ status: 'cancelled' }), NOW)).toBe(false);
    expect(mayRequestRefund(order({ totalPrice: '0.00' }), NOW)).toBe(false);
    expect(mayRequestRefund(order({ refund: refund('rejected') }), NOW)).toBe(false);
  });
});

describe('refundLine', () => {
  it("says where a refund stands, with the buyer's reason or the administrator's", () => {
    expect(refundLine({ refund: null })).toBeNull();
    expect(refundLine({ refund: refund('requested') })).toEqual({
      label: 'Refund requested',
      color: 'yellow',
      detail: 'Arrived damaged',
    });
    expect(refundLine({ refund: refund('approved') })?.label).toBe('Refunded');
    expect(refundLine({ refund: refund('rejected') })).toEqual({
      label: 'Refund rejected',
      color: 'red',
      detail: 'Used in the field',
    });
  });
});

describe("a sale's payment, as its seller reads it", () => {
  it('is held until the window closes, or while a request is open; then nothing is said', () => {
    expect(proceedsLine(order(), NOW)).toBe('Payment held until 30 November 2026 at 5:30 pm IST');
    expect(proceedsLine(order({ refund: refund('requested') }), NOW)).toBe(
      'Payment held until the refund request is decided',
    );
    expect(proceedsLine(order({ refund: refund('rejected') }), NOW)).toMatch(
      /^Payment held until 30 November/,
    );
    expect(proceedsLine(order({ refundableUntil: '2026-11-28T11:00:00Z' }), NOW)).toBeNull();
    expect(proceedsLine(order({ status: 'refunded', refund: refund('approved') }), NOW)).toBeNull();
    expect(proceedsLine(order({ totalPrice: '0.00' }), NOW)).toBeNull();
    expect(proceedsLine(order({ status: 'cancelled', refundableUntil: null }), NOW)).toBeNull();
  });
});
