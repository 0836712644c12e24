import { queryOptions } from '@tanstack/react-query';
import type { MarkdownBlock } from '../../../core/markdown/parseMarkdown';
import { apiFetch } from '../../app/http';
import type { WidgetDataResponse, WidgetKind } from '../dashboards/dashboardsApi';
import type { DiscoveryResponse } from '../discoveries/discoveriesApi';

// The shapes src/server/http/areas/reports.ts and reportSchedules.ts answer (schemas/entities/report*.json).

export type ReportFormat = 'pdf' | 'xlsx' | 'csv';
export const reportFormats: ReportFormat[] = ['pdf', 'xlsx', 'csv'];
export type SectionType = 'table' | 'chart' | 'text' | 'comparison';
export type SectionInventory = 'device' | 'user' | 'software' | 'vulnerability' | 'certificate' | 'service' | 'license';
export type WidgetInventory = 'device' | 'user' | 'application' | 'vulnerability' | 'certificate' | 'service' | 'license';
export type SortKey = { field: string; order?: 'asc' | 'desc' };
export type ReportWidget = {
  kind: WidgetKind; inventory?: WidgetInventory; query?: string; saved_queries?: number[]; field?: string; days?: number; limit?: number; sources?: 'connection' | 'adapter';
};
export type ReportSection = {
  type: SectionType; title?: string; inventory?: SectionInventory; query?: string; saved_query?: number | null; columns?: string[]; sort?: SortKey[]; limit?: number | null;
  markdown?: string; compare_to?: number | null; widget?: ReportWidget;
};
/** What the builder edits: the writable fields of a report. */
export type ReportDraft = {
  name: string; description: string; is_public: boolean; format: ReportFormat; page_size: 'A4' | 'Letter' | 'A3'; orientation: 'portrait' | 'landscape';
  show_company: boolean; show_logo: boolean; time_zone: string; index_id: number | null; sections: ReportSection[];
};
/** The newest run of a report, answered by the list itself. */
export type LastRun = { id: number; status: ReportRun['status']; formats: ReportFormat[]; queued_at: string; finished_at: string | null };
export type ReportItem = ReportDraft & { id: number; owner_id?: number; user_full_name: string; created_at: string; updated_at: string; last_run?: LastRun | null };
/** The company's logo for title pages (GET /reports/logo): base64, or null when none is uploaded. */
export type ReportLogo = { image: string | null; content_type: string | null; size: number; updated_at: string | null };

export type RunFile = { format: ReportFormat; filename: string; size: number; url: string };
/** A table of a run: the rows it holds and the records that match (more when its limit cut it). */
export type RunTable = { title: string; shown: number; matching: number };
export type ReportRun = {
  id: number; report: number; schedule: number | null; report_name: string; formats: ReportFormat[]; index_id: number | null; status: 'queued' | 'running' | 'done' | 'error';
  progress: { format?: string; formats_done?: number; sections_done?: number; sections?: number; rows?: number; tables?: RunTable[] }; error: string; delivery_status: string; delivery_error: string;
  requested_by: string; queued_at: string; started_at: string | null; finished_at: string | null; duration_seconds: number | null; files: RunFile[];
};

export type PreviewSection =
  | { type: SectionType; title: string; error: string }
  | { type: 'table' | 'comparison'; title: string; columns: { field: string; label: string }[]; rows: string[][]; count: number; report_rows: number; limit: number }
  | { type: 'chart'; title: string; data: WidgetDataResponse }
  | { type: 'text'; title: string; blocks: MarkdownBlock[] };
export type ReportPreview = { index_id: number; sections: PreviewSection[] };

export type SchedulePreset = 'daily' | 'weekly' | 'monthly' | 'cron';
export type ScheduleDraft = {
  name: string; report: number | null; enabled: boolean; preset: SchedulePreset; time: string; weekday: number; day_of_month: number; cron: string; timezone: string;
  formats: ReportFormat[]; recipient_users: number[]; recipients: string[]; subject: string; body: string;
};
export type ScheduleItem = ScheduleDraft & {
  id: number; report: number; next_run_at: string | null; last_run_at: string | null; last_status: string; last_error: string; failures: number; created_at: string; updated_at: string;
};

type Page<T> = { count: number; results: T[] };

export const reportsPath = '/reports/reports';
export const schedulesPath = '/reports/schedules';

