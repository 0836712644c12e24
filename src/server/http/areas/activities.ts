import { loadActivityRetention, saveActivityRetention, type ActivityRetention } from '../../activities/activityRetention.js';
import type { AppContext } from '../../context.js';
import { csvField, neutralizeFormula } from '../../inventory/exports.js';
import { notFound, requireProvider } from '../errors.js';
import { pageWindow, paginated, type ListQuery } from '../pagination.js';
import { callerOf, type RouteCatalogue } from '../routes.js';
import { containsPattern } from '../../db/likePatterns.js';

type ActivityQuery = ListQuery & { user?: string; action?: string; target_type?: string; result?: string; level?: string; from?: string; to?: string };

const exportLimit = 100_000;
const activityColumns = 'id, username, action, target_type, target_id, source_ip, result, status_code, created_at';

/** The activity filter of a company as SQL, every value a parameter. */
function activityFilter(companyId: number, query: ActivityQuery): { where: string; params: unknown[] } {
  const params: unknown[] = [companyId];
  const clauses = ['company_id = $1'];
  const add = (clause: string, value: unknown) => { params.push(value); clauses.push(clause.replace('?', `$${params.length}`)); };
  if (query.user) add('lower(username) = lower(?)', query.user);
  if (query.action) add('action = ?', query.action);
  if (query.target_type) add('target_type = ?', query.target_type);
  if (query.result) add('result = ?', query.result);
  if (query.from) add('created_at >= ?::timestamptz', query.from);
  if (query.to) add('created_at < ?::timestamptz', query.to);
  if (query.search) add('(username ilike ? or action ilike $S or target_type ilike $S)'.replaceAll('$S', `$${params.length + 1}`), containsPattern(query.search));
  return { where: clauses.join(' and '), params };
}

function systemFilter(query: ActivityQuery): { where: string; params: unknown[] } {
  const params: unknown[] = [];
  const clauses = ['true'];
  const add = (clause: string, value: unknown) => { params.push(value); clauses.push(clause.replace('?', `$${params.length}`)); };
  if (query.level) add('level = ?', query.level);
  if (query.action) add('event = ?', query.action);
  if (query.from) add('created_at >= ?::timestamptz', query.from);
  if (query.to) add('created_at < ?::timestamptz', query.to);
  if (query.search) add('(event ilike ? or message ilike $S)'.replaceAll('$S', `$${params.length + 1}`), containsPattern(query.search));
  return { where: clauses.join(' and '), params };
}

/**
 * `/activities/*`: who did what in the company (filter, detail, CSV export) and the system log; and how long both are
 * kept (a company settings document, shown on the company settings page).
 */
export function registerActivityRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  routes.add({
    method: 'GET', url: '/activities/activities', name: 'activities.list', summary: 'Who did what: sign-ins and changes, newest first', access: 'activities.view_activity', query: 'cartograph:api/activity-list-query',
    handler: async (request) => {
      const query = request.query as ActivityQuery;
      const { limit, offset } = pageWindow(query);
      const { where, params } = activityFilter(callerOf(request).companyId, query);
      const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from activities where ${where}`, params);
      const rows = await db.query(`select ${activityColumns} from activities where ${where} order by id desc limit $${params.length + 1} offset $${params.length + 2}`, [...params, limit, offset]);
      return paginated(request, query, count, rows);
    },
  });
  routes.add({
    method: 'GET', url: '/activities/activities/export', name: 'activities.export', summary: 'The filtered activity log as CSV', access: 'activities.view_activity', query: 'cartograph:api/activity-list-query',
    handler: async (request, reply) => {
      const { where, params } = activityFilter(callerOf(request).companyId, request.query as ActivityQuery);
      const rows = await db.query<Record<string, unknown>>(`select ${activityColumns} from activities where ${where} order by id desc limit ${exportLimit}`, params);
      const header = ['Time', 'User', 'Action', 'Object', 'Object id', 'Source address', 'Result', 'Status'];
      const lines = rows.map((row) => [new Date(row.created_at as string).toISOString(), row.username, row.action, row.target_type, row.target_id, row.source_ip, row.result, row.status_code]
        .map((value) => csvField(neutralizeFormula(String(value ?? '')))).join(','));
      return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="activities.csv"').send([header.join(','), ...lines].join('\r\n') + '\r\n');
    },
  });
  routes.add({
    method: 'GET', url: '/activities/activities/:id', name: 'activities.read', summary: 'One activity, with the change before and after where stored', access: 'activities.view_activity', params: 'cartograph:api/id-params',
    handler: async (request) => {
      // The change's values (secrets already redacted when stored) are read one activity at a time, never in lists.
      const [row] = await db.query(`select ${activityColumns}, value_before, value_after from activities where id = $1 and company_id = $2`, [(request.params as { id: number }).id, callerOf(request).companyId]);
      if (!row) throw notFound();
      // The schema of what the request sent (a settings document, a resource), whose titles name the change's fields.
      const schemaId = routes.definitions.find((definition) => definition.name === (row as { action?: string }).action)?.body ?? null;
      return { ...row, schema_id: schemaId };
    },
  });
  routes.add({
    method: 'GET', url: '/configurations/activity-retention', name: 'activity_retention.read', summary: 'How long the activity log and the system log keep their entries',
    access: 'configurations.view_companysettings',
    handler: async (request) => loadActivityRetention(db, callerOf(request).companyId),
  });
  routes.add({
    method: 'PUT', url: '/configurations/activity-retention', name: 'activity_retention.update', summary: 'Change how long the activity log and the system log keep their entries',
    access: 'configurations.change_companysettings', body: 'cartograph:settings/activity-retention',
    handler: async (request) => saveActivityRetention(db, callerOf(request).companyId, request.body as ActivityRetention),
  });
  routes.add({
    method: 'GET', url: '/activities/system', name: 'activities.system', summary: 'The system log: start-ups, discoveries, jobs, lockouts and errors', access: 'activities.view_system_log', query: 'cartograph:api/activity-list-query',
    handler: async (request) => {
      // The system log is the installation's, not a tenant's: only the provider company's users read it.
      requireProvider(callerOf(request), 'The system log belongs to the provider company.');
      const query = request.query as ActivityQuery;
      const { limit, offset } = pageWindow(query);
      const { where, params } = systemFilter(query);
      const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from system_log where ${where}`, params);
      const rows = await db.query(`select id, level, event, message, detail, created_at from system_log where ${where} order by id desc limit $${params.length + 1} offset $${params.length + 2}`, [...params, limit, offset]);
      return paginated(request, query, count, rows);
    },
  });
}
