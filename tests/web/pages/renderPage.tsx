import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import type { ComponentType } from 'react';

/**
 * Renders one page at `url` under a memory-history router whose only route is `routePath` (TanStack `$param` form);
 * answers the router too, to read or move its location.
 */
export function renderPage(Page: ComponentType, routePath: string, url: string) {
  const rootRoute = createRootRoute();
  const pageRoute = createRoute({ getParentRoute: () => rootRoute, path: routePath, component: () => <Page /> });
  const router = createRouter({ routeTree: rootRoute.addChildren([pageRoute]), history: createMemoryHistory({ initialEntries: [url] }) });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const rendered = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, ...rendered };
}
