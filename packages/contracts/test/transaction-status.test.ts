import {
  expiredTopUpReason,
  failureReasonDetail,
  transactionCredited,
  transactionStatusLabel,
  transactionTypeLabel,
} from '../src/api/wallet-rules';

describe('transactionStatusLabel', () => {
  it('reads a line by its status', () => {
    expect(transactionStatusLabel({ status: 'completed' })).toBe('Completed');
    expect(transactionStatusLabel({ status: 'pending' })).toBe('Pending');
    expect(transactionStatusLabel({ status: 'failed', failureReason: 'Your card was declined.' })).toBe(
      'Failed',
    );
  });

  it('reads a checkout that expired unpaid as Expired, with the words the wallet writes', () => {
    expect(expiredTopUpReason(30)).toBe('Expired: the checkout was not completed within 30 minutes');
    expect(expiredTopUpReason(1)).toBe('Expired: the checkout was not completed within 1 minute');
    expect(transactionStatusLabel({ status: 'failed', failureReason: expiredTopUpReason(30) })).toBe(
      'Expired',
    );
    expect(transactionStatusLabel({ status: 'pending', failureReason: expiredTopUpReason(30) })).toBe(
      'Pending',
    );
  });
});

describe('transactionTypeLabel', () => {
  const topUp = { type: 'credit', counterparty: 'Sandbox', transferReference: '' };
  it('calls a top-up a credit only once its money arrived', () => {
    expect(transactionTypeLabel({ ...topUp, status: 'completed' })).toBe('Credit');
    expect(transactionCredited({ ...topUp, status: 'completed' })).toBe(true);
    for (const status of ['pending', 'failed']) {
      expect(transactionTypeLabel({ ...topUp, status })).toBe('Top-up');
      expect(transactionCredited({ ...topUp, status })).toBe(false);
    }
  });

  it("reads a transfer's credit as Received, and money out as Debit or Transfer", () => {
    const received = {
      type: 'credit',
      counterparty: 'alice',
      transferReference: 'tr_1',
      status: 'completed',
    };
    expect(transactionTypeLabel(received)).toBe('Received');
    expect(transactionTypeLabel({ ...received, transferReference: '' })).toBe('Credit');
    expect(transactionTypeLabel({ type: 'debit', status: 'completed' })).toBe('Debit');
    expect(transactionTypeLabel({ type: 'transfer', status: 'failed' })).toBe('Transfer');
    expect(transactionCredited({ type: 'debit', status: 'completed' })).toBe(false);
  });

  it("leaves an expired line's reason without the Expired its status says", () => {
    expect(failureReasonDetail(expiredTopUpReason(30))).toBe(
      'the checkout was not completed within 30 minutes',
    );
    expect(failureReasonDetail('Your card was declined.')).toBe('Your card was declined.');
  });
});
