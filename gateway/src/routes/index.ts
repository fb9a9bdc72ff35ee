import type { GatewayDeps } from '../deps';
import type { Api } from '../http/api';
import { registerActivityRoutes } from './activity';
import { registerAssistantRoutes } from './assistant';
import { registerCatalogRoutes } from './catalog';
import { registerIdentityRoutes } from './identity';
import { registerLiveRoutes } from './live';
import { registerOrderRoutes } from './orders';
import { registerRefundRoutes } from './orders/refunds';
import { registerSupportRoutes } from './support';
import { registerStatsRoutes } from './stats';
import { registerWalletRoutes } from './wallet';

/** Every REST area of docs/product.md §7, one module each. */
export function registerRoutes(api: Api, deps: GatewayDeps): void {
  registerCatalogRoutes(api, deps);
  registerIdentityRoutes(api, deps);
  registerWalletRoutes(api, deps);
  registerOrderRoutes(api, deps);
  registerRefundRoutes(api, deps);
  registerSupportRoutes(api, deps);
  registerAssistantRoutes(api, deps);
  registerStatsRoutes(api, deps);
  registerActivityRoutes(api, deps);
  registerLiveRoutes(api, deps);
}
