import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CoreContext } from '../context.js';
import type { Queryable } from '../db/database.js';
import { loadSettingsDocument } from '../settings/settingsStore.js';
import { writeCsv } from './csvOutput.js';
import { writePdf } from './pdfOutput.js';
import { loadCompanyReport, type ReportFormat } from './reportDocuments.js';
import { loadReportLogo } from './reportLogo.js';
import { countTables, isProblem, resolveSection, type ResolvedSection } from './sections.js';
import type { RenderInput } from './output.js';
import { writeXlsx } from './xlsxOutput.js';
import { readableSnapshot } from '../inventory/snapshots.js';

export const reportSettingsKind = 'cartograph:settings/reports';
export type ReportSettings = { retention_days: number; attachment_limit_mb: number; link_days: number };
export const defaultReportSettings: ReportSettings = { retention_days: 30, attachment_limit_mb: 10, link_days: 7 };

export const loadReportSettings = (db: Queryable, companyId: number) => loadSettingsDocument(db, companyId, reportSettingsKind, defaultReportSettings);

export type RunRow = {
  id: number; company_id: number; report_id: number; schedule_id: number | null; report_name: string; formats: ReportFormat[]; index_id: number | null;
  status: 'queued' | 'running' | 'done' | 'error'; progress: Record<string, unknown>; error: string; delivery_status: string; delivery_error: string;
  requested_by_name: string; queued_at: Date; started_at: Date | null; finished_at: Date | null;
};

const writers: Record<ReportFormat, (input: RenderInput, path: string) => Promise<{ filename: string; contentType: string }>> = { csv: writeCsv, xlsx: writeXlsx, pdf: writePdf };

/** Records a run waiting for its job; the caller queues the job in the same transaction. */
export async function createRun(db: Queryable, values: { companyId: number; reportId: number; reportName: string; scheduleId: number | null; formats: ReportFormat[]; indexId: number | null; userId: number | null; userName: string }): Promise<RunRow> {
  const [row] = await db.query<RunRow>(
    `insert into report_runs (company_id, report_id, schedule_id, report_name, formats, index_id, requested_by, requested_by_name) values ($1, $2, $3, $4, $5, $6, $7, $8) returning *`,
    [values.companyId, values.reportId, values.scheduleId, values.reportName, values.formats, values.indexId, values.userId, values.userName],
  );
  return row;
}

const setProgress = (db: Queryable, runId: number, progress: object) => db.query("update report_runs set progress = progress || $2::jsonb where id = $1", [runId, JSON.stringify(progress)]);

/** Fails a run with a message the run history shows. */
const failRun = (db: Queryable, runId: number, message: string) => db.query("update report_runs set status = 'error', error = $2, finished_at = now() where id = $1", [runId, message]);

/**
 * Renders a run's files: the report's sections against its snapshot, each format written to a temporary file and
 * stored. A section the user must fix (a query that no longer parses, a deleted saved query) fails the run with its
 * name and reason. Answers whether the run succeeded.
 */
export async function renderRun(context: CoreContext, runId: number): Promise<boolean> {
  const { db } = context;
  const [run] = await db.query<RunRow>("update report_runs set status = 'running', started_at = now() where id = $1 and status in ('queued', 'running') returning *", [runId]);
  if (!run) return false;
  const folder = await mkdtemp(join(tmpdir(), 'cartograph-report-'));
  try {
    const report = await loadCompanyReport(db, run.company_id, run.report_id);
    if (!report) return failRun(db, runId, 'The report was deleted.').then(() => false);
    const requested = run.index_id ?? report.document.index_id;
    const snapshot = await readableSnapshot(db, run.company_id, requested);
    if (!snapshot) {
      const message = requested ? `Snapshot ${requested} does not exist any more: choose another one.` : 'No discovery has completed yet: there is no snapshot to report on.';
      return failRun(db, runId, message).then(() => false);
    }
    const now = new Date();
    // Whoever asked for the run (a schedule asks for no one), the report reads as its owner: `Query is <id>` expands
    // the saved queries its owner may read.
    const scope = { db, companyId: run.company_id, userId: report.document.owner_id ?? null, snapshot, now };
    const resolved = await Promise.all(report.document.sections.map((section, index) => resolveSection(scope, section, index)));
    const problems = resolved.filter(isProblem);
    if (problems.length) return failRun(db, runId, problems.map((problem) => `${problem.title}: ${problem.message}`).join(' ')).then(() => false);
    const [company] = await db.query<{ name: string }>('select name from companies where id = $1', [run.company_id]);
    const sections = await countTables(resolved as ResolvedSection[]);
    // The run says which tables were cut at their limit, whatever the format (a CSV has no room to say it).
    const tables = sections.flatMap((section) => (section.type === 'table' ? [{ title: section.title, shown: section.shown, matching: section.matching }] : []));
    await setProgress(db, runId, { tables });
    const logo = report.document.show_logo ? ((await loadReportLogo(db, run.company_id))?.content ?? null) : null;
    for (const [formatIndex, format] of run.formats.entries()) {
      const path = join(folder, `${format}.out`);
      const onProgress = (done: { sections: number; rows: number }) => setProgress(db, runId, { format, formats_done: formatIndex, sections_done: done.sections, sections: sections.length, rows: done.rows }).then(() => undefined);
      const file = await writers[format]({ report: report.document, sections, companyName: company?.name ?? '', logo, snapshot, now, onProgress }, path);
      const size = (await stat(path)).size;
      await db.query('insert into report_files (run_id, format, filename, content_type, size, content) values ($1, $2, $3, $4, $5, $6) on conflict (run_id, format) do nothing', [
        runId, format, file.filename, file.contentType, size, await readFile(path),
      ]);
      await rm(path, { force: true });
    }
    await db.query("update report_runs set status = 'done', index_id = $2, finished_at = now(), progress = progress || $3::jsonb where id = $1", [runId, snapshot.id, JSON.stringify({ formats_done: run.formats.length })]);
    await pruneRuns(db, run.company_id);
    return true;
  } catch (error) {
    await failRun(db, runId, error instanceof Error ? error.message : String(error));
    return false;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Deletes the company's runs (and their files) older than its retention setting. */
export async function pruneRuns(db: Queryable, companyId: number): Promise<void> {
  const settings = await loadReportSettings(db, companyId);
  await db.query("delete from report_runs where company_id = $1 and queued_at < now() - make_interval(days => $2) and status in ('done', 'error')", [companyId, settings.retention_days]);
}
