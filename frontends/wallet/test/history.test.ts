import { describeTransaction } from '../src/history';

const tx = (
  type: 'credit' | 'debit' | 'transfer',
  counterparty = '',
  transferReference = '',
  status: 'completed' | 'pending' | 'failed' = 'completed',
) => ({ type, counterparty, transferReference, status });

describe('describeTransaction', () => {
  it('shows a credit from another user as received', () => {
    expect(describeTransaction(tx('credit', 'alice', 'tr_1'))).toEqual({
      label: 'Received',
      incoming: true,
      counterparty: 'alice',
    });
  });

  it('shows a top-up as a plain credit', () => {
    expect(describeTransaction(tx('credit'))).toEqual({
      label: 'Credit',
      incoming: true,
      counterparty: null,
    });
    // A counterparty without a transfer behind it is not a received transfer.
    expect(describeTransaction(tx('credit', 'alice')).label).toBe('Credit');
  });

  it('does not call a top-up a credit before its money arrived, nor after it failed or expired', () => {
    for (const status of ['pending', 'failed'] as const) {
      expect(describeTransaction(tx('credit', 'Sandbox', '', status))).toEqual({
        label: 'Top-up',
        incoming: true,
        counterparty: 'Sandbox',
      });
    }
  });

  it('shows debits and sent transfers as money out', () => {
    expect(describeTransaction(tx('debit'))).toEqual({ label: 'Debit', incoming: false, counterparty: null });
    expect(describeTransaction(tx('transfer', 'bob', 'tr_1'))).toEqual({
      label: 'Transfer',
      incoming: false,
      counterparty: 'bob',
    });
  });
});
