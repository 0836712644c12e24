import { apiFetch } from '../../app/http';

export type Activity = { id: number; username: string; action: string; target_type: string; target_id: string; source_ip: string; result: string; status_code: number; created_at: string };
/** One activity as its detail answers it: with what the change was before and after (null where nothing was kept). */
/** One activity with its change; `schema_id` names the schema of what its request sent, whose titles label the fields. */
export type ActivityDetail = Activity & { value_before: unknown; value_after: unknown; schema_id?: string | null };
export type SystemEvent = { id: number; level: string; event: string; message: string; detail: Record<string, unknown>; created_at: string };
export type ActivityFilters = { user: string; action: string; target_type: string; result: string; from: string; to: string };
export type PageResponse<Row> = { count: number; results: Row[] };

export const emptyFilters: ActivityFilters = { user: '', action: '', target_type: '', result: '', from: '', to: '' };

/** The filters as the API's query: empty ones left out, dates (yyyy-MM-dd) as the start of that day in UTC. */
export function activityQuery(filters: ActivityFilters): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(filters)) {
    const text = value.trim();
    if (!text) continue;
    const day = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T00:00:00Z`) : null;
    // A date that is not yyyy-MM-dd goes as typed: the server answers its field error under the input.
    query[key] = (key === 'from' || key === 'to') && day && !Number.isNaN(day.getTime()) ? day.toISOString() : text;
  }
  return query;
}

/** Downloads the filtered activity log as CSV. */
export async function exportActivities(filters: ActivityFilters): Promise<void> {
  const file = await apiFetch<Blob>('/activities/activities/export', { query: activityQuery(filters), responseType: 'blob' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(file);
  link.download = `activities-${new Date().toISOString().slice(0, 10)}.csv`;
  link.click();
  URL.revokeObjectURL(link.href);
}
