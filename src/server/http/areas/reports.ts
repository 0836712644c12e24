import type { AppContext } from '../../context.js';
import type { Caller } from '../../identity/callers.js';
import { isPrunedSnapshot, readableSnapshot } from '../../inventory/snapshots.js';
import { checkReportSections, type ReportBody } from '../../reports/reportChecks.js';
import { loadVisibleReport, reportDocumentOf, reportKind, reportVisibleTo, type ReportFormat, type StoredReport } from '../../reports/reportDocuments.js';
import { queueRun } from '../../reports/reportJobs.js';
import { createRun, type RunRow } from '../../reports/reportRuns.js';
import { previewReport } from '../../reports/reportPreview.js';
import { fieldError, HttpError, notFound } from '../errors.js';
import { registerReportFileLinkRoutes, sendRunFile, type RunFile } from './reportFileLinks.js';
import { registerReportLogoRoutes } from './reportLogo.js';
import { pageWindow, paginated, type ListQuery } from '../pagination.js';
import { callerOf, type RouteCatalogue } from '../routes.js';
import { containsPattern } from '../../db/likePatterns.js';

const path = '/reports/reports';

function describe(row: StoredReport) {
  return { id: row.id, ...row.document, user_full_name: row.document.user_full_name ?? '', created_at: row.created_at, updated_at: row.updated_at };
}

type LastRunColumns = { last_run_id: number | null; last_run_status: RunRow['status'] | null; last_run_formats: string[] | null; last_run_queued_at: Date | null; last_run_finished_at: Date | null };

/** The newest run of a report as the list answers it, or null when it never ran. */
const lastRunOf = (row: LastRunColumns) =>
  row.last_run_id === null ? null : { id: row.last_run_id, status: row.last_run_status, formats: row.last_run_formats, queued_at: row.last_run_queued_at, finished_at: row.last_run_finished_at };

type FileRow = { run_id: number; format: string; filename: string; size: string };

function describeRun(run: RunRow, files: FileRow[]) {
  const seconds = run.started_at && run.finished_at ? (new Date(run.finished_at).getTime() - new Date(run.started_at).getTime()) / 1000 : null;
  return {
    id: run.id, report: run.report_id, schedule: run.schedule_id, report_name: run.report_name, formats: run.formats, index_id: run.index_id, status: run.status,
    progress: run.progress, error: run.error, delivery_status: run.delivery_status, delivery_error: run.delivery_error, requested_by: run.requested_by_name,
    queued_at: run.queued_at, started_at: run.started_at, finished_at: run.finished_at, duration_seconds: seconds,
    files: files.filter((file) => file.run_id === run.id).map((file) => ({ format: file.format, filename: file.filename, size: Number(file.size), url: `/reports/runs/${run.id}/files/${file.format}` })),
  };
}

/**
 * Reports (hand-written rather than generic: they have owners and visibility, their sections' queries are checked
 * when saved, and they run as jobs whose files are downloaded).
 */
