import type { ReportSchedule } from '../../../generated/types.js';
import type { AppContext } from '../../context.js';
import type { Caller } from '../../identity/callers.js';
import { saveSettingsDocument } from '../../settings/settingsStore.js';
import { loadVisibleReport, reportScheduleKind, type ScheduleDocument } from '../../reports/reportDocuments.js';
import { loadReportSettings, reportSettingsKind, type ReportSettings } from '../../reports/reportRuns.js';
import { nextRunOf, scheduleTimingErrors } from '../../reports/scheduleTimes.js';
import { HttpError, notFound } from '../errors.js';
import { pageWindow, paginated, type ListQuery } from '../pagination.js';
import { callerOf, type RouteCatalogue } from '../routes.js';
import { containsPattern } from '../../db/likePatterns.js';

const path = '/reports/schedules';
// The shape people type; the SMTP server has the last word on whether a mailbox exists.
const emailAddress = /^[^\s@<>(),;:"]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;
const serverOwned = ['last_run_at', 'last_status', 'last_error', 'failures'] as const;

type Row = { id: number; document: ScheduleDocument; created_at: Date; updated_at: Date };

function describe(row: Row) {
  const next = nextRunOf(row.document);
  const state = { last_run_at: null, last_status: '', last_error: '', failures: 0 };
  return { id: row.id, ...state, ...(row.document as Partial<ScheduleDocument>), next_run_at: next?.toISOString() ?? null, created_at: row.created_at, updated_at: row.updated_at };
}

const defaults: Omit<ScheduleDocument, 'name' | 'report' | 'formats' | (typeof serverOwned)[number] | 'next_run_at'> = {
  enabled: true, preset: 'weekly', time: '08:00', weekday: 1, day_of_month: 1, cron: '', timezone: 'UTC', recipient_users: [], recipients: [], subject: '', body: '',
};

/** Report schedules: timing checked (cron parses, zone exists), recipients checked, the report visible to the caller. */
export function registerReportScheduleRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  const load = async (caller: Caller, id: number): Promise<Row> => {
    const [row] = await db.query<Row>('select id, document, created_at, updated_at from resources where kind = $1 and company_id = $2 and id = $3', [reportScheduleKind, caller.companyId, id]);
    if (!row) throw notFound();
    return row;
  };
  const save = async (caller: Caller, body: ReportSchedule, existing: Row | null): Promise<Row> => {
    const writable = Object.fromEntries(Object.entries(body).filter(([key]) => !['id', 'created_at', 'updated_at', 'next_run_at', ...serverOwned].includes(key)));
    const kept = existing ? Object.fromEntries(serverOwned.filter((key) => key in existing.document).map((key) => [key, existing.document[key]])) : {};
    const document = { ...defaults, ...writable, ...kept } as ScheduleDocument;
    const errors: Record<string, string[]> = { ...scheduleTimingErrors(document) };
    const badAddresses = document.recipients.filter((address) => !emailAddress.test(address));
    if (badAddresses.length) errors.recipients = [`Not an e-mail address: ${badAddresses.join(', ')}.`];
    if (!(await loadVisibleReport(db, caller.companyId, caller.userId, document.report))) errors.report = ['No such report.'];
    if (document.recipient_users.length) {
      const known = await db.query<{ id: number }>('select id from users where company_id = $1 and id = any($2::int[])', [caller.companyId, document.recipient_users]);
      if (known.length !== document.recipient_users.length) errors.recipient_users = ['Some of these users do not exist.'];
    }
    if (!document.recipients.length && !document.recipient_users.length) errors.recipients = [...(errors.recipients ?? []), 'Name at least one recipient.'];
    if (Object.keys(errors).length) throw new HttpError(400, errors);
    const [row] = existing
      ? await db.query<Row>('update resources set document = $2, updated_at = now() where id = $1 returning id, document, created_at, updated_at', [existing.id, JSON.stringify(document)])
      : await db.query<Row>('insert into resources (kind, company_id, document) values ($1, $2, $3) returning id, document, created_at, updated_at', [reportScheduleKind, caller.companyId, JSON.stringify(document)]);
    return row;
  };

  routes.add({
    method: 'GET', url: path, name: 'report_schedule.list', summary: 'List report schedules', access: 'reports.view_reportschedule', query: 'cartograph:api/list-query',
    handler: async (request) => {
      const caller = callerOf(request);
      const query = request.query as ListQuery;
      const { limit, offset } = pageWindow(query);
      const filter = "kind = $1 and company_id = $2 and ($3::text is null or document->>'name' ilike $3 or document->>'subject' ilike $3)";
      const params = [reportScheduleKind, caller.companyId, query.search ? containsPattern(query.search) : null];
      const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from resources where ${filter}`, params);
      const rows = await db.query<Row>(`select id, document, created_at, updated_at from resources where ${filter} order by lower(document->>'name'), id limit $4 offset $5`, [...params, limit, offset]);
      return paginated(request, query, count, rows.map(describe));
    },
  });
  routes.add({
    method: 'POST', url: path, name: 'report_schedule.create', summary: 'Create a report schedule', access: 'reports.add_reportschedule', body: reportScheduleKind, status: 201,
    handler: async (request) => describe(await save(callerOf(request), request.body as ReportSchedule, null)),
  });
  routes.add({
    method: 'GET', url: `${path}/:id`, name: 'report_schedule.read', summary: 'Read a report schedule', access: 'reports.view_reportschedule', params: 'cartograph:api/id-params',
    handler: async (request) => describe(await load(callerOf(request), (request.params as { id: number }).id)),
  });
  for (const method of ['PUT', 'PATCH'] as const) {
    routes.add({
      method, url: `${path}/:id`, name: `report_schedule.${method === 'PUT' ? 'update' : 'partial_update'}`, summary: 'Change a report schedule',
      access: 'reports.change_reportschedule', params: 'cartograph:api/id-params', body: method === 'PUT' ? reportScheduleKind : `${reportScheduleKind}-patch`,
      handler: async (request) => {
        const caller = callerOf(request);
        const existing = await load(caller, (request.params as { id: number }).id);
        const body = request.body as Partial<ReportSchedule>;
        return describe(await save(caller, (method === 'PUT' ? body : { ...existing.document, ...body }) as ReportSchedule, existing));
      },
    });
  }
  routes.add({
    method: 'DELETE', url: `${path}/:id`, name: 'report_schedule.delete', summary: 'Delete a report schedule', access: 'reports.delete_reportschedule', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const existing = await load(callerOf(request), (request.params as { id: number }).id);
      await db.query('delete from resources where id = $1', [existing.id]);
    },
  });
  routes.add({
    method: 'GET', url: '/reports/settings', name: 'report_settings.read', summary: 'Report retention, attachment limit and how long e-mailed download links work', access: 'reports.view_report',
    handler: async (request) => loadReportSettings(db, callerOf(request).companyId),
  });
  routes.add({
    method: 'PUT', url: '/reports/settings', name: 'report_settings.update', summary: 'Change report retention, attachment limit and how long e-mailed download links work', access: 'reports.change_report', body: reportSettingsKind,
    handler: async (request) => {
      const caller = callerOf(request);
      await saveSettingsDocument(db, caller.companyId, reportSettingsKind, request.body as ReportSettings);
      return loadReportSettings(db, caller.companyId);
    },
  });
}
