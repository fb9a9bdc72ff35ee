import {
  Button,
  Group,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  UnstyledButton,
} from '@mantine/core';
import {
  FAILED_FILTER_NOTE,
  type TransactionSortName,
  type TransactionStatusName,
  type TransactionView,
} from '@qm/contracts/rest';
import {
  EmptyState,
  formatINR,
  PageHeader,
  RelativeTime,
  type ResponsiveColumn,
  ResponsiveTable,
  TransactionFailureReason,
  TransactionStatusBadge,
  TransactionTypeBadge,
  RefreshingLoader,
} from '@qm/ui';
import {
  IconArrowDown,
  IconArrowUp,
  IconCircleCheck,
  IconClockHour4,
  IconReceipt,
  IconWallet,
  IconX,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ListPager } from '../components/ListPager';
import { QueryPage } from '../components/QueryPage';
import { RowDetailButton } from '../components/RowDetailButton';
import { SummaryCard } from '../components/SummaryCard';
import { TransactionDetailsDialog } from '../components/TransactionDetailsDialog';
import { UserName } from '../components/UserName';
import { useListParams } from '../listParams';
import { adminTransactionsQuery, parseSort, toggleSort, type SortColumn } from '../transactions';

const PAGE_SIZE = 20;

const STATUS_FILTERS: { value: '' | TransactionStatusName; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'completed', label: 'Completed' },
  { value: 'pending', label: 'Pending' },
  { value: 'failed', label: 'Failed' },
];

const SORT_OPTIONS: { value: TransactionSortName; label: string }[] = [
  { value: 'date_desc', label: 'Newest first' },
  { value: 'date_asc', label: 'Oldest first' },
  { value: 'amount_desc', label: 'Largest amount first' },
  { value: 'amount_asc', label: 'Smallest amount first' },
];

const SORTS = SORT_OPTIONS.map((option) => option.value);
const isStatus = (value: string): value is TransactionStatusName =>
  STATUS_FILTERS.some((filter) => filter.value === value && value !== '');

/**
 * /admin/transactions (docs/product.md §2): every wallet's transactions, filtered by status (and by user, the wallet
 * list's link: ?userId), sorted by date or amount; the state lives in the URL. A row opens its details.
 */
export function TransactionsPage() {
  const list = useListParams<'status' | 'sort' | 'userId'>();
  const statusParam = list.get('status');
  const status: '' | TransactionStatusName = isStatus(statusParam) ? statusParam : '';
  const sortParam = list.get('sort') as TransactionSortName;
  const sort: TransactionSortName = SORTS.includes(sortParam) ? sortParam : 'date_desc';
  const userIdParam = Number(list.get('userId'));
  const userId = Number.isSafeInteger(userIdParam) && userIdParam > 0 ? userIdParam : undefined;
  const page = list.page;
  const setStatus = (value: '' | TransactionStatusName) =>
    list.set({ status: value, sort: keepSort(sort), userId: userId ?? '' });
  const setSort = (value: TransactionSortName) =>
    list.set({ status, sort: keepSort(value), userId: userId ?? '' });
  const setPage = (value: number) =>
    list.set({ page: value, status, sort: keepSort(sort), userId: userId ?? '' });
  const [opened, setOpened] = useState<TransactionView | null>(null);
  const transactions = useQuery(
    adminTransactionsQuery({ page, pageSize: PAGE_SIZE, status: status || undefined, sort, userId }),
  );

  const header = (
    <PageHeader title="Transaction Management" subtitle="Every wallet transaction across the marketplace." />
  );
  return (
    <QueryPage
      header={header}
      query={transactions}
      loading="Loading transactions..."
      failed={{ title: 'Failed to fetch transactions', fallback: 'The transactions could not be loaded.' }}
    >
      {(data) => {
        const resort = (column: SortColumn) => setSort(toggleSort(sort, column));

        return (
          <>
            <SimpleGrid cols={{ base: 1, sm: 3 }} mb="lg">
              <SummaryCard label="Total Balance" value={formatINR(data.totalBalance)} icon={IconWallet} />
              <SummaryCard
                label="Pending Transactions"
                value={data.pendingCount.toLocaleString('en-IN')}
                icon={IconClockHour4}
                color="yellow"
              />
              <SummaryCard
                label="Completed Transactions"
                value={data.completedCount.toLocaleString('en-IN')}
                icon={IconCircleCheck}
                color="green"
              />
            </SimpleGrid>
            {userId && (
              <UserFilter userId={userId} onClear={() => list.set({ status, sort: keepSort(sort) })} />
            )}
            <Group justify="space-between" mb="sm" gap="sm">
              <Stack gap={4} w={{ base: '100%', xs: 'auto' }}>
                <SegmentedControl
                  aria-label="Status filter"
                  aria-describedby="status-filter-note"
                  data={STATUS_FILTERS}
                  value={status}
                  onChange={(value) => setStatus(value as '' | TransactionStatusName)}
                />
                <Text id="status-filter-note" size="xs" c="dimmed">
                  {FAILED_FILTER_NOTE}
                </Text>
              </Stack>
              {/* The sortable headers are the table's; on a phone, where cards stand in for it, a select. */}
              <Select
                aria-label="Sort transactions"
                data={SORT_OPTIONS}
                value={sort}
                onChange={(value) => {
                  if (value) setSort(value as TransactionSortName);
                }}
                allowDeselect={false}
                hiddenFrom="sm"
                w="100%"
              />
              {transactions.isFetching && <RefreshingLoader />}
            </Group>
            {data.transactions.length === 0 ? (
              <EmptyState icon={<IconReceipt size={26} />} title="No transactions found" />
            ) : (
              <ResponsiveTable
                rows={data.transactions}
                columns={transactionColumns(sort, resort, setOpened)}
                rowKey={(tx) => tx.id}
                label="Transactions"
                minWidth={760}
                rowAttributes={() => ({ 'data-testid': 'admin-transaction-row' })}
                cardAttributes={() => ({ 'data-testid': 'admin-transaction-card' })}
                cardTitle={(tx) => (
                  <>
                    <RowDetailButton onClick={() => setOpened(tx)} hidden="transaction details">
                      Transaction #{tx.id}
                    </RowDetailButton>
                    <Description tx={tx} />
                  </>
                )}
                cardBadge={(tx) => <TransactionStatusBadge tx={tx} />}
              />
            )}
            <ListPager
              total={data.total}
              page={page}
              pageSize={PAGE_SIZE}
              noun={['transaction', 'transactions']}
              onPage={setPage}
            />
            <TransactionDetailsDialog transaction={opened} onClose={() => setOpened(null)} />
          </>
        );
      }}
    </QueryPage>
  );
}

