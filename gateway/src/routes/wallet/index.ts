import type { GatewayDeps } from '../../deps';
import type { Api } from '../../http/api';
import { registerAccountRoutes } from './account';
import { registerAdminWalletRoutes } from './admin';
import { walletContext } from './context';
import { registerPinRoutes } from './pin';
import { registerTopUpRoutes } from './topup';
import { registerTransferRoutes } from './transfer';
import { registerWebhookRoutes } from './webhooks';

/**
 * The wallet area of docs/product.md §7, one module per concern. Thin: each route validates with the contract's
 * schema, calls the wallet service (which holds every rule) and maps the answer to its REST view.
 */
export function registerWalletRoutes(api: Api, deps: GatewayDeps): void {
  const ctx = walletContext(deps);
  registerAccountRoutes(api, ctx);
  registerTopUpRoutes(api, ctx);
  registerPinRoutes(api, ctx);
  registerTransferRoutes(api, ctx);
  registerAdminWalletRoutes(api, ctx);
  registerWebhookRoutes(api, ctx);
}
