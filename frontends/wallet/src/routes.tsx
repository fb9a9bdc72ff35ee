import type { RemoteRoute } from '@qm/ui';
import { WalletPage } from './pages/WalletPage';

/** Exposed as `./routes`. Paths match the shell's route table (the shell applies the guards). */
const routes: RemoteRoute[] = [{ path: '/wallet', element: <WalletPage /> }];

export default routes;