/** The default sort is left out of the URL. */
const keepSort = (sort: TransactionSortName) => (sort === 'date_desc' ? '' : sort);

/** "Showing the transactions of {user}" with a way back to everyone's. */
function UserFilter({ userId, onClear }: { userId: number; onClear: () => void }) {
  return (
    <Group gap="xs" mb="sm" data-testid="transactions-user-filter">
      <Text size="sm">Showing the transactions of</Text>
      <UserName id={userId} />
      <Button
        size="compact-sm"
        variant="light"
        leftSection={<IconX size={14} aria-hidden />}
        onClick={onClear}
      >
        Show every user
      </Button>
    </Group>
  );
}

function SortableHeader({
  column,
  label,
  sort,
  onSort,
  align,
}: {
  column: SortColumn;
  label: string;
  sort: TransactionSortName;
  onSort: (column: SortColumn) => void;
  align?: 'right';
}) {
  const current = parseSort(sort);
  const active = current.column === column;
  const ArrowIcon = active && current.direction === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <Table.Th
      scope="col"
      ta={align}
      aria-sort={active ? (current.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
    >
      <UnstyledButton
        onClick={() => onSort(column)}
        fw={700}
        fz="sm"
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
      >
        {label}
        <ArrowIcon size={14} style={{ opacity: active ? 1 : 0.3 }} aria-hidden />
      </UnstyledButton>
    </Table.Th>
  );
}

function Description({ tx }: { tx: TransactionView }) {
  return (
    <>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {tx.description}
      </Text>
      {tx.counterparty && (
        <Text size="xs" c="dimmed" fw={400}>
          {tx.type === 'credit' ? 'From' : 'To'} {tx.counterparty}
        </Text>
      )}
      <TransactionFailureReason tx={tx} />
    </>
  );
}

/** The table's columns (Amount and Date sort on a click); on a phone each transaction is a card. */
function transactionColumns(
  sort: TransactionSortName,
  onSort: (column: SortColumn) => void,
  onOpen: (tx: TransactionView) => void,
): ResponsiveColumn<TransactionView>[] {
  return [
    {
      header: 'ID',
      cell: (tx) => (
        <RowDetailButton onClick={() => onOpen(tx)} hidden="transaction details" testId="transaction-open">
          #{tx.id}
        </RowDetailButton>
      ),
      hideOnCard: true,
    },
    { header: 'User', cell: (tx) => <UserName id={tx.userId} />, wide: true },
    { header: 'Description', cell: (tx) => <Description tx={tx} />, hideOnCard: true },
    {
      header: 'Amount',
      cell: (tx) => formatINR(tx.amount),
      align: 'right',
      nowrap: true,
      th: <SortableHeader column="amount" label="Amount" sort={sort} onSort={onSort} align="right" />,
    },
    {
      header: 'Type',
      cell: (tx) => <TransactionTypeBadge tx={tx} />,
    },
    { header: 'Status', cell: (tx) => <TransactionStatusBadge tx={tx} />, hideOnCard: true },
    {
      header: 'Date',
      cell: (tx) => <RelativeTime iso={tx.createdAt} />,
      th: <SortableHeader column="date" label="Date" sort={sort} onSort={onSort} />,
    },
  ];
}
