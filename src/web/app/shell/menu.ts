import { t } from '../i18n/messages';
import { isPageBuilt } from '../pageModules';
import { mayOpen, routeByPath } from '../routeTable';
import { getSession, hasModulePermission } from '../session/session';

/**
 * A menu entry; its label is the message `menu.<path>`, so a translation names every entry. `module` is the license
 * module the area belongs to (has-module-permission, spec §6): an area the license lacks is left out.
 */
export type MenuItem = { path: string; module?: string };

export const menuLabel = (item: MenuItem): string => t(`menu.${item.path}`);

// The main navigation: top-level areas in the order analysts use them.
export const mainMenu: MenuItem[] = [
  { path: '/' },
  { path: '/dashboard', module: 'dashboards' },
  { path: '/discoveries' },
  { path: '/device-inventory', module: 'device_inventory' },
  { path: '/user-inventory', module: 'user_inventory' },
  { path: '/software-inventory', module: 'software_inventory' },
  { path: '/service-inventory', module: 'service_inventory' },
  { path: '/certificate-inventory', module: 'certificate_inventory' },
  { path: '/vulnerability-inventory', module: 'vulnerability_management' },
  { path: '/license-inventory', module: 'license_inventory' },
  { path: '/adapters' },
  { path: '/action-center', module: 'action_center' },
  { path: '/reports', module: 'reports' },
  { path: '/security-manager', module: 'security_manager' },
  { path: '/activities/user' },
  { path: '/activities/system' },
  { path: '/settings' },
];

// The settings side menu (settings layout).
export const settingsMenu: MenuItem[] = [
  { path: '/settings/user' },
  { path: '/settings/group' },
  { path: '/settings/company', module: 'multi_company' },
  { path: '/settings/connector' },
  { path: '/settings/custom-adapter' },
  { path: '/settings/license' },
  { path: '/settings/smtp-configuration' },
  { path: '/settings/ldap-configuration' },
  { path: '/settings/syslog-configuration' },
  { path: '/settings/advanced-configuration' },
  { path: '/settings/discovery-schedule' },
  { path: '/settings/discovery-settings' },
  { path: '/settings/company-settings' },
  { path: '/settings/system-information' },
  { path: '/settings/avm-configuration', module: 'vulnerability_management' },
  { path: '/settings/vulnerability-inventory-configuration', module: 'vulnerability_management' },
];

/** has-module-permission (spec §6), once the license is known: a license that failed to load (it loads silently) hides nothing. */
const licensedModule = (module: string) => getSession().license === null || hasModulePermission(module);

/**
 * The entries a user sees: the page is built, the user holds the route's permission and the license its module. An
 * area that is not built is left out of the menu rather than linking to a Not Found screen.
 */
export function visibleItems(
  items: MenuItem[], permissions: readonly string[], built: (path: string) => boolean = builtPath, licensed: (module: string) => boolean = licensedModule,
): MenuItem[] {
  return items.filter((item) => {
    const route = routeByPath(item.path);
    // The settings overview needs no permission of its own, but is empty, so hidden, for a user who may open no settings page.
    if (item.path === '/settings' && !visibleItems(settingsMenu, permissions, built, licensed).length) return false;
    if (item.module && !licensed(item.module)) return false;
    return route !== undefined && built(item.path) && mayOpen(route, permissions);
  });
}

function builtPath(path: string): boolean {
  const route = routeByPath(path);
  return route !== undefined && isPageBuilt(route);
}
