import { Box, Card, Group, SimpleGrid, Skeleton, Text, ThemeIcon } from '@mantine/core';
import { formatPaise } from '@qm/contracts/rest';
import { formatINR, PageHeader } from '@qm/ui';
import {
  IconArrowsExchange,
  IconMessageQuestion,
  IconPackage,
  IconReceiptRefund,
  IconShoppingCart,
  IconUsers,
  IconWallet,
  type Icon,
} from '@tabler/icons-react';
import { lazy, type ReactNode, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { DashboardFigure, grouped, plural } from '../components/DashboardFigure';
import { adminOrdersQuery } from '../orders';
import { adminQueriesQuery } from '../queries';
import { orderStatsQuery, productsTotalQuery, userStatsQuery } from '../stats';
import { adminTransactionsQuery } from '../transactions';
import { adminWalletsQuery } from '../wallets';

/** The charts bring recharts: a chunk of their own, fetched only when the dashboard opens. */
const DashboardCharts = lazy(() => import('../components/DashboardCharts'));

const CARDS: { label: string; to: string; icon: Icon; figure?: ReactNode }[] = [
  {
    label: 'Users',
    to: '/admin/users',
    icon: IconUsers,
    figure: (
      <DashboardFigure
        name="users"
        query={userStatsQuery()}
        figure={(d) => grouped(d.total)}
        caption={(d) => `${plural(d.total, 'user')} · ${grouped(d.byStatus.pending)} pending`}
      />
    ),
  },
  {
    label: 'Transactions',
    to: '/admin/transactions',
    icon: IconArrowsExchange,
    // docs/product.md §2: the transactions total sums amounts (every completed transaction's, whatever the page).
    figure: (
      <DashboardFigure
        name="transactions"
        query={adminTransactionsQuery({ page: 1, pageSize: 1, sort: 'date_desc' })}
        figure={(d) => formatINR(d.completedAmount)}
        caption={(d) => `Sum of completed amounts · ${grouped(d.total)} ${plural(d.total, 'transaction')}`}
      />
    ),
  },
  {
    label: 'Wallets',
    to: '/admin/wallets',
    icon: IconWallet,
    // docs/product.md §2: the wallets list is summed (the balances of every user's wallet).
    figure: (
      <DashboardFigure
        name="wallets"
        query={adminWalletsQuery({ page: 1, pageSize: 1 })}
        figure={(d) => formatINR(d.totalBalance)}
        caption={(d) => `Total balance · ${grouped(d.total)} ${plural(d.total, 'wallet')}`}
      />
    ),
  },
  {
    label: 'Orders',
    to: '/admin/orders',
    icon: IconShoppingCart,
    figure: (
      <DashboardFigure
        name="orders"
        query={adminOrdersQuery({ page: 1, pageSize: 1, scope: 'all' })}
        figure={(d) => grouped(d.allCount)}
        caption={(d) => `${plural(d.allCount, 'order')} · ${grouped(d.completedCount)} completed`}
      />
    ),
  },
  {
    label: 'Products',
    to: '/admin/products',
    icon: IconPackage,
    figure: (
      <DashboardFigure
        name="products"
        query={productsTotalQuery()}
        figure={(total) => grouped(total)}
        caption={(total) => `${plural(total, 'product')} listed`}
      />
    ),
  },
  {
    label: 'Queries',
    to: '/admin/queries',
    icon: IconMessageQuestion,
    figure: (
      <DashboardFigure
        name="queries"
        query={adminQueriesQuery({ page: 1, pageSize: 1, status: 'all' })}
        figure={(d) => grouped(d.allCount)}
        caption={(d) => `${plural(d.allCount, 'query', 'queries')} · ${grouped(d.pendingCount)} pending`}
      />
    ),
  },
  {
    label: 'Refunds',
    to: '/admin/refunds',
    icon: IconReceiptRefund,
    // The money paid back to buyers (docs/adr/028), from the same order statistics as the charts.
    figure: (
      <DashboardFigure
        name="refunds"
        query={orderStatsQuery()}
        figure={(d) => formatPaise(d.refundedPaise)}
        caption={(d) =>
          `Total refunded · ${grouped(d.byStatus.refunded)} refunded ${plural(d.byStatus.refunded, 'order')}`
        }
      />
    ),
  },
];

export function DashboardPage() {
  return (
    <>
      <PageHeader title="Admin Dashboard" />
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
        {CARDS.map(({ label, to, icon: CardIcon, figure }) => (
          <Card key={to} component={Link} to={to} withBorder radius="md" padding="lg">
            <Group justify="space-between">
              <Text fw={600}>{label}</Text>
              <ThemeIcon variant="light">
                <CardIcon size={18} />
              </ThemeIcon>
            </Group>
            {figure && <Box mt="sm">{figure}</Box>}
          </Card>
        ))}
      </SimpleGrid>
      <Suspense fallback={<Skeleton h={320} mt="lg" radius="md" role="status" aria-label="Loading charts" />}>
        <DashboardCharts />
      </Suspense>
    </>
  );
}
