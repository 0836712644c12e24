import { QueryClient } from '@tanstack/react-query';

/**
 * The console's query cache. The HTTP client already retries a GET once on transient statuses (spec §7), so the
 * cache does not retry on top of it.
 */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 }, mutations: { retry: false } },
});
