import type { TransactionStatusName, TransactionView } from '@qm/contracts/rest';

export type TransactionLabel = 'Received' | 'Credit' | 'Debit' | 'Transfer';

export interface TransactionDisplay {
  label: TransactionLabel;
  /** Money into the wallet (shown with +, green) or out of it (−). */
  incoming: boolean;
  /** The other user of a transfer, if any. */
  counterparty: string | null;
}

/**
 * How a history row reads. A credit that came from another user's transfer is "Received" (docs/product.md §2); a
 * top-up is a plain credit; debits and transfers take money out.
 */
export function describeTransaction(
  tx: Pick<TransactionView, 'type' | 'counterparty' | 'transferReference'>,
): TransactionDisplay {
  const counterparty = tx.counterparty.trim() || null;
  if (tx.type === 'credit') {
    const received = counterparty !== null && tx.transferReference.trim() !== '';
    return { label: received ? 'Received' : 'Credit', incoming: true, counterparty };
  }
  return { label: tx.type === 'debit' ? 'Debit' : 'Transfer', incoming: false, counterparty };
}

/** The status filter of the history (docs/product.md §2); '' is All Transactions. */
export const HISTORY_STATUS_OPTIONS: { value: '' | TransactionStatusName; label: string }[] = [
  { value: '', label: 'All Transactions' },
  { value: 'completed', label: 'Completed' },
  { value: 'pending', label: 'Pending' },
  { value: 'failed', label: 'Failed' },
];
