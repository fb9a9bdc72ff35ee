import type { RefundView } from '@qm/contracts/rest';
import { approveRefundText, refundStatusLine } from '../src/refunds';

const refund = (over: Partial<RefundView>): RefundView => ({
  status: 'requested',
  reason: 'Arrived damaged',
  requestedAt: '2026-01-05T10:00:00.000Z',
  decisionReason: null,
  decidedAt: null,
  source: null,
  ...over,
});

describe('refundStatusLine (/admin/refunds)', () => {
  it('says nothing while the request is open', () => {
    expect(refundStatusLine(refund({}))).toBeNull();
  });

  it('says where an approved refund came from', () => {
    expect(refundStatusLine(refund({ status: 'approved', source: 'escrow' }))).toBe('from held proceeds');
    expect(refundStatusLine(refund({ status: 'approved', source: 'seller' }))).toBe(
      "from the seller's balance",
    );
    expect(refundStatusLine(refund({ status: 'approved' }))).toBeNull();
  });

  it("gives a rejected refund's reason", () => {
    expect(refundStatusLine(refund({ status: 'rejected', decisionReason: 'Used for a month' }))).toBe(
      'Used for a month',
    );
  });
});

describe('approveRefundText', () => {
  it('names the amount in rupees and the units returning to stock', () => {
    expect(approveRefundText({ totalPrice: '200.00', quantity: 2 })).toBe(
      'The buyer gets ₹200.00 back, and the 2 units return to stock.',
    );
    expect(approveRefundText({ totalPrice: '125000.50', quantity: 1 })).toBe(
      'The buyer gets ₹1,25,000.50 back, and the 1 unit returns to stock.',
    );
  });
});
