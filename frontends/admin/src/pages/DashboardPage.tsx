import { Box, Card, Group, SimpleGrid, Skeleton, Text, ThemeIcon } from '@mantine/core';
import { PageHeader } from '@qm/ui';
import {
  IconArrowsExchange,
  IconMessageQuestion,
  IconPackage,
  IconShoppingCart,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import { lazy, type ReactNode, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { OrdersTotal } from '../components/OrdersTotal';
import { QueriesTotal } from '../components/QueriesTotal';
import { ProductsTotal } from '../components/ProductsTotal';
import { TransactionsTotal } from '../components/TransactionsTotal';
import { UsersTotal } from '../components/UsersTotal';

/** The charts bring recharts: a chunk of their own, fetched only when the dashboard opens. */
const DashboardCharts = lazy(() => import('../components/DashboardCharts'));

const CARDS: { label: string; to: string; icon: Icon; figure?: ReactNode }[] = [
  { label: 'Users', to: '/admin/users', icon: IconUsers, figure: <UsersTotal /> },
  {
    label: 'Transactions',
    to: '/admin/transactions',
    icon: IconArrowsExchange,
    figure: <TransactionsTotal />,
  },
  { label: 'Orders', to: '/admin/orders', icon: IconShoppingCart, figure: <OrdersTotal /> },
  { label: 'Products', to: '/admin/products', icon: IconPackage, figure: <ProductsTotal /> },
  { label: 'Queries', to: '/admin/queries', icon: IconMessageQuestion, figure: <QueriesTotal /> },
];

export function DashboardPage() {
  return (
    <>
      <PageHeader title="Admin Dashboard" />
      <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }}>
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
      <Suspense fallback={<Skeleton h={320} mt="lg" radius="md" aria-label="Loading charts" />}>
        <DashboardCharts />
      </Suspense>
    </>
  );
}
