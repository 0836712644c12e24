import { createMemoryHistory, createRootRoute, createRoute, createRouter, redirect, RouterProvider } from '@tanstack/react-router';
import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { updateSession } from '../../../src/web/app/session/session';
import { getBreadcrumb } from '../../../src/web/app/shell/breadcrumb';
import { Home } from '../../../src/web/pages/system/Home';
import { signInWith } from './pageSession';

/** Home on `/` and `/404` (as routes.json has it), beside a dashboard route and one other page. */
async function renderHome(entries: string[]) {
  const root = createRootRoute();
  const routes = [
    createRoute({ getParentRoute: () => root, path: '/', component: Home }),
    createRoute({ getParentRoute: () => root, path: '/404', component: Home }),
    createRoute({ getParentRoute: () => root, path: '/dashboard', component: () => <h1>the dashboard page</h1> }),
    createRoute({ getParentRoute: () => root, path: '/discoveries', component: () => <h1>the discoveries page</h1> }),
    // Like the guest guard of /login for a signed-in user: a redirect to home while a navigation is under way.
    createRoute({ getParentRoute: () => root, path: '/login', beforeLoad: () => { throw redirect({ to: '/' }); }, component: () => <h1>the login page</h1> }),
  ];
  const router = createRouter({ routeTree: root.addChildren(routes), history: createMemoryHistory({ initialEntries: entries, initialIndex: entries.length - 1 }) });
  await act(async () => {
    render(<RouterProvider router={router} />);
    await router.load();
  });
  return router;
}

describe('the home page', () => {
  it('hands a user who may view dashboards over to the default dashboard, replacing `/` in the history', async () => {
    signInWith(['dashboards.view_dashboard']);
    const router = await renderHome(['/discoveries', '/']);
    await screen.findByRole('heading', { name: 'the dashboard page' });
    expect(router.state.location.pathname).toBe('/dashboard');
    // Back goes to the page before home, not to `/` (which would hand over again and trap the user).
    await act(async () => router.history.back());
    await screen.findByRole('heading', { name: 'the discoveries page' });
    expect(router.state.location.pathname).toBe('/discoveries');
  });

  it('hands over when home is reached by a redirect of another route, as a signed-in visit to /login is', async () => {
    signInWith(['dashboards.view_dashboard']);
    const router = await renderHome(['/dashboard']);
    await screen.findByRole('heading', { name: 'the dashboard page' });
    await act(() => router.navigate({ to: '/login' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    await waitFor(() => expect(router.state.status).toBe('idle'));
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(screen.getByRole('heading', { name: 'the dashboard page' })).toBeTruthy();
  });

  it('hands over from /404 too, since both paths are home', async () => {
    signInWith(['dashboards.view_dashboard', 'discoveries.view_discovery']);
    const router = await renderHome(['/404']);
    await screen.findByRole('heading', { name: 'the dashboard page' });
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('keeps the welcome page, with the company and the areas open to the user, without the dashboard permission', async () => {
    signInWith(['discoveries.view_discovery']);
    updateSession({ company: { id: 1, name: 'Acme', domain: 'acme.test' } as never });
    const router = await renderHome(['/']);
    expect(await screen.findByRole('heading', { name: 'Welcome, Cartograph' })).toBeTruthy();
    expect(screen.getByText('Acme')).toBeTruthy();
    expect(screen.getAllByRole('link').map((link) => link.textContent)).toEqual(['Discoveries']);
    expect(screen.queryByRole('link', { name: 'Dashboard' })).toBeNull();
    expect(router.state.location.pathname).toBe('/');
    expect(getBreadcrumb()).toEqual([{ label: 'Home' }]);
    expect(document.title).toBe('Cartograph');
  });

  it('says so when no area is open to the user', async () => {
    signInWith([]);
    await renderHome(['/']);
    expect(await screen.findByText('No area of the console is open to your account yet.')).toBeTruthy();
  });
});
