import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../app/http';

export type RunState = 'pending' | 'running' | 'done' | 'warning' | 'error';
export type ConnectionProgressResponse = {
  id: number; name: string; adapter: string; state: RunState; records: number; by_entity: Record<string, number>;
  warnings: string[]; warning_count: number; error: string; started_at: string | null; finished_at: string | null; duration_ms: number | null;
};
export type StageProgressResponse = { state: RunState; started_at: string | null; finished_at: string | null; duration_ms: number | null; detail: string };
export type DiscoveryResponse = {
  id: number;
  status: 'running' | 'done' | 'error';
  trigger: string;
  start_time: string;
  end_time: string | null;
  error: string;
  /** When the snapshot's rows were pruned (older than the company keeps); its counts stay in `progress.assets`. */
  pruned_at?: string | null;
  progress: { stages?: Record<string, StageProgressResponse>; connections?: ConnectionProgressResponse[]; assets?: Record<string, number> };
};
/** `/discoveries/last` answers the numeric task status of spec §4 (1 running, 2 done, 3 error). */
export type LastDiscoveryResponse = Omit<DiscoveryResponse, 'status'> & { status: number; state: DiscoveryResponse['status'] };
type DiscoveryPageResponse = { count: number; results: DiscoveryResponse[] };

// Spec §9: the last discovery is polled every 1500 ms while it runs (status 1); any other status stops the polling.
export const lastDiscoveryPollMs = 1500;
// Spec §9: system information every 5000 ms in quick-reload mode (while a discovery runs), otherwise 45,000,000 ms.
export const systemPollMs = { quick: 5000, normal: 45_000_000 } as const;

export const lastDiscoveryQuery = () =>
  queryOptions({
    queryKey: ['discoveries', 'last'],
    // No discovery yet answers 404: that is "none", not an error to notify.
    queryFn: () => apiFetch<LastDiscoveryResponse>('/discoveries/last', { silent: true }).catch(() => null),
    refetchInterval: (query) => (query.state.data?.status === 1 ? lastDiscoveryPollMs : false),
  });

export const discoveryListQuery = (page: number, size: number) =>
  queryOptions({
    queryKey: ['discoveries', 'list', { page, size }],
    queryFn: () => apiFetch<DiscoveryPageResponse>('/discoveries/discoveries', { query: { page, size } }),
    placeholderData: keepPreviousData,
  });

export const discoveryQuery = (id: number) =>
  queryOptions({
    queryKey: ['discoveries', 'one', id],
    queryFn: () => apiFetch<DiscoveryResponse>(`/discoveries/discoveries/${id}`),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? lastDiscoveryPollMs : false),
  });

export const systemInformationQuery = (quickReload: boolean) =>
  queryOptions({
    queryKey: ['configurations', 'system'],
    // Spec §8: a system-information failure is logged only.
    queryFn: () => apiFetch<SystemInformationResponse>('/configurations/system', { silent: true }).catch((error: Error) => {
      console.warn('system information', error.message);
      return null;
    }),
    refetchInterval: quickReload ? systemPollMs.quick : systemPollMs.normal,
  });

export type SystemInformationResponse = {
  cpu: { model: string; cores: number; load_average: number[] };
  memory: { total: number; free: number; used: number; process_rss: number };
  disk: { total: number; free: number } | null;
  uptime: { system_seconds: number; process_seconds: number };
  versions: Record<string, string>;
  database: { engine: string; version: string; size_bytes?: number };
};

export const startDiscovery = () => apiFetch<DiscoveryResponse>('/discoveries/discoveries', { method: 'POST' });

/** Whether the demo data set can be loaded: only into an empty inventory. */
export const demoStatusQuery = () =>
  queryOptions({ queryKey: ['discoveries', 'demo'], queryFn: () => apiFetch<{ available: boolean }>('/discoveries/demo', { silent: true }).catch(() => ({ available: false })) });

/** Writes the demo CSV exports with their connections and starts the first discovery over them. */
export const loadDemo = () => apiFetch<DiscoveryResponse>('/discoveries/demo', { method: 'POST' });
