import type { TransactionView } from '@qm/contracts/rest';
import {
  type TransactionStatusName,
  type TransactionTypeLabel,
  transactionTypeLabel,
} from '@qm/contracts/rules';

export type TransactionLabel = TransactionTypeLabel;

export interface TransactionDisplay {
  label: TransactionLabel;
  /** Money into the wallet (shown with +, green) or out of it (−). */
  incoming: boolean;
  /** The other user of a transfer, if any. */
  counterparty: string | null;
}

/**
 * How a history row reads. A credit that came from another user's transfer is "Received" (docs/product.md §2); a
 * top-up is a credit once paid and "Top-up" until then or if it failed or expired (transactionTypeLabel); debits
 * and transfers take money out.
 */
export function describeTransaction(
  tx: Pick<TransactionView, 'type' | 'status' | 'counterparty' | 'transferReference'>,
): TransactionDisplay {
  const counterparty = tx.counterparty.trim() || null;
  return { label: transactionTypeLabel(tx), incoming: tx.type === 'credit', counterparty };
}

/** The status filter of the history (docs/product.md §2); '' is All Transactions. */
export const HISTORY_STATUS_OPTIONS: { value: '' | TransactionStatusName; label: string }[] = [
  { value: '', label: 'All Transactions' },
  { value: 'completed', label: 'Completed' },
  { value: 'pending', label: 'Pending' },
  { value: 'failed', label: 'Failed' },
];
