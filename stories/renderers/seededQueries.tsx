import { QueryClient, QueryClientProvider, type QueryKey } from '@tanstack/react-query';
import type { Decorator } from '@storybook/react-vite';
import { useState } from 'react';

/** What a renderer story finds in the query cache instead of calling the API (stories run without a server). */
export type QuerySeed = { queryKey: QueryKey; data?: unknown; error?: Error };

/**
 * A query cache holding the seeded answers and errors. Nothing is refetched on mount, so a story shows exactly its
 * seeded state; interactions that ask for other data (a second page) go to the network like the console would.
 */
export function seededClient(seeds: readonly QuerySeed[]): QueryClient {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, retryOnMount: false, refetchOnMount: false, refetchOnWindowFocus: false, staleTime: Infinity } } });
  for (const seed of seeds) {
    if (seed.error) {
      const query = client.getQueryCache().build(client, { queryKey: seed.queryKey });
      query.setState({ ...query.state, status: 'error', error: seed.error, errorUpdatedAt: Date.now(), fetchFailureCount: 1, fetchStatus: 'idle' });
    } else {
      client.setQueryData(seed.queryKey, seed.data);
    }
  }
  return client;
}

/** Provides each story with a fresh cache built from its `parameters.seeds`. */
export const withSeededQueries: Decorator = (Story, context) => {
  const seeds = (context.parameters.seeds ?? []) as QuerySeed[];
  function Provider() {
    const [client] = useState(() => seededClient(seeds));
    return (
      <QueryClientProvider client={client}>
        <Story />
      </QueryClientProvider>
    );
  }
  return <Provider />;
};
