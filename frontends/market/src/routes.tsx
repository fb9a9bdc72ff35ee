import { ModalsProvider } from '@mantine/modals';
import type { RemoteRoute } from '@qm/ui';
import { lazy } from 'react';
import { MarketPage } from './pages/MarketPage';
import { marketProductsQuery, readMarketView } from './pages/marketQuery';

// /market comes with this module; the other pages are fetched when opened (the shell's remote boundary
// shows the page's frame meanwhile). Their forms, zod and @mantine/form were most of the module that
// /market waited for (71 KiB of 20 KiB compressed; docs/performance/2026-12-03-market-first-render.md).
const PaymentPage = lazy(() => import('./pages/PaymentPage').then((m) => ({ default: m.PaymentPage })));
const CreateProductPage = lazy(() =>
  import('./pages/CreateProductPage').then((m) => ({ default: m.CreateProductPage })),
);
const OrdersPage = lazy(() => import('./pages/OrdersPage').then((m) => ({ default: m.OrdersPage })));

/** Exposed as `./routes`. Paths match the shell's route table (the shell applies the guards). */
const routes: RemoteRoute[] = [
  {
    path: '/market',
    // The delete confirmation (modals.openConfirmModal) is this page's only managed dialog.
    element: (
      <ModalsProvider>
        <MarketPage />
      </ModalsProvider>
    ),
    prefetch: (client, { search }) => void client.prefetchQuery(marketProductsQuery(readMarketView(search))),
  },
  { path: '/market/payment/:productId', element: <PaymentPage /> },
  { path: '/create-product', element: <CreateProductPage /> },
  { path: '/orders', element: <OrdersPage /> },
];

export default routes;
