import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { routeByPath, toRouterPath, type RouteEntry } from '../../../src/web/app/routeTable';
import { updateSession } from '../../../src/web/app/session/session';
import * as renderers from '../../../src/web/renderers';
import { adminUser, freshSession, tokenWith } from '../app/helpers';
import { renderWithQuery, renderWithRouter, userRows } from './render';
import { serveResourceForTests } from './resourceServer';

const server = serveResourceForTests('/users/users', userRows(4), ['username']);
beforeEach(() => {
  const token = tokenWith({});
  freshSession(token);
  updateSession({ user: { ...adminUser, permissions: ['users.view_user', 'users.add_user'] } });
});

describe('GenericListPage', () => {
  it('is exported by the renderers module the generic routes load', () => {
    expect(typeof renderers.GenericListPage).toBe('function');
    expect(typeof renderers.GenericDetailPage).toBe('function');
  });

  it('loads the schema of the /settings/user route and lists users with the signed-in token', async () => {
    const route = routeByPath('/settings/user')!;
    renderWithRouter(<renderers.GenericListPage route={route} schema={route.schema} />, route.path);
    expect(await screen.findByText('user04')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create user' })).toBeTruthy();
    expect(server.requests.at(-1)?.authorization).toMatch(/^Bearer /);
  });

  it('says so when the route names an unknown schema', async () => {
    const route = { ...routeByPath('/settings/user')!, schema: 'cartograph:entities/missing' };
    renderWithRouter(<renderers.GenericListPage route={route} schema={route.schema} />, route.path);
    expect((await screen.findByRole('alert')).textContent).toContain('Unknown schema: cartograph:entities/missing');
  });
});

describe('GenericDetailPage', () => {
  it('reads the id from the route and shows that item', async () => {
    const entry: RouteEntry = { path: '/settings/user/{id}', name: 'settings-user-id', layout: 'settings', permission: 'users.view_user', page: 'generic:detail', schema: 'cartograph:entities/user' };
    const root = createRootRoute();
    const detail = createRoute({ getParentRoute: () => root, path: toRouterPath(entry.path), component: () => <renderers.GenericDetailPage route={entry} schema={entry.schema} /> });
    const router = createRouter({ routeTree: root.addChildren([detail]), history: createMemoryHistory({ initialEntries: ['/settings/user/3'] }) });
    renderWithQuery(<RouterProvider router={router} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'John Doe' })).toBeTruthy();
    expect(server.requests.at(-1)?.path).toBe('/users/users/3');
  });
});
