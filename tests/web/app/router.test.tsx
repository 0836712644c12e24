import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pageSourceFor } from '../../../src/web/app/pageModules';
import { createConsoleRouter } from '../../../src/web/app/router';
import { routeTable, type RouteEntry } from '../../../src/web/app/routeTable';
import { adminUser, freshSession, serveApi, tokenWith } from './helpers';

beforeEach(() => void vi.spyOn(console, 'warn').mockImplementation(() => undefined));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function renderAt(path: string, entries?: RouteEntry[]) {
  const router = createConsoleRouter({ history: createMemoryHistory({ initialEntries: [path] }), entries });
  await act(async () => {
    render(<RouterProvider router={router} />);
    await router.load();
  });
  return router;
}

const adminPermissions = ['users.view_user', 'users.change_user', 'dashboards.view_dashboard', 'reports.view_report'];
const signedInAsAdmin = (permissions = adminPermissions) => {
  freshSession(tokenWith({}));
  serveApi({ 'GET /api/me': { body: { ...adminUser, permissions } }, 'GET /api/company': { body: { id: 1, name: 'Acme', domain: 'acme.test' } } });
};

describe('the console router', () => {
  it('redirects an unauthenticated visitor to the login page with the full path', async () => {
    freshSession();
    const router = await renderAt('/settings/user?page=2');
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toEqual({ redirect: '/settings/user?page=2' });
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
  });

  it('shows the non-fatal Not Found screen for a path no route matches', async () => {
    signedInAsAdmin();
    await renderAt('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeTruthy();
  });

  it('shows the Not Found screen when a validity check fails (an id that is not a number)', async () => {
    signedInAsAdmin();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await renderAt('/settings/user/abc/edit');
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeTruthy();
    // The failing route's screen takes the page's place inside the console, settings menu included.
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Settings' })).toBeTruthy();
  });

  it('shows the Not Found screen, deliberately, on a route whose page module is not built yet', async () => {
    signedInAsAdmin();
    // A route of the table whose page module is absent (as every page was before its issue) must not pretend.
    const unbuilt = { ...routeTable.find((route) => route.path === '/reports')!, path: '/reports-not-built', name: 'reports-not-built', page: 'reports/NotBuiltYet' };
    expect(pageSourceFor(unbuilt)).toBeNull();
    const router = await renderAt('/reports-not-built', [...routeTable, unbuilt]);
    expect(router.state.location.pathname).toBe('/reports-not-built');
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeTruthy();
  });

  it('renders a built page inside its layout once the guards pass', async () => {
    // Without dashboards.view_dashboard, `/` keeps the welcome page (with it, home hands over to /dashboard).
    signedInAsAdmin(adminPermissions.filter((permission) => permission !== 'dashboards.view_dashboard'));
    await renderAt('/');
    expect(await screen.findByRole('heading', { name: /Welcome, Cartograph/ })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
  });

  it('scrolls to the top after navigation unless the route says otherwise', async () => {
    signedInAsAdmin();
    const scrollTo = vi.fn();
    vi.stubGlobal('scrollTo', scrollTo);
    const entries = routeTable.map((route) => (route.path === '/forbidden' ? { ...route, scrollToTop: false } : route));
    const router = await renderAt('/', entries);
    scrollTo.mockClear();
    await act(() => router.navigate({ to: '/permission-denied' } as never));
    expect(scrollTo).toHaveBeenCalledWith(expect.objectContaining({ top: 0, left: 0 }));
    scrollTo.mockClear();
    await act(() => router.navigate({ to: '/forbidden' } as never));
    expect(scrollTo).not.toHaveBeenCalled();
  });

  it('refuses to build a route table that names an unknown middleware', () => {
    const entries = [{ ...routeTable[0]!, middleware: ['teleport'] }];
    expect(() => createConsoleRouter({ history: createMemoryHistory(), entries })).toThrow('Unknown route middleware "teleport"');
  });
});

describe('a fatal route error', () => {
  // A route whose validity check names no known check fails in its beforeLoad with a plain Error: a fatal error other
  // than a 404, which shows the error page to people.
  const brokenRoute = (): RouteEntry => ({ ...routeTable.find((route) => route.path === '/forbidden')!, path: '/broken/{id}', name: 'broken', validate: { id: 'no-such-check' as never } });
  const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

  it('shows the error page to a person', async () => {
    signedInAsAdmin();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await renderAt('/broken/1', [...routeTable, brokenRoute()]);
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByText('Unknown route validity check: no-such-check')).toBeTruthy();
  });

  it('is logged and shows no error page when a search-engine bot meets it (spec §4)', async () => {
    signedInAsAdmin();
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(googlebot);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const router = await renderAt('/broken/1', [...routeTable, brokenRoute()]);
    await waitFor(() => expect(logged).toHaveBeenCalledWith('Error met by a search-engine or preview bot', expect.objectContaining({ message: 'Unknown route validity check: no-such-check' })));
    expect(router.state.location.pathname).toBe('/broken/1');
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
