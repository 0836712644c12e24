import type { AppContext } from '../../context.js';
import {
  advancedConfigurationKind, defaultAdvancedDocument, defaultScheduleDocument, defaultSettingsDocument, discoveryScheduleKind, discoverySettingsKind, unknownOrderingConnections,
  type AdvancedConfigurationDocument, type DiscoveryScheduleDocument, type DiscoverySettingsDocument,
} from '../../discovery/settings.js';
import { loadSettingsDocument, saveSettingsDocument } from '../../settings/settingsStore.js';
import { nextRunsOf, scheduleProblem } from '../../jobs/scheduler.js';
import { demoAvailable, loadDemoDataset } from '../../demo/demoDataset.js';
import { fieldError, notFound } from '../errors.js';
import { pageWindow, paginated } from '../pagination.js';
import { callerOf, type RouteCatalogue } from '../routes.js';

// `pruned_at`: when a published snapshot's rows were pruned (null while they are kept); its summary stays.
type DiscoveryRow = { id: number; status: 'running' | 'done' | 'error'; trigger: string; start_time: Date; end_time: Date | null; progress: object; error: string; pruned_at: Date | null };

// The last-discovery endpoint answers the numeric task status of spec §4.
const numericStatus = { running: 1, done: 2, error: 3 } as const;
const discoverySelect = 'select id, status, trigger, start_time, end_time, progress, error, pruned_at from discoveries';

// Spec §4's task status numbers, which the reference SDK sends for the discovery list's status filter.
const statusOfNumber: Record<string, string> = { 1: 'running', 2: 'done', 3: 'error' };

