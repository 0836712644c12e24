import { t } from '../i18n/messages';
import { isPageBuilt } from '../pageModules';
import { mayOpen, routeByPath } from '../routeTable';

/** A menu entry; its label is the message `menu.<path>`, so a translation names every entry. */
export type MenuItem = { path: string };

export const menuLabel = (item: MenuItem): string => t(`menu.${item.path}`);

// The main navigation: top-level areas in the order analysts use them.
export const mainMenu: MenuItem[] = [
  { path: '/' },
  { path: '/dashboard' },
  { path: '/discoveries' },
  { path: '/device-inventory' },
  { path: '/user-inventory' },
  { path: '/software-inventory' },
  { path: '/service-inventory' },
  { path: '/certificate-inventory' },
  { path: '/vulnerability-inventory' },
  { path: '/license-inventory' },
  { path: '/adapters' },
  { path: '/action-center' },
  { path: '/reports' },
  { path: '/security-manager' },
  { path: '/activities/user' },
  { path: '/settings' },
];

// The settings side menu (settings layout).
export const settingsMenu: MenuItem[] = [
  { path: '/settings/user' },
  { path: '/settings/group' },
  { path: '/settings/company' },
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
  { path: '/settings/avm-configuration' },
  { path: '/settings/vulnerability-inventory-configuration' },
];

/**
 * The entries a user sees: the page is built and the user holds the route's permission. An area that is not built
 * is left out of the menu rather than linking to a Not Found screen.
 */
export function visibleItems(items: MenuItem[], permissions: readonly string[], built: (path: string) => boolean = builtPath): MenuItem[] {
  return items.filter((item) => {
    const route = routeByPath(item.path);
    // The settings overview needs no permission of its own, but is empty, so hidden, for a user who may open no settings page.
    if (item.path === '/settings' && !visibleItems(settingsMenu, permissions, built).length) return false;
    return route !== undefined && built(item.path) && mayOpen(route, permissions);
  });
}

function builtPath(path: string): boolean {
  const route = routeByPath(path);
  return route !== undefined && isPageBuilt(route);
}
