import { Anchor, Badge, Group, SimpleGrid, Text, VisuallyHidden } from '@mantine/core';
import type { AdminWalletView } from '@qm/contracts/rest';
import {
  EmptyState,
  formatINR,
  PageHeader,
  RelativeTime,
  type ResponsiveColumn,
  ResponsiveTable,
} from '@qm/ui';
import { IconWallet, IconWalletOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { ListPager } from '../components/ListPager';
import { ListSearch } from '../components/ListSearch';
import { QueryPage } from '../components/QueryPage';
import { SummaryCard } from '../components/SummaryCard';
import { DeletedUser, UserName } from '../components/UserName';
import { useListParams } from '../listParams';
import { ADMIN_WALLETS_PAGE_SIZE, adminWalletsQuery } from '../wallets';

const BADGE_STYLES = { label: { overflow: 'visible' } } as const;

/** The admin transactions page narrowed to one user's lines (the row's detail). */
export const userTransactionsPath = (userId: number) => `/admin/transactions?userId=${userId}`;

/** /admin/wallets: every user's wallet, searched by username and paged by the server. */
export function WalletsPage() {
  const list = useListParams<'search'>();
  const search = list.get('search');
  const wallets = useQuery(
    adminWalletsQuery({ page: list.page, pageSize: ADMIN_WALLETS_PAGE_SIZE, search: search || undefined }),
  );

  const header = (
    <PageHeader
      title="Wallet Management"
      subtitle="Every user's wallet: balance, money on hold and last movement."
    />
  );
  return (
    <QueryPage
      header={header}
      query={wallets}
      loading="Loading wallets..."
      failed={{ title: 'Failed to fetch wallets', fallback: 'The wallets could not be loaded.' }}
    >
      {(data) => (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2 }} mb="lg">
            <SummaryCard label="Total Balance" value={formatINR(data.totalBalance)} icon={IconWallet} />
            <SummaryCard
              label={search ? 'Matching Wallets' : 'Wallets'}
              value={data.total.toLocaleString('en-IN')}
              icon={IconWallet}
              color="blue"
            />
          </SimpleGrid>
          <Group mb="sm">
            <ListSearch
              label="Search wallets by username"
              placeholder="Search by username..."
              value={search}
              onSearch={(next) => list.set({ search: next }, { replace: true })}
            />
          </Group>
          {data.wallets.length === 0 ? (
            <EmptyState
              icon={<IconWalletOff size={26} />}
              title="No wallets found"
              description={search ? `No username contains "${search}".` : undefined}
            />
          ) : (
            <ResponsiveTable
              rows={data.wallets}
              columns={COLUMNS}
              rowKey={(wallet) => wallet.id}
              label="Wallets"
              minWidth={820}
              rowAttributes={(wallet) => ({
                'data-testid': 'admin-wallet-row',
                'data-user-id': wallet.userId,
              })}
              cardAttributes={(wallet) => ({
                'data-testid': 'admin-wallet-card',
                'data-user-id': wallet.userId,
              })}
              cardTitle={(wallet) => <WalletUser wallet={wallet} />}
              cardBadge={(wallet) => <WalletStatus wallet={wallet} />}
              cardFooter={(wallet) => <TransactionsLink wallet={wallet} />}
            />
          )}
          <ListPager
            total={data.total}
            page={list.page}
            pageSize={ADMIN_WALLETS_PAGE_SIZE}
            noun={['wallet', 'wallets']}
            fetching={wallets.isFetching}
            onPage={(page) => list.set({ page, search })}
          />
        </>
      )}
    </QueryPage>
  );
}

/** A closed wallet belongs to a deleted user (identity deleted them; the money stays on it). */
function WalletUser({ wallet }: { wallet: AdminWalletView }) {
  return wallet.isActive ? <UserName id={wallet.userId} withName /> : <DeletedUser />;
}

function WalletStatus({ wallet }: { wallet: AdminWalletView }) {
  return (
    <Badge variant="light" color={wallet.isActive ? 'green' : 'gray'} styles={BADGE_STYLES}>
      {wallet.isActive ? 'Active' : 'Closed'}
    </Badge>
  );
}

function LastMovement({ iso }: { iso: string | null }) {
  if (!iso) {
    return (
      <Text size="sm" c="dimmed">
        Never
      </Text>
    );
  }
  return <RelativeTime iso={iso} />;
}

function TransactionsLink({ wallet }: { wallet: AdminWalletView }) {
  return (
    <Anchor
      component={Link}
      to={userTransactionsPath(wallet.userId)}
      size="sm"
      style={{ whiteSpace: 'nowrap' }}
      data-testid="wallet-transactions-link"
    >
      Transactions
      <VisuallyHidden> of {wallet.username || `wallet #${wallet.id}`}</VisuallyHidden>
    </Anchor>
  );
}

const COLUMNS: ResponsiveColumn<AdminWalletView>[] = [
  { header: 'User', cell: (wallet) => <WalletUser wallet={wallet} />, hideOnCard: true },
  { header: 'Balance', cell: (wallet) => formatINR(wallet.balance), align: 'right', nowrap: true },
  { header: 'On Hold', cell: (wallet) => formatINR(wallet.heldBalance), align: 'right', nowrap: true },
  { header: 'Last Movement', cell: (wallet) => <LastMovement iso={wallet.lastTransactionAt} /> },
  { header: 'Status', cell: (wallet) => <WalletStatus wallet={wallet} />, hideOnCard: true },
  { header: 'Details', cell: (wallet) => <TransactionsLink wallet={wallet} />, hideOnCard: true },
];
