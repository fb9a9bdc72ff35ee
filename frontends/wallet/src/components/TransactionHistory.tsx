import { Card, Group, Pagination, Select, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { TransactionStatusName, TransactionView } from '@qm/contracts/rest';
import {
  formatINR,
  HISTORY_FILTER_PROPS,
  LoadError,
  NoTransactions,
  RelativeTime,
  TransactionFailureReason,
  TransactionHistoryCard,
  TransactionStatusBadge,
  TransactionTypeBadge,
} from '@qm/ui';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { HISTORY_PAGE_SIZE, transactionsQuery } from '../api';
import { describeTransaction, HISTORY_STATUS_OPTIONS } from '../history';

/** Below Mantine's sm breakpoint the table becomes a list of cards. */
const NARROW = '(max-width: 48em)';

/** Transaction History (docs/product.md §2): status filter, Date (relative), Description, Amount, Type, Status. */
export function TransactionHistory() {
  const [status, setStatus] = useState<'' | TransactionStatusName>('');
  const [page, setPage] = useState(1);
  const history = useQuery(transactionsQuery({ page, status: status || undefined }));
  const narrow = useMediaQuery(NARROW) ?? false;

  const total = history.data?.total ?? 0;
  const totalPages = Math.max(1, Math.ceil(total / HISTORY_PAGE_SIZE));
  const rows = history.data?.transactions ?? [];

  return (
    <TransactionHistoryCard
      filter={
        <Select
          {...HISTORY_FILTER_PROPS}
          data={HISTORY_STATUS_OPTIONS}
          value={status}
          onChange={(value) => {
            setStatus((value ?? '') as '' | TransactionStatusName);
            setPage(1);
          }}
          allowDeselect={false}
        />
      }
    >
      {history.isPending ? (
        <Stack gap="xs" role="status" aria-label="Loading transactions">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={36} radius="sm" />
          ))}
        </Stack>
      ) : history.isError ? (
        <LoadError
          title="Failed to fetch transactions"
          error={history.error}
          fallback="The transactions could not be loaded."
          onRetry={() => void history.refetch()}
        />
      ) : rows.length === 0 ? (
        <NoTransactions />
      ) : narrow ? (
        <Stack gap="sm" data-testid="transaction-list">
          {rows.map((tx) => (
            <TransactionCard key={tx.id} tx={tx} />
          ))}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="sm" highlightOnHover aria-labelledby="history-title">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Date</Table.Th>
                <Table.Th scope="col">Description</Table.Th>
                <Table.Th scope="col" ta="right">
                  Amount
                </Table.Th>
                <Table.Th scope="col">Type</Table.Th>
                <Table.Th scope="col">Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((tx) => (
                <TransactionRow key={tx.id} tx={tx} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {totalPages > 1 && (
        <Group justify="flex-end" mt="md">
          <Pagination
            total={totalPages}
            value={Math.min(page, totalPages)}
            onChange={setPage}
            getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
            siblings={narrow ? 0 : 1}
            boundaries={1}
            size={narrow ? 'sm' : 'md'}
          />
        </Group>
      )}
    </TransactionHistoryCard>
  );
}

/**
 * Money in (+) or out (−). Only money that arrived is green: a pending credit is not in the wallet
 * yet, and a failed transaction moved nothing, so its amount is struck through.
 */
function SignedAmount({ tx }: { tx: TransactionView }) {
  const { incoming } = describeTransaction(tx);
  const failed = tx.status === 'failed';
  const arrived = incoming && tx.status === 'completed';
  return (
    <Text
      size="sm"
      fw={600}
      c={failed || tx.status === 'pending' ? 'dimmed' : arrived ? 'green' : undefined}
      td={failed ? 'line-through' : undefined}
      style={{ whiteSpace: 'nowrap' }}
    >
      {incoming ? '+' : '−'}
      {formatINR(tx.amount)}
    </Text>
  );
}

function Description({ tx }: { tx: TransactionView }) {
  const { label, counterparty } = describeTransaction(tx);
  const mentioned = counterparty !== null && tx.description.includes(counterparty);
  return (
    <Stack gap={0}>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {tx.description}
      </Text>
      {counterparty && !mentioned && (
        <Text size="xs" c="dimmed">
          {label === 'Received' ? 'From' : 'To'} {counterparty}
        </Text>
      )}
      <TransactionFailureReason tx={tx} />
    </Stack>
  );
}

function TransactionRow({ tx }: { tx: TransactionView }) {
  return (
    <Table.Tr data-testid="transaction-row" data-type={describeTransaction(tx).label}>
      <Table.Td>
        <RelativeTime iso={tx.createdAt} />
      </Table.Td>
      <Table.Td>
        <Description tx={tx} />
      </Table.Td>
      <Table.Td ta="right">
        <SignedAmount tx={tx} />
      </Table.Td>
      <Table.Td>
        <TransactionTypeBadge tx={tx} />
      </Table.Td>
      <Table.Td>
        <TransactionStatusBadge tx={tx} />
      </Table.Td>
    </Table.Tr>
  );
}

function TransactionCard({ tx }: { tx: TransactionView }) {
  return (
    <Card
      withBorder
      radius="md"
      padding="sm"
      data-testid="transaction-row"
      data-type={describeTransaction(tx).label}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Description tx={tx} />
        <SignedAmount tx={tx} />
      </Group>
      <Group justify="space-between" mt={6} gap="xs">
        <RelativeTime iso={tx.createdAt} />
        <Group gap={6}>
          <TransactionTypeBadge tx={tx} />
          <TransactionStatusBadge tx={tx} />
        </Group>
      </Group>
    </Card>
  );
}