export const emptyReport = (): ReportDraft => ({
  name: '', description: '', is_public: false, format: 'pdf', page_size: 'A4', orientation: 'portrait', show_company: true, show_logo: true, time_zone: 'UTC', index_id: null, sections: [],
});

/** The writable part of a stored report (what PUT takes back). */
export const draftOf = (report: ReportItem): ReportDraft => ({
  name: report.name, description: report.description ?? '', is_public: report.is_public ?? false, format: report.format ?? 'pdf', page_size: report.page_size ?? 'A4',
  orientation: report.orientation ?? 'portrait', show_company: report.show_company ?? true, show_logo: report.show_logo ?? true, time_zone: report.time_zone ?? 'UTC', index_id: report.index_id ?? null, sections: report.sections ?? [],
});

const active = (runs: ReportRun[]) => runs.some((run) => run.status === 'queued' || run.status === 'running');

export const reportListQuery = () => queryOptions({
  queryKey: ['reports'],
  queryFn: () => apiFetch<Page<ReportItem>>(reportsPath, { query: { size: 500 } }),
  // While a report's newest run is under way the list (one call, runs included) is polled so its state follows.
  refetchInterval: (query) => (query.state.data?.results.some((report) => report.last_run?.status === 'queued' || report.last_run?.status === 'running') ? 1500 : false),
});
export const reportQuery = (id: number) => queryOptions({ queryKey: ['reports', id], queryFn: () => apiFetch<ReportItem>(`${reportsPath}/${id}`) });
export const runListQuery = (reportId: number) => queryOptions({
  queryKey: ['report-runs', reportId],
  queryFn: () => apiFetch<{ results: ReportRun[] }>(`${reportsPath}/${reportId}/runs`),
  // A run under way is polled until it is done or failed.
  refetchInterval: (query) => (active(query.state.data?.results ?? []) ? 1500 : false),
});
/** One run, polled while it is under way (the run a user just started from the list). */
export const runQuery = (runId: number) => queryOptions({
  queryKey: ['report-run', runId],
  queryFn: () => apiFetch<ReportRun>(`/reports/runs/${runId}`),
  refetchInterval: (query) => (active(query.state.data ? [query.state.data] : []) ? 1500 : false),
});
/** Rows a table holds at most when its section sets no limit (the schema's maximum). */
export const maximumReportRows = 500_000;
/** A count as the reports pages write it: `2266` → "2,266". */
export const countText = (value: number) => value.toLocaleString('en-US');
export const scheduleListQuery = () => queryOptions({ queryKey: ['report-schedules'], queryFn: () => apiFetch<Page<ScheduleItem>>(schedulesPath, { query: { size: 500 } }) });
export const scheduleQuery = (id: number) => queryOptions({ queryKey: ['report-schedules', id], queryFn: () => apiFetch<ScheduleItem>(`${schedulesPath}/${id}`) });

export const startReportRun = (reportId: number, formats: ReportFormat[]) => apiFetch<ReportRun>(`${reportsPath}/${reportId}/run`, { method: 'POST', body: { formats } });
export const logoPath = '/reports/logo';
export const logoLimitBytes = 256 * 1024;
export const reportLogoQuery = () => queryOptions({ queryKey: ['report-logo'], queryFn: () => apiFetch<ReportLogo>(logoPath) });
export const uploadReportLogo = (image: string) => apiFetch<ReportLogo>(logoPath, { method: 'PUT', body: { image }, silent: true });
export const removeReportLogo = () => apiFetch(logoPath, { method: 'DELETE' });

/** The company's finished discoveries, newest first: the snapshots a report can read or compare with. */
export const finishedDiscoveriesQuery = () => queryOptions({
  queryKey: ['discoveries', 'list', { status: 'done', size: 200 }],
  queryFn: () => apiFetch<Page<DiscoveryResponse>>('/discoveries/discoveries', { query: { status: 'done', size: 200 }, silent: true }),
  staleTime: 60_000,
});

export const previewReport = (draft: ReportDraft) => apiFetch<ReportPreview>('/reports/preview', { method: 'POST', body: draft, silent: true });

/** Downloads one file of a run (the call carries the session's token, so a plain link would not do). */
export async function downloadRunFile(file: RunFile): Promise<void> {
  const blob = await apiFetch<Blob>(file.url, { responseType: 'blob' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = file.filename;
  link.click();
  // The browser reads the blob after the click returns: free it a moment later, not at once.
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
