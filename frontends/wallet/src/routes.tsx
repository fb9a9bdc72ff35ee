import type { RemoteRoute } from '@qm/ui';
import { transactionsQuery, walletViewQuery } from './api';
import { WalletPage } from './pages/WalletPage';

/** Exposed as `./routes`. Paths match the shell's route table (the shell applies the guards). */
const routes: RemoteRoute[] = [
  {
    path: '/wallet',
    element: <WalletPage />,
    // The balance and the first page of the history, unfiltered (TransactionHistory's first view).
    prefetch: (client) => {
      void client.prefetchQuery(walletViewQuery());
      void client.prefetchQuery(transactionsQuery({ page: 1 }));
    },
  },
];

export default routes;
