import { defaultScheduleDocument, discoveryScheduleKind } from '../discovery/settings.js';
import { loadSettingsDocument } from '../settings/settingsStore.js';
import { nextRunsOf } from '../jobs/scheduler.js';
import { emptyResult, type WidgetContext, type WidgetData, type WidgetSettings } from './widgetData.js';

// Connection status numbers as the connections table stores them.
const statusLabels: Record<number, string> = { 1: 'Done', 2: 'Warning', 3: 'Error', 4: 'Not run yet' };

/** The company's connections by the state of their last check or fetch, with the disabled ones apart. */
export async function connectionStatuses(context: WidgetContext, settings: WidgetSettings): Promise<WidgetData> {
  const scoped = { ...settings, inventory: 'connection' };
  const rows = await context.db.query<{ status: number; enabled: boolean; count: number }>(
    'select status, enabled, count(*)::int as count from connections where company_id = $1 group by status, enabled',
    [context.companyId],
  );
  if (!rows.length) return emptyResult(scoped, 'pie', 'No connection yet: add one on the Adapters page, then run a discovery.');
  const counts = new Map<string, number>();
  for (const row of rows) {
    const label = row.enabled ? (statusLabels[row.status] ?? 'Unknown') : 'Disabled';
    counts.set(label, (counts.get(label) ?? 0) + row.count);
  }
  const order = ['Done', 'Warning', 'Error', 'Not run yet', 'Disabled', 'Unknown'];
  return {
    kind: settings.kind, display: 'pie', inventory: 'connection', index_id: null,
    rows: order.filter((label) => counts.has(label)).map((label) => ({ label, value: counts.get(label) })),
    total: rows.reduce((sum, row) => sum + row.count, 0),
  };
}

// The info tile shows values as they are: say them in words, as the Discoveries page does.
const statusWords: Record<string, string> = { running: 'Running', done: 'Done', error: 'Failed' };
const triggerWords: Record<string, string> = { manual: 'By hand', schedule: 'The schedule' };

type DiscoveryRow = { id: number; status: string; trigger: string; start_time: Date; end_time: Date | null; error: string; progress: { assets?: Record<string, number>; connections?: { state: string }[] } };

/** The latest discovery: its state, times, duration, connections that failed, and what it published. */
export async function discoveryInfo(context: WidgetContext, settings: WidgetSettings): Promise<WidgetData> {
  const [latest] = await context.db.query<DiscoveryRow>(
    'select id, status, trigger, start_time, end_time, error, progress from discoveries where company_id = $1 order by id desc limit 1',
    [context.companyId],
  );
  if (!latest) return emptyResult(settings, 'info', 'No discovery has run yet: start one from the Discoveries page or set a discovery schedule.');
  const connections = latest.progress.connections ?? [];
  const durationSeconds = latest.end_time ? Math.round((latest.end_time.getTime() - latest.start_time.getTime()) / 1000) : null;
  const rows: Record<string, unknown>[] = [
    { label: 'Status', value: statusWords[latest.status] ?? latest.status },
    { label: 'Started', value: latest.start_time.toISOString() },
    { label: 'Finished', value: latest.end_time?.toISOString() ?? null },
    { label: 'Duration (seconds)', value: durationSeconds },
    { label: 'Started by', value: triggerWords[latest.trigger] ?? latest.trigger },
    { label: 'Connections', value: connections.length },
    { label: 'Connections failed', value: connections.filter((connection) => connection.state === 'error').length },
    ...Object.entries(latest.progress.assets ?? {}).map(([entity, count]) => ({ label: `Published ${entity} records`, value: count, inventory: entity })),
  ];
  if (latest.error) rows.push({ label: 'Error', value: latest.error });
  return { kind: settings.kind, display: 'info', inventory: settings.inventory, index_id: latest.status === 'done' ? latest.id : null, rows };
}

/** The next start times of the discovery schedule. */
export async function nextDiscoveries(context: WidgetContext, settings: WidgetSettings): Promise<WidgetData> {
  const schedule = await loadSettingsDocument(context.db, context.companyId, discoveryScheduleKind, defaultScheduleDocument);
  const runs = schedule.enabled ? safeNextRuns(schedule, settings.limit, context.now) : [];
  if (!runs.length) return emptyResult(settings, 'info', 'No discovery is scheduled: turn on the discovery schedule in Settings to see the next runs here.');
  return {
    kind: settings.kind, display: 'info', inventory: settings.inventory, index_id: null,
    rows: runs.map((run, index) => ({ label: index === 0 ? 'Next discovery' : `Then (${index + 1})`, value: run })),
    columns: [`${schedule.cron} (${schedule.timezone})`],
  };
}

// A stored expression that no longer parses (the settings page validates it, but older rows may predate that)
// answers "nothing scheduled" instead of failing the dashboard.
function safeNextRuns(schedule: Parameters<typeof nextRunsOf>[0], count: number, from: Date): string[] {
  try {
    return nextRunsOf(schedule, count, from);
  } catch {
    return [];
  }
}
