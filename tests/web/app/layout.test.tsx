import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createConsoleRouter } from '../../../src/web/app/router';
import { mainMenu, settingsMenu, visibleItems } from '../../../src/web/app/shell/menu';
import { menuCollapsedKey } from '../../../src/web/app/shell/ConsoleLayout';
import { updateSession } from '../../../src/web/app/session/session';
import { adminUser, freshSession, serveApi, tokenWith } from './helpers';

beforeEach(() => void vi.spyOn(console, 'warn').mockImplementation(() => undefined));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function openHome() {
  freshSession(tokenWith({}));
  serveApi({ 'GET /api/me': { body: adminUser }, 'GET /api/company': { body: { id: 1, name: 'Acme', domain: 'acme.test' } } });
  const router = createConsoleRouter({ history: createMemoryHistory({ initialEntries: ['/'] }) });
  await act(async () => {
    render(<RouterProvider router={router} />);
    await router.load();
  });
  return router;
}

describe('the menus', () => {
  it('list only built pages the user holds the permission for', () => {
    const everyPageBuilt = () => true;
    expect(visibleItems(settingsMenu, ['users.view_user'], everyPageBuilt).map((item) => item.path)).toEqual(['/settings/user']);
    // The settings overview asks no permission, but shows only to a user who may open a settings page.
    expect(visibleItems(mainMenu, [], everyPageBuilt).map((item) => item.path)).toEqual(['/']);
    expect(visibleItems(mainMenu, ['users.view_user'], everyPageBuilt).map((item) => item.path)).toEqual(['/', '/settings']);
    expect(visibleItems(mainMenu, ['users.view_devices'], everyPageBuilt).map((item) => item.path)).toContain('/device-inventory');
    expect(visibleItems(mainMenu, ['users.view_devices'], (path) => path !== '/device-inventory').map((item) => item.path)).not.toContain('/device-inventory');
  });

  it('lead to the system log for users who may read it', () => {
    const everyPageBuilt = () => true;
    expect(visibleItems(mainMenu, ['activities.view_activity'], everyPageBuilt).map((item) => item.path)).not.toContain('/activities/system');
    expect(visibleItems(mainMenu, ['activities.view_system_log'], everyPageBuilt).map((item) => item.path)).toContain('/activities/system');
  });

  it('leave out the areas whose module the license lacks (has-module-permission), and none while the license is unknown', () => {
    const everyPageBuilt = () => true;
    const permissions = ['users.view_devices', 'reports.view_report', 'avm.change_avmconfiguration'];
    const paths = (items: typeof mainMenu) => items.map((item) => item.path);
    expect(paths(visibleItems(mainMenu, permissions, everyPageBuilt, (module) => module !== 'device_inventory'))).not.toContain('/device-inventory');
    freshSession(tokenWith({}));
    expect(paths(visibleItems(mainMenu, ['users.view_devices'], everyPageBuilt))).toContain('/device-inventory');
    updateSession({ license: { modules: ['dashboards', 'reports'] } });
    expect(paths(visibleItems(mainMenu, ['users.view_devices'], everyPageBuilt))).not.toContain('/device-inventory');
    updateSession({ license: { modules: ['device_inventory'] } });
    expect(paths(visibleItems(mainMenu, ['users.view_devices'], everyPageBuilt))).toContain('/device-inventory');
  });
});

describe('signing out', () => {
  it('goes to login with the page signed out from as the redirect', async () => {
    freshSession(tokenWith({}));
    serveApi({ 'GET /api/me': { body: { ...adminUser, permissions: [...adminUser.permissions, 'adapters.view_connection'] } }, 'GET /api/company': { body: { id: 1, name: 'Acme', domain: 'acme.test' } } });
    const router = createConsoleRouter({ history: createMemoryHistory({ initialEntries: ['/adapters?category=device'] }) });
    await act(async () => {
      render(<RouterProvider router={router} />);
      await router.load();
    });
    act(() => void fireEvent.click(screen.getByRole('button', { name: 'Account menu' })));
    await act(async () => void fireEvent.click(await screen.findByRole('button', { name: 'Sign out' })));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toMatchObject({ redirect: '/adapters?category=device' });
  });
});

describe('the default layout', () => {
  it('shows the navigation and persists the collapse flag in local storage', async () => {
    await openHome();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Home' })).toBeTruthy();
    act(() => void fireEvent.click(screen.getByRole('button', { name: 'Collapse menu' })));
    expect(localStorage.getItem(menuCollapsedKey)).toBe('true');
    expect(screen.getByRole('button', { name: 'Expand menu' }).getAttribute('aria-expanded')).toBe('false');
  });

  it('starts collapsed when the flag says so', async () => {
    freshSession(tokenWith({}));
    localStorage.setItem(menuCollapsedKey, 'true');
    serveApi({ 'GET /api/me': { body: adminUser }, 'GET /api/company': { body: { id: 1, name: 'Acme', domain: 'acme.test' } } });
    const router = createConsoleRouter({ history: createMemoryHistory({ initialEntries: ['/'] }) });
    await act(async () => {
      render(<RouterProvider router={router} />);
      await router.load();
    });
    expect(screen.getByRole('button', { name: 'Expand menu' })).toBeTruthy();
  });
});
