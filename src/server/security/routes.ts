import type { AppContext } from '../context.js';
import type { RouteCatalogue } from '../http/routes.js';
import { registerSecurityInsightRoutes } from './insightRoutes.js';
import { registerProfileAndPolicyRoutes } from './securityRoutes.js';

/** The security manager's endpoints (`/securitymanager/...`). */
export function registerSecurityManagerRoutes(routes: RouteCatalogue, context: AppContext): void {
  // The fixed paths (`/preview`, `/starter`) before the `/:id` ones they would otherwise look like.
  registerSecurityInsightRoutes(routes, context);
  registerProfileAndPolicyRoutes(routes, context);
}
