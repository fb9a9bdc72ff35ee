import { Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import type { TransactionView } from '@qm/contracts/rest';
import { exactDate, formatINR, TransactionStatusBadge } from '@qm/ui';
import type { ReactNode } from 'react';
import { UserName } from './UserName';

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2} miw={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

/** A transaction of the admin list, whole: who, what, how much, its state and its references. */
export function TransactionDetailsDialog({
  transaction: tx,
  onClose,
}: {
  transaction: TransactionView | null;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={tx !== null}
      onClose={onClose}
      title={tx ? `Transaction #${tx.id}` : 'Transaction'}
      centered
      radius="md"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {tx && (
        <Stack gap="md" data-testid="transaction-details">
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {tx.description}
            </Text>
            <TransactionStatusBadge tx={tx} style={{ flexShrink: 0 }} />
          </Group>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Field label="User">
              <UserName id={tx.userId} withName />
            </Field>
            <Field label="Amount">
              {formatINR(tx.amount)} ({capitalize(tx.type)})
            </Field>
            {tx.counterparty && <Field label={tx.type === 'credit' ? 'From' : 'To'}>{tx.counterparty}</Field>}
            <Field label="Created">{exactDate(tx.createdAt)}</Field>
            <Field label="Last updated">{exactDate(tx.updatedAt)}</Field>
            {tx.transferReference && <Field label="Reference">{tx.transferReference}</Field>}
            {tx.providerPaymentId && <Field label="Payment id">{tx.providerPaymentId}</Field>}
            {tx.senderWalletId && <Field label="From wallet">#{tx.senderWalletId}</Field>}
            {tx.receiverWalletId && <Field label="To wallet">#{tx.receiverWalletId}</Field>}
          </SimpleGrid>
          {tx.status === 'failed' && tx.failureReason && (
            <Field label="Why it failed">
              <Text span c="red" size="sm">
                {tx.failureReason}
              </Text>
            </Field>
          )}
        </Stack>
      )}
    </Modal>
  );
}
