import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createConsoleRouter } from '../../../src/web/app/router';
import { mainMenu, settingsMenu, visibleItems } from '../../../src/web/app/shell/menu';
import { menuCollapsedKey } from '../../../src/web/app/shell/ConsoleLayout';
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
