import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';

/** Renders with a fresh query cache configured like the console's (no retries on top of the HTTP client's). */
export function renderWithQuery(element: ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, gcTime: Infinity } } });
  return { client, ...render(<QueryClientProvider client={client}>{element}</QueryClientProvider>) };
}

/** Renders at `url` (search included) under a memory-history router whose one route is `path`; answers the router too. */
export function renderWithRouter(element: ReactElement, path: string, url: string = path) {
  const root = createRootRoute();
  const route = createRoute({ getParentRoute: () => root, path, component: () => element });
  const router = createRouter({ routeTree: root.addChildren([route]), history: createMemoryHistory({ initialEntries: [url] }) });
  return { router, ...renderWithQuery(<RouterProvider router={router} />) };
}

/** Users as the API answers them (schemas/entities/user.json). */
export function userRows(count: number) {
  return Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    username: `user${String(index + 1).padStart(2, '0')}`,
    email: `user${index + 1}@example.com`,
    first_name: index % 2 ? 'Jane' : 'John',
    last_name: 'Doe',
    name: `${index % 2 ? 'Jane' : 'John'} Doe`,
    is_active: index % 3 !== 0,
    is_ldap: false,
    groups: [{ id: 2, name: 'Analysts' }],
  }));
}
