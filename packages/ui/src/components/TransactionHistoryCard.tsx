import { Card, Group, TextInput, Title } from '@mantine/core';
import { FAILED_FILTER_NOTE } from '@qm/contracts/rest';
import { IconReceipt, IconSelector } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { EmptyState } from './EmptyState';

/** Label, note and width of the history's status filter, the same on the page and in its frame. */
export const HISTORY_FILTER_PROPS = {
  label: 'Status',
  description: FAILED_FILTER_NOTE,
  w: { base: '100%', xs: 200 },
} as const;

/**
 * The /wallet page's Transaction History card: its title and status filter (`filter`) over what it
 * lists. The page fills it, and the frame shown while the page loads draws the same card when the
 * gateway sent an empty history with the page (docs/adr/031), so what is painted first stays where it is
 * when the page arrives.
 */
export function TransactionHistoryCard({ filter, children }: { filter: ReactNode; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="history-title">
      <Group justify="space-between" align="flex-end" mb="md" gap="sm">
        <Title order={2} size="h3" id="history-title">
          Transaction History
        </Title>
        {filter}
      </Group>
      {children}
    </Card>
  );
}

/**
 * The status filter as the frame draws it, reading All Transactions: the page's own is a Select, whose
 * combobox is not in the shell's first script (the landing page's budget), so the frame draws an input
 * of the same size that cannot be changed until the page arrives.
 */
export function HistoryFilterPlaceholder() {
  return (
    <TextInput
      {...HISTORY_FILTER_PROPS}
      value="All Transactions"
      readOnly
      rightSection={<IconSelector size={16} stroke={1.5} aria-hidden />}
      rightSectionPointerEvents="none"
    />
  );
}

/** An empty history (or an empty filter of it). */
export function NoTransactions() {
  return <EmptyState icon={<IconReceipt size={26} />} title="No transactions found" />;
}
