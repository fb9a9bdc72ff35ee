import type { RemoteRoute } from '@qm/ui';
import { transactionsQuery } from './api';
import { WalletPage } from './pages/WalletPage';

/** Exposed as `./routes`. Paths match the shell's route table (the shell applies the guards). */
const routes: RemoteRoute[] = [
  {
    path: '/wallet',
    element: <WalletPage />,
    // The first page of the history, unfiltered (TransactionHistory's first view). Not the balance: the
    // page loads it afresh on every visit (walletViewQuery), and each load records a wallet_view. Nothing
    // for an administrator, who holds no wallet (the page says so) and whose history call answers 403.
    prefetch: (client, _at, user) => {
      if (!user.isAdmin) void client.prefetchQuery(transactionsQuery({ page: 1 }));
    },
  },
];

export default routes;
