import { ModalsProvider } from '@mantine/modals';
import type { RemoteRoute } from '@qm/ui';
import { CreateProductPage } from './pages/CreateProductPage';
import { MarketPage } from './pages/MarketPage';
import { OrdersPage } from './pages/OrdersPage';
import { PaymentPage } from './pages/PaymentPage';
import { marketProductsQuery, readMarketView } from './pages/marketQuery';

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
