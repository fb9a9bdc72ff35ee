import type { GatewayDeps } from '../../deps';
import type { Api } from '../../http/api';
import { identityContext } from './context';
import { registerPasswordChangeRoutes, registerPasswordResetRoutes } from './passwords';
import { registerProfileRoutes } from './profile';
import { registerRegistrationRoutes } from './registration';
import { registerSessionRoutes } from './session';
import { registerUserRoutes } from './users';

export { userToRest } from './rest';

/** The identity area of docs/product.md §7, one module per concern, registered in the order of the OpenAPI document. */
export function registerIdentityRoutes(api: Api, deps: GatewayDeps): void {
  const ctx = identityContext(deps);
  registerSessionRoutes(api, ctx);
  registerRegistrationRoutes(api, ctx);
  registerPasswordResetRoutes(api, ctx);
  registerProfileRoutes(api, ctx);
  registerPasswordChangeRoutes(api, ctx);
  registerUserRoutes(api, ctx);
}
