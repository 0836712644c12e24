import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import type { Decorator } from '@storybook/react-vite';
import { useState } from 'react';

/** Renders the story as the one page of a memory-history router at `parameters.url` (pages that keep state in the URL). */
export const withMemoryRouter: Decorator = (Story, context) => {
  const url = (context.parameters.url ?? '/') as string;
  function Routed() {
    const [router] = useState(() => createRouter({ routeTree: createRootRoute({ component: () => <Story /> }), history: createMemoryHistory({ initialEntries: [url] }) }));
    return <RouterProvider router={router} />;
  }
  return <Routed />;
};
