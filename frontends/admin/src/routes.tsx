import type { RemoteRoute } from '@qm/ui';
import { DashboardPage } from './pages/DashboardPage';
import { OrdersPage } from './pages/OrdersPage';
import { ProductsPage } from './pages/ProductsPage';
import { QueriesPage } from './pages/QueriesPage';
import { RefundsPage } from './pages/RefundsPage';
import { TransactionsPage } from './pages/TransactionsPage';
import { UserActivitiesPage } from './pages/UserActivitiesPage';
import { UsersPage } from './pages/UsersPage';
import { WalletsPage } from './pages/WalletsPage';

/** Exposed as `./routes`. Paths match the shell's route table (the shell applies the admin guard). */
const routes: RemoteRoute[] = [
  { path: '/admin/dashboard', element: <DashboardPage /> },
  { path: '/admin/users', element: <UsersPage /> },
  { path: '/admin/transactions', element: <TransactionsPage /> },
  { path: '/admin/wallets', element: <WalletsPage /> },
  { path: '/admin/products', element: <ProductsPage /> },
  { path: '/admin/orders', element: <OrdersPage /> },
  { path: '/admin/queries', element: <QueriesPage /> },
  { path: '/admin/refunds', element: <RefundsPage /> },
  { path: '/admin/user-activities', element: <UserActivitiesPage /> },
];

export default routes;
