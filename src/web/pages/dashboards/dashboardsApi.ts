import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../app/http';
import { updateSession } from '../../app/session/session';

export * from './widgetCatalogue';
import type { ChartResponse, DashboardDataResponse, DashboardFormData, DashboardResponse, WidgetResponse } from './widgetCatalogue';

type PageResponse<T> = { count: number; results: T[] };

// Spec §9: dashboards are read with size 500.
const dashboardPage = { size: 500 };

export const dashboardsQuery = () =>
  queryOptions({
    queryKey: ['dashboards', 'list'],
    queryFn: async () => {
      const answer = await apiFetch<PageResponse<DashboardResponse>>('/dashboards/dashboards', { query: dashboardPage });
      updateSession({ dashboards: answer.results });
      return answer.results;
    },
  });
export const dashboardQuery = (id: number) => queryOptions({ queryKey: ['dashboards', 'one', id], queryFn: () => apiFetch<DashboardResponse>(`/dashboards/dashboards/${id}`) });
export const dashboardDataQuery = (id: number) =>
  queryOptions({ queryKey: ['dashboards', 'data', id], queryFn: () => apiFetch<DashboardDataResponse>(`/dashboards/dashboards/${id}/data`) });
export const widgetsQuery = (dashboard: number) =>
  queryOptions({ queryKey: ['dashboards', 'widgets', dashboard], queryFn: async () => (await apiFetch<PageResponse<WidgetResponse>>('/dashboards/widgets', { query: { dashboard, size: 500 } })).results });
export const savedQueriesQuery = () =>
  queryOptions({
    queryKey: ['queries', 'all'],
    queryFn: async () => (await apiFetch<PageResponse<{ id: number; name: string; type: string }>>('/queries/queries', { query: { size: 1000 }, silent: true }).catch(() => ({ count: 0, results: [] }))).results,
  });

/**
 * Spec §8: a failed dashboard create or update answers false (the call layer has already shown the error, and
 * the field errors are kept for the form).
 */
export async function saveDashboard(id: number | null, body: Partial<DashboardFormData>, method: 'PUT' | 'PATCH' = 'PATCH'): Promise<DashboardResponse | false> {
  try {
    return await apiFetch<DashboardResponse>(id === null ? '/dashboards/dashboards' : `/dashboards/dashboards/${id}`, { method: id === null ? 'POST' : method, body });
  } catch {
    return false;
  }
}

/** Creates or changes a widget or chart; false when the server refused it (its errors are shown by the call layer). */
export async function saveItem<T>(type: 'widgets' | 'charts', id: number | null, body: unknown): Promise<T | false> {
  try {
    return await apiFetch<T>(id === null ? `/dashboards/${type}` : `/dashboards/${type}/${id}`, { method: id === null ? 'POST' : 'PUT', body });
  } catch {
    return false;
  }
}

