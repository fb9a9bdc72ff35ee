import { Card, Group, Select, Title } from '@mantine/core';
import { FAILED_FILTER_NOTE, type TransactionStatusName } from '@qm/contracts/rest';
import { IconReceipt } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { EmptyState } from './EmptyState';

/** The status filter of the history (docs/product.md §2); '' is All Transactions. */
export const HISTORY_STATUS_OPTIONS: { value: '' | TransactionStatusName; label: string }[] = [
  { value: '', label: 'All Transactions' },
  { value: 'completed', label: 'Completed' },
  { value: 'pending', label: 'Pending' },
  { value: 'failed', label: 'Failed' },
];

/**
 * The /wallet page's Transaction History card: its title and status filter over what it lists. The page
 * fills it, and the frame shown while the page loads draws the same card when the gateway sent an empty
 * history with the page (docs/adr/031), so what is painted first stays where it is when the page arrives.
 * Without `onStatusChange` the filter shows All Transactions and cannot be changed yet.
 */
export function TransactionHistoryCard({
  status = '',
  onStatusChange,
  children,
}: {
  status?: '' | TransactionStatusName;
  onStatusChange?: (status: '' | TransactionStatusName) => void;
  children: ReactNode;
}) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="history-title">
      <Group justify="space-between" align="flex-end" mb="md" gap="sm">
        <Title order={2} size="h3" id="history-title">
          Transaction History
        </Title>
        <Select
          label="Status"
          description={FAILED_FILTER_NOTE}
          data={HISTORY_STATUS_OPTIONS}
          value={status}
          onChange={(value) => onStatusChange?.((value ?? '') as '' | TransactionStatusName)}
          readOnly={!onStatusChange}
          allowDeselect={false}
          w={{ base: '100%', xs: 200 }}
        />
      </Group>
      {children}
    </Card>
  );
}

/** An empty history (or an empty filter of it). */
export function NoTransactions() {
  return <EmptyState icon={<IconReceipt size={26} />} title="No transactions found" />;
}
