import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../app/http';

export type RunSummary = {
  id: number; action_id: number; trigger: string; status: 'queued' | 'running' | 'done' | 'error'; dry_run: boolean; rerun_of: number | null;
  started_by_name: string; targets: number; succeeded: number; failed: number; skipped: number; error: string | null;
  created_at: string; finished_at: string | null;
  /** The snapshot the run's targets came from: results link to the assets in it. */
  discovery_id: number | null;
};
export type ActionItem = {
  id: number; name: string; description?: string; enabled?: boolean; trigger: 'manual' | 'discovery' | 'schedule'; cron?: string; timezone?: string;
  scope: { entity: string; query?: string; saved_query?: number; only_new?: boolean }; type: string; parameters: Record<string, unknown>; last_run: RunSummary | null;
};
export type TargetResultRow = { asset_id: string; name: string; status: string; detail: string; output: string; exit_code: number | null };
type Page<T> = { count: number; results: T[] };

const running = (runs: RunSummary[]) => runs.some((run) => run.status === 'queued' || run.status === 'running');

export const actionListQuery = () => queryOptions({
  queryKey: ['actions'],
  queryFn: () => apiFetch<Page<ActionItem>>('/actions/actions', { query: { size: 500 } }),
  // While a run is under way its counts are polled.
  refetchInterval: (query) => (running((query.state.data?.results ?? []).flatMap((action) => (action.last_run ? [action.last_run] : []))) ? 1500 : false),
});
export const actionQuery = (id: number) => queryOptions({ queryKey: ['actions', id], queryFn: () => apiFetch<ActionItem>(`/actions/actions/${id}`) });
export const runListQuery = (actionId: number) => queryOptions({
  queryKey: ['action-runs', actionId],
  queryFn: () => apiFetch<Page<RunSummary>>('/actions/runs', { query: { action: actionId, size: 20 } }),
  refetchInterval: (query) => (running(query.state.data?.results ?? []) ? 1500 : false),
});
export const runResultsQuery = (runId: number, status: string) => queryOptions({
  queryKey: ['action-run-results', runId, status],
  queryFn: () => apiFetch<Page<TargetResultRow>>(`/actions/runs/${runId}/results`, { query: { size: 500, ...(status && { status }) } }),
});

export const startRun = (actionId: number, body: { dry_run?: boolean; rerun_of?: number }) => apiFetch<RunSummary>(`/actions/actions/${actionId}/run`, { method: 'POST', body });

export type ScopePreview = { index_id: number; matching: number; sample: { asset_id: string; name: string }[] };
/** Tries an action's scope on the latest snapshot before it is saved; the query's field errors come back as an ApiError. */
export const scopePreviewQuery = (scope: { entity: string; query?: string; saved_query?: number }) =>
  queryOptions({
    queryKey: ['action-scope-preview', scope.entity, scope.query ?? '', scope.saved_query ?? null],
    queryFn: () => apiFetch<ScopePreview>('/actions/scope-preview', { method: 'POST', body: { entity: scope.entity, query: scope.query ?? '', ...(scope.saved_query && { saved_query: scope.saved_query }) }, silent: true }),
    retry: false,
  });
