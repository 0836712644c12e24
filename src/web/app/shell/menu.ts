import { isPageBuilt } from '../pageModules';
import { mayOpen, routeByPath } from '../routeTable';

export type MenuItem = { label: string; path: string };

// The main navigation: top-level areas in the order analysts use them.
export const mainMenu: MenuItem[] = [
  { label: 'Home', path: '/' },
  { label: 'Dashboard', path: '/dashboard' },
  { label: 'Discoveries', path: '/discoveries' },
  { label: 'Devices', path: '/device-inventory' },
  { label: 'Users', path: '/user-inventory' },
  { label: 'Software', path: '/software-inventory' },
  { label: 'Services', path: '/service-inventory' },
  { label: 'Certificates', path: '/certificate-inventory' },
  { label: 'Vulnerabilities', path: '/vulnerability-inventory' },
  { label: 'Licenses', path: '/license-inventory' },
  { label: 'Adapters', path: '/adapters' },
  { label: 'Action center', path: '/action-center' },
  { label: 'Reports', path: '/reports' },
  { label: 'Security manager', path: '/security-manager' },
  { label: 'Activities', path: '/activities/user' },
  { label: 'Settings', path: '/settings' },
];

// The settings side menu (settings layout).
export const settingsMenu: MenuItem[] = [
  { label: 'Users', path: '/settings/user' },
  { label: 'Groups', path: '/settings/group' },
  { label: 'Companies', path: '/settings/company' },
  { label: 'Connectors', path: '/settings/connector' },
  { label: 'Custom adapters', path: '/settings/custom-adapter' },
  { label: 'License', path: '/settings/license' },
  { label: 'SMTP', path: '/settings/smtp-configuration' },
  { label: 'LDAP', path: '/settings/ldap-configuration' },
  { label: 'Syslog', path: '/settings/syslog-configuration' },
  { label: 'Advanced', path: '/settings/advanced-configuration' },
  { label: 'Discovery schedule', path: '/settings/discovery-schedule' },
  { label: 'Discovery settings', path: '/settings/discovery-settings' },
  { label: 'Company settings', path: '/settings/company-settings' },
  { label: 'System information', path: '/settings/system-information' },
  { label: 'AVM', path: '/settings/avm-configuration' },
  { label: 'Vulnerability enrichment', path: '/settings/vulnerability-inventory-configuration' },
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
