import { expiredTopUpReason, transactionStatusLabel } from '../src/api/wallet';

describe('transactionStatusLabel', () => {
  it('reads a line by its status', () => {
    expect(transactionStatusLabel({ status: 'completed' })).toBe('Completed');
    expect(transactionStatusLabel({ status: 'pending' })).toBe('Pending');
    expect(transactionStatusLabel({ status: 'failed', failureReason: 'Your card was declined.' })).toBe(
      'Failed',
    );
  });

  it('reads a checkout that expired unpaid as Expired (issue 30), with the words the wallet writes', () => {
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
