import {
  Badge,
  Group,
  Loader,
  Pagination,
  SegmentedControl,
  Select,
  SimpleGrid,
  Table,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import type { TransactionSortName, TransactionStatusName, TransactionView } from '@qm/contracts/rest';
import {
  EmptyState,
  exactDate,
  formatINR,
  fromNow,
  LoadError,
  PageHeader,
  PageLoader,
  type ResponsiveColumn,
  ResponsiveTable,
  useUserSummary,
} from '@qm/ui';
import {
  IconArrowDown,
  IconArrowUp,
  IconCircleCheck,
  IconClockHour4,
  IconReceipt,
  IconWallet,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { SummaryCard } from '../components/SummaryCard';
import { adminTransactionsQuery, parseSort, toggleSort, type SortColumn } from '../transactions';

const PAGE_SIZE = 20;

const STATUS_FILTERS: { value: '' | TransactionStatusName; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'completed', label: 'Completed' },
  { value: 'pending', label: 'Pending' },
  { value: 'failed', label: 'Failed' },
];

const STATUS_COLORS: Record<TransactionStatusName, string> = {
  completed: 'green',
  pending: 'yellow',
  failed: 'red',
};

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const BADGE_STYLES = { label: { overflow: 'visible' } } as const;

const SORT_OPTIONS: { value: TransactionSortName; label: string }[] = [
  { value: 'date_desc', label: 'Newest first' },
  { value: 'date_asc', label: 'Oldest first' },
  { value: 'amount_desc', label: 'Largest amount first' },
  { value: 'amount_asc', label: 'Smallest amount first' },
];

/** /admin/transactions (spec §2): every wallet's transactions, filtered by status, sorted by date or amount. */
export function TransactionsPage() {
  const [status, setStatus] = useState<'' | TransactionStatusName>('');
  const [sort, setSort] = useState<TransactionSortName>('date_desc');
  const [page, setPage] = useState(1);
  const transactions = useQuery(
    adminTransactionsQuery({ page, pageSize: PAGE_SIZE, status: status || undefined, sort }),
  );

  const header = (
    <PageHeader title="Transaction Management" subtitle="Every wallet transaction across the marketplace." />
  );
  if (transactions.isPending) {
    return (
      <>
        {header}
        <PageLoader message="Loading transactions..." />
      </>
    );
  }
  if (transactions.isError) {
    return (
      <>
        {header}
        <LoadError
          title="Failed to fetch transactions"
          error={transactions.error}
          fallback="The transactions could not be loaded."
          onRetry={() => void transactions.refetch()}
        />
      </>
    );
  }

  const data = transactions.data;
  const totalPages = Math.max(1, Math.ceil(data.total / PAGE_SIZE));
  const resort = (column: SortColumn) => {
    setSort((current) => toggleSort(current, column));
    setPage(1);
  };

  return (
    <>
      {header}
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
      <Group justify="space-between" mb="sm" gap="sm">
        <SegmentedControl
          aria-label="Status filter"
          data={STATUS_FILTERS}
          value={status}
          onChange={(value) => {
            setStatus(value as '' | TransactionStatusName);
            setPage(1);
          }}
          w={{ base: '100%', xs: 'auto' }}
        />
        {/* The sortable headers are the table's; on a phone, where cards stand in for it, a select. */}
        <Select
          aria-label="Sort transactions"
          data={SORT_OPTIONS}
          value={sort}
          onChange={(value) => {
            if (!value) return;
            setSort(value as TransactionSortName);
            setPage(1);
          }}
          allowDeselect={false}
          hiddenFrom="sm"
          w="100%"
        />
        {transactions.isFetching && <Loader size="xs" aria-label="Refreshing" />}
      </Group>
      {data.transactions.length === 0 ? (
        <EmptyState icon={<IconReceipt size={26} />} title="No transactions found" />
      ) : (
        <ResponsiveTable
          rows={data.transactions}
          columns={transactionColumns(sort, resort)}
          rowKey={(tx) => tx.id}
          label="Transactions"
          minWidth={760}
          rowAttributes={() => ({ 'data-testid': 'admin-transaction-row' })}
          cardAttributes={() => ({ 'data-testid': 'admin-transaction-card' })}
          cardTitle={(tx) => (
            <>
              <Text size="xs" c="dimmed" fw={400}>
                Transaction #{tx.id}
              </Text>
              <Description tx={tx} />
            </>
          )}
          cardBadge={(tx) => <StatusBadge tx={tx} />}
        />
      )}
      <Group justify="space-between" mt="md" gap="sm">
        <Text size="sm" c="dimmed">
          {data.total.toLocaleString('en-IN')} {data.total === 1 ? 'transaction' : 'transactions'}
        </Text>
        {totalPages > 1 && (
          <Pagination
            total={totalPages}
            value={Math.min(page, totalPages)}
            onChange={setPage}
            getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
            siblings={1}
            boundaries={1}
          />
        )}
      </Group>
    </>
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

function UserCell({ id }: { id: number }) {
  const { data, isPending } = useUserSummary(id);
  if (isPending) return <Loader size="xs" role="status" aria-label="Loading user" />;
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      {data?.username ?? `User #${id}`}
    </Text>
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
      {tx.status === 'failed' && tx.failureReason && (
        <Text size="xs" c="red" fw={400} data-testid="failure-reason">
          {tx.failureReason}
        </Text>
      )}
    </>
  );
}

function StatusBadge({ tx }: { tx: TransactionView }) {
  return (
    <Badge variant="light" color={STATUS_COLORS[tx.status]} styles={BADGE_STYLES}>
      {capitalize(tx.status)}
    </Badge>
  );
}

function WhenCell({ iso }: { iso: string }) {
  return (
    <Tooltip label={exactDate(iso)} openDelay={300}>
      <Text component="time" dateTime={iso} size="sm" style={{ whiteSpace: 'nowrap' }}>
        {fromNow(iso)}
      </Text>
    </Tooltip>
  );
}

/** The table's columns (Amount and Date sort on a click); on a phone each transaction is a card. */
function transactionColumns(
  sort: TransactionSortName,
  onSort: (column: SortColumn) => void,
): ResponsiveColumn<TransactionView>[] {
  return [
    { header: 'ID', cell: (tx) => tx.id, hideOnCard: true },
    { header: 'User', cell: (tx) => <UserCell id={tx.userId} />, wide: true },
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
      cell: (tx) => (
        <Badge variant="light" color="gray" styles={BADGE_STYLES}>
          {capitalize(tx.type)}
        </Badge>
      ),
    },
    { header: 'Status', cell: (tx) => <StatusBadge tx={tx} />, hideOnCard: true },
    {
      header: 'Date',
      cell: (tx) => <WhenCell iso={tx.createdAt} />,
      th: <SortableHeader column="date" label="Date" sort={sort} onSort={onSort} />,
    },
  ];
}