export function registerReportRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  registerReportLogoRoutes(routes, context);
  registerReportFileLinkRoutes(routes, context);
  const load = async (caller: Caller, id: number, forChange: boolean): Promise<StoredReport> => {
    const row = await loadVisibleReport(db, caller.companyId, caller.userId, id);
    if (!row) throw notFound();
    if (forChange && row.document.owner_id !== undefined && row.document.owner_id !== caller.userId) throw new HttpError(403, { detail: 'Only the owner of this report can change it.' });
    return row;
  };
  const ownerName = async (caller: Caller) => {
    const [user] = await db.query<{ name: string }>("select trim(first_name || ' ' || last_name) as name from users where id = $1", [caller.userId]);
    return user?.name || caller.username;
  };
  const save = async (caller: Caller, body: ReportBody, existing: StoredReport | null): Promise<StoredReport> => {
    const document = reportDocumentOf(body, { owner_id: existing?.document.owner_id ?? caller.userId, user_full_name: existing?.document.user_full_name ?? (await ownerName(caller)) });
    const taken = await db.query(`select 1 from resources where ${reportVisibleTo('$2', '$3')} and lower(document->>'name') = lower($1) and id <> coalesce($4::int, 0)`, [document.name, caller.companyId, caller.userId, existing?.id ?? null]);
    if (taken.length) throw fieldError('name', 'A report with this name already exists.');
    // A report may pin a snapshot of its own company only (runs read within the company anyway; it must not even be saved).
    if (document.index_id && !(await readableSnapshot(db, caller.companyId, document.index_id))) throw fieldError('index_id', `No published snapshot ${document.index_id}.`);
    await checkReportSections(db, caller, document);
    const [row] = existing
      ? await db.query<StoredReport>('update resources set document = $2, updated_at = now() where id = $1 returning id, document, created_at, updated_at', [existing.id, JSON.stringify(document)])
      : await db.query<StoredReport>('insert into resources (kind, company_id, document) values ($1, $2, $3) returning id, document, created_at, updated_at', [reportKind, caller.companyId, JSON.stringify(document)]);
    return row;
  };
  const runsOf = async (companyId: number, where: string, params: unknown[]) => {
    const runs = await db.query<RunRow>(`select * from report_runs where company_id = $1 and ${where} order by id desc limit 100`, [companyId, ...params]);
    const files = runs.length ? await db.query<FileRow>('select run_id, format, filename, size from report_files where run_id = any($1::int[]) order by format', [runs.map((run) => run.id)]) : [];
    return runs.map((run) => describeRun(run, files));
  };

  routes.add({
    method: 'GET', url: path, name: 'report.list', summary: 'List the reports the caller may see', access: 'reports.view_report', query: 'cartograph:api/list-query',
    handler: async (request) => {
      const caller = callerOf(request);
      const query = request.query as ListQuery;
      const { limit, offset } = pageWindow(query);
      const filter = `${reportVisibleTo('$1', '$2')} and ($3::text is null or document->>'name' ilike $3 or document->>'description' ilike $3)`;
      const params = [caller.companyId, caller.userId, query.search ? containsPattern(query.search) : null];
      const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from resources where ${filter}`, params);
      // Each report's newest run comes in the same query (a lateral join on the runs' per-report index), so the list
      // shows it without one call per report.
      const rows = await db.query<StoredReport & LastRunColumns>(
        `select resources.id, resources.document, resources.created_at, resources.updated_at,
                last_run.id as last_run_id, last_run.status as last_run_status, last_run.formats as last_run_formats, last_run.queued_at as last_run_queued_at, last_run.finished_at as last_run_finished_at
           from resources
           left join lateral (select id, status, formats, queued_at, finished_at from report_runs where report_runs.company_id = resources.company_id and report_runs.report_id = resources.id order by report_runs.id desc limit 1) last_run on true
          where ${filter} order by lower(resources.document->>'name'), resources.id limit $4 offset $5`,
        [...params, limit, offset],
      );
      return paginated(request, query, count, rows.map((row) => ({ ...describe({ ...row, document: reportDocumentOf(row.document, row.document) }), last_run: lastRunOf(row) })));
    },
  });
  routes.add({
    method: 'POST', url: path, name: 'report.create', summary: 'Create a report', access: 'reports.add_report', body: reportKind, status: 201,
    handler: async (request) => describe(await save(callerOf(request), request.body as ReportBody, null)),
  });
  routes.add({
    method: 'GET', url: `${path}/:id`, name: 'report.read', summary: 'Read a report', access: 'reports.view_report', params: 'cartograph:api/id-params',
    handler: async (request) => describe(await load(callerOf(request), (request.params as { id: number }).id, false)),
  });
  for (const method of ['PUT', 'PATCH'] as const) {
    routes.add({
      method, url: `${path}/:id`, name: `report.${method === 'PUT' ? 'update' : 'partial_update'}`, summary: 'Change a report (its owner only)',
      access: 'reports.change_report', params: 'cartograph:api/id-params', body: method === 'PUT' ? reportKind : `${reportKind}-patch`,
      handler: async (request) => {
        const caller = callerOf(request);
        const existing = await load(caller, (request.params as { id: number }).id, true);
        const body = request.body as Partial<ReportBody>;
        return describe(await save(caller, (method === 'PUT' ? body : { ...existing.document, ...body }) as ReportBody, existing));
      },
    });
  }
  routes.add({
    method: 'DELETE', url: `${path}/:id`, name: 'report.delete', summary: 'Delete a report (its owner only) and its runs', access: 'reports.delete_report', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const caller = callerOf(request);
      const existing = await load(caller, (request.params as { id: number }).id, true);
      await db.query('delete from report_runs where company_id = $1 and report_id = $2', [caller.companyId, existing.id]);
      await db.query('delete from resources where id = $1', [existing.id]);
    },
  });
  routes.add({
    method: 'POST', url: '/reports/preview', name: 'report.preview', summary: 'Compute a report definition for the builder’s preview (first rows of each table)', access: 'reports.view_report', body: reportKind,
    handler: async (request) => previewReport(db, callerOf(request), reportDocumentOf(request.body as ReportBody)),
  });
  routes.add({
    method: 'POST', url: `${path}/:id/run`, name: 'report.run', summary: 'Run a report now (a job; poll the run)', access: 'reports.download_report', params: 'cartograph:api/id-params', body: 'cartograph:api/report-run', status: 202,
    handler: async (request) => {
      const caller = callerOf(request);
      const report = await load(caller, (request.params as { id: number }).id, false);
      const body = request.body as { formats?: ReportFormat[]; index_id?: number | null };
      if (body.index_id && !(await readableSnapshot(db, caller.companyId, body.index_id))) {
        throw fieldError('index_id', (await isPrunedSnapshot(db, caller.companyId, body.index_id)) ? `Snapshot ${body.index_id}'s data was pruned: choose a snapshot that is kept.` : `No published snapshot ${body.index_id}.`);
      }
      const run = await createRun(db, {
        companyId: caller.companyId, reportId: report.id, reportName: report.document.name, scheduleId: null, formats: body.formats ?? [report.document.format],
        indexId: body.index_id ?? null, userId: caller.userId, userName: await ownerName(caller),
      });
      await queueRun(context.jobs.send, run.id);
      return describeRun(run, []);
    },
  });
  routes.add({
    method: 'GET', url: `${path}/:id/runs`, name: 'report.runs', summary: 'The report’s runs, newest first, with their files', access: 'reports.view_report', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const caller = callerOf(request);
      const report = await load(caller, (request.params as { id: number }).id, false);
      return { results: await runsOf(caller.companyId, 'report_id = $2', [report.id]) };
    },
  });
  const visibleRun = async (caller: Caller, id: number) => {
    const [run] = await runsOf(caller.companyId, 'id = $2', [id]);
    if (!run || !(await loadVisibleReport(db, caller.companyId, caller.userId, run.report))) throw notFound();
    return run;
  };
  routes.add({
    method: 'GET', url: '/reports/runs/:id', name: 'report.run_read', summary: 'A run: status, progress, files', access: 'reports.view_report', params: 'cartograph:api/id-params',
    handler: async (request) => visibleRun(callerOf(request), (request.params as { id: number }).id),
  });
  routes.add({
    method: 'GET', url: '/reports/runs/:id/files/:format', name: 'report.download', summary: 'Download a file of a run', access: 'reports.download_report', params: 'cartograph:api/report-file-params',
    handler: async (request, reply) => {
      const caller = callerOf(request);
      const params = request.params as { id: number; format: string };
      await visibleRun(caller, params.id);
      const [file] = await db.query<RunFile>('select filename, content_type, content from report_files where run_id = $1 and format = $2', [params.id, params.format]);
      if (!file) throw notFound();
      return sendRunFile(reply, file);
    },
  });
}
