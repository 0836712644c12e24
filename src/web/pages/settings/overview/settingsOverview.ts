import { isPageBuilt } from '../../../app/pageModules';
import { mayOpen, routeTable, type RouteEntry } from '../../../app/routeTable';

export type OverviewGroup = 'access' | 'integrations' | 'discovery' | 'vulnerabilities' | 'system' | 'other';
export type OverviewEntry = { route: RouteEntry; group: OverviewGroup };

export const overviewGroups: OverviewGroup[] = ['access', 'integrations', 'discovery', 'vulnerabilities', 'system', 'other'];

// Where each settings page sits on the overview; a settings page added to routes.json later shows under "other".
const groupOfPath: Record<string, OverviewGroup> = {
  '/settings/user': 'access', '/settings/group': 'access', '/settings/company': 'access', '/settings/ldap-configuration': 'access', '/settings/company-settings': 'access',
  '/settings/connector': 'integrations', '/settings/custom-adapter': 'integrations', '/settings/smtp-configuration': 'integrations', '/settings/syslog-configuration': 'integrations',
  '/settings/discovery-schedule': 'discovery', '/settings/discovery-settings': 'discovery', '/settings/advanced-configuration': 'discovery',
  '/settings/avm-configuration': 'vulnerabilities', '/settings/vulnerability-inventory-configuration': 'vulnerabilities',
  '/settings/license': 'system', '/settings/system-information': 'system',
};

/** A settings page one opens from a menu: not the overview itself, nor a create, edit or upload step of a list. */
const isLandingPage = (route: RouteEntry) =>
  route.layout === 'settings' && route.path.startsWith('/settings/') && !route.path.includes('{') && !route.path.endsWith('/create') && !route.path.includes('/upload/');

/**
 * The settings pages the caller may open, from routes.json: built, and the route's permission held. Grouped in
 * overview order, routes.json order within a group. Before: permissions ['users.view_user']; after: the users page only.
 */
export function settingsOverview(permissions: readonly string[], routes: readonly RouteEntry[] = routeTable, built: (route: RouteEntry) => boolean = isPageBuilt): OverviewEntry[] {
  const entries = routes.filter((route) => isLandingPage(route) && mayOpen(route, permissions) && built(route)).map((route) => ({ route, group: groupOfPath[route.path] ?? 'other' }));
  return overviewGroups.flatMap((group) => entries.filter((entry) => entry.group === group));
}