/** Discoveries: start one, list them, follow one's progress (reference API `/discoveries/...`). */
export function registerDiscoveryRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  routes.add({
    method: 'POST', url: '/discoveries/discoveries', name: 'discoveries.start', summary: 'Start a discovery of every enabled connection', access: 'discoveries.start_discovery', status: 202,
    handler: async (request) => {
      const caller = callerOf(request);
      const id = await context.discoveries.startDiscovery(caller.companyId, caller.userId, 'manual');
      const [row] = await db.query<DiscoveryRow>(`${discoverySelect} where id = $1`, [id]);
      return row;
    },
  });
  routes.add({
    method: 'GET', url: '/discoveries/discoveries', name: 'discoveries.list', summary: 'List discoveries, newest first', access: 'discoveries.view_discovery',
    query: 'cartograph:api/discovery-list-query',
    handler: async (request) => {
      const query = request.query as { page?: number; size?: number; status?: string };
      const { limit, offset } = pageWindow(query);
      const params = [callerOf(request).companyId, query.status ? (statusOfNumber[query.status] ?? query.status) : null];
      const filter = 'company_id = $1 and ($2::text is null or status = $2)';
      const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from discoveries where ${filter}`, params);
      const rows = await db.query<DiscoveryRow>(`${discoverySelect} where ${filter} order by id desc limit $3 offset $4`, [...params, limit, offset]);
      return paginated(request, query, count, rows);
    },
  });
  routes.add({
    method: 'GET', url: '/discoveries/discoveries/:id', name: 'discoveries.read', summary: 'One discovery with its progress', access: 'discoveries.view_discovery', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const [row] = await db.query<DiscoveryRow>(`${discoverySelect} where id = $1 and company_id = $2`, [(request.params as { id: number }).id, callerOf(request).companyId]);
      if (!row) throw notFound();
      return row;
    },
  });
  routes.add({
    method: 'GET', url: '/discoveries/last', name: 'discoveries.last', summary: 'The latest discovery (status 1 while it runs)', access: 'discoveries.view_discovery',
    handler: async (request) => {
      const [row] = await db.query<DiscoveryRow>(`${discoverySelect} where company_id = $1 order by id desc limit 1`, [callerOf(request).companyId]);
      if (!row) throw notFound();
      return { ...row, status: numericStatus[row.status], state: row.status };
    },
  });

  routes.add({
    method: 'GET', url: '/discoveries/demo', name: 'discoveries.demo_status', summary: 'Whether the demo data set can be loaded (the inventory is empty)', access: 'discoveries.view_discovery',
    handler: async (request) => ({ available: await demoAvailable(context, callerOf(request).companyId) }),
  });
  routes.add({
    method: 'POST', url: '/discoveries/demo', name: 'discoveries.demo', summary: 'Load the demo data set into an empty inventory and start the first discovery',
    access: 'discoveries.start_discovery', status: 202,
    handler: async (request) => {
      const caller = callerOf(request);
      const { discoveryId, exports } = await loadDemoDataset(context, caller.companyId, caller.userId);
      const [row] = await db.query<DiscoveryRow>(`${discoverySelect} where id = $1`, [discoveryId]);
      return { ...row, connections: exports.map((item) => ({ id: item.connectionId, name: item.name, entity: item.entity, rows: item.rows })) };
    },
  });
  registerDiscoverySettingsRoutes(routes, context);
}

/** The discovery-schedule, discovery-settings and advanced-configuration pages (one document per company each). */
function registerDiscoverySettingsRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  const scheduleAnswer = (schedule: DiscoveryScheduleDocument) => ({ ...schedule, next_runs: nextRunsOf(schedule, 5) });
  routes.add({
    method: 'GET', url: '/configurations/discovery-schedule', name: 'discovery_schedule.read', summary: 'When discoveries start by themselves, with the next start times',
    access: 'configurations.view_discoverysettings',
    handler: async (request) => scheduleAnswer(await loadSettingsDocument(db, callerOf(request).companyId, discoveryScheduleKind, defaultScheduleDocument)),
  });
  routes.add({
    method: 'PUT', url: '/configurations/discovery-schedule', name: 'discovery_schedule.update', summary: 'Change when discoveries start by themselves',
    access: 'configurations.change_discoveryschedule', body: 'cartograph:settings/discovery-schedule',
    handler: async (request) => {
      const { enabled, cron, timezone } = request.body as DiscoveryScheduleDocument;
      const schedule = { enabled, cron, timezone };
      const problem = scheduleProblem(schedule);
      if (problem) throw fieldError(problem.field, problem.message);
      await saveSettingsDocument(db, callerOf(request).companyId, discoveryScheduleKind, schedule);
      return scheduleAnswer(schedule);
    },
  });
  routes.add({
    method: 'GET', url: '/configurations/discovery-settings', name: 'discovery_settings.read', summary: 'Concurrency, timeouts and snapshots kept of discoveries',
    access: 'configurations.view_discoverysettings',
    handler: async (request) => loadSettingsDocument(db, callerOf(request).companyId, discoverySettingsKind, defaultSettingsDocument),
  });
  routes.add({
    method: 'PUT', url: '/configurations/discovery-settings', name: 'discovery_settings.update', summary: 'Change how discoveries run',
    access: 'configurations.change_discoverysettings', body: 'cartograph:settings/discovery-settings',
    handler: async (request) => {
      const { concurrency, connection_timeout_minutes, snapshots_to_keep } = request.body as DiscoverySettingsDocument;
      const settings: DiscoverySettingsDocument = { concurrency, connection_timeout_minutes, snapshots_to_keep };
      await saveSettingsDocument(db, callerOf(request).companyId, discoverySettingsKind, settings);
      return settings;
    },
  });
  routes.add({
    method: 'GET', url: '/configurations/advanced-configuration', name: 'advanced_configuration.read', summary: 'Merge recommendations and the field precedence of discoveries',
    access: 'configurations.view_advancedconfiguration',
    handler: async (request) => loadSettingsDocument(db, callerOf(request).companyId, advancedConfigurationKind, defaultAdvancedDocument),
  });
  routes.add({
    method: 'PUT', url: '/configurations/advanced-configuration', name: 'advanced_configuration.update', summary: 'Change which merges are recommended and which source wins a field',
    access: 'configurations.change_advancedconfiguration', body: 'cartograph:settings/advanced-configuration',
    handler: async (request) => {
      const { generic_host_name_limit, recommendations_kept, recommended_matches, minimum_score, ordering } = request.body as AdvancedConfigurationDocument;
      const document: AdvancedConfigurationDocument = { generic_host_name_limit, recommendations_kept, recommended_matches, minimum_score, ordering };
      const unknown = await unknownOrderingConnections(db, callerOf(request).companyId, ordering);
      if (unknown.length) throw fieldError('ordering', `No connection ${unknown.map((id) => `#${id}`).join(', ')}: rank a connection by the id of one of yours.`);
      await saveSettingsDocument(db, callerOf(request).companyId, advancedConfigurationKind, document);
      return document;
    },
  });
}
