import { Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { transactionTypeLabel, type TransactionView } from '@qm/contracts/rest';
import { exactDate, formatINR, TransactionStatusBadge } from '@qm/ui';
import { DetailField } from './DetailField';
import { UserName } from './UserName';

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
            <DetailField label="User">
              <UserName id={tx.userId} withName />
            </DetailField>
            <DetailField label="Amount">
              {formatINR(tx.amount)} ({transactionTypeLabel(tx)})
            </DetailField>
            {tx.counterparty && (
              <DetailField label={tx.type === 'credit' ? 'From' : 'To'}>{tx.counterparty}</DetailField>
            )}
            <DetailField label="Created">{exactDate(tx.createdAt)}</DetailField>
            <DetailField label="Last updated">{exactDate(tx.updatedAt)}</DetailField>
            {tx.transferReference && <DetailField label="Reference">{tx.transferReference}</DetailField>}
            {tx.providerPaymentId && <DetailField label="Payment id">{tx.providerPaymentId}</DetailField>}
            {tx.senderWalletId && <DetailField label="From wallet">#{tx.senderWalletId}</DetailField>}
            {tx.receiverWalletId && <DetailField label="To wallet">#{tx.receiverWalletId}</DetailField>}
          </SimpleGrid>
          {tx.status === 'failed' && tx.failureReason && (
            <DetailField label="Why it failed">
              <Text span c="red" size="sm">
                {tx.failureReason}
              </Text>
            </DetailField>
          )}
        </Stack>
      )}
    </Modal>
  );
}
