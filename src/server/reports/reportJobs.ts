import { outboundPolicyFor } from '../outbound/policy.js';
import { logSystemEvent } from '../activities/activityLog.js';
import type { CoreContext } from '../context.js';
import type { JobSend, QueueWorker } from '../jobs/queueWorkers.js';
import { sendCompanyMail } from '../outbound/smtp.js';
import { deliveryMessage, linkExpiryText, type DeliveredFile } from './deliveryMessage.js';
import { signedFileUrl } from './fileLinks.js';
import { loadCompanyReport, reportScheduleKind, type ScheduleDocument } from './reportDocuments.js';
import { createRun, loadReportSettings, renderRun, type RunRow } from './reportRuns.js';
import { cronOf, scheduleTimingErrors } from './scheduleTimes.js';
import { Cron } from 'croner';

export const reportRunQueue = 'report-run';
export const reportDeliveryQueue = 'report-delivery';
const reportScheduleQueue = 'report-schedule';

type RunJob = { runId: number };
type ScheduleJob = { scheduleId: number; slot: string };

/**
 * A delivery that fails is tried again three times, after 30–60 s, 60–120 s and 120–240 s (pg-boss's exponential
 * backoff with jitter from CARTOGRAPH_REPORT_RETRY_SECONDS), then left failed.
 */
export const deliveryRetryOf = (context: CoreContext) => ({ retryLimit: 3, retryDelay: context.config.reportRetrySeconds, retryBackoff: true });
const singletonSeconds = 6 * 60 * 60;

/** Queues the run's rendering. */
export const queueRun = (send: JobSend, runId: number) => send(reportRunQueue, { runId } satisfies RunJob, { retryLimit: 0 });

async function runJob(context: CoreContext, data: unknown, send: JobSend): Promise<void> {
  const { runId } = data as RunJob;
  const succeeded = await renderRun(context, runId);
  const [run] = await context.db.query<RunRow>('select * from report_runs where id = $1', [runId]);
  if (!succeeded && run?.status === 'error') await logReportRunFailed(context, run);
  if (!run?.schedule_id) return;
  if (succeeded) {
    await send(reportDeliveryQueue, { runId } satisfies RunJob, deliveryRetryOf(context));
  } else {
    await recordOnSchedule(context, run.schedule_id, { last_status: 'failed', last_error: run.error }, true);
  }
}

/** Every failed run (by hand or by schedule) is in the system log and reaches the company's syslog receiver. */
async function logReportRunFailed(context: CoreContext, run: RunRow): Promise<void> {
  const detail = { company_id: run.company_id, report_id: run.report_id, run_id: run.id, ...(run.schedule_id && { schedule_id: run.schedule_id }) };
  await logSystemEvent(context.db, 'error', 'report_run_failed', `Report run ${run.id} failed: ${run.error}`.slice(0, 2000), detail).catch(() => undefined);
}

async function recordOnSchedule(context: CoreContext, scheduleId: number, state: Partial<ScheduleDocument>, failed: boolean): Promise<void> {
  await context.db.query(
    `update resources set document = document || $2::jsonb || jsonb_build_object('failures', case when $3 then coalesce((document->>'failures')::int, 0) + 1 else 0 end)
      where id = $1 and kind = $4`,
    [scheduleId, JSON.stringify({ ...state, last_run_at: new Date().toISOString() }), failed, reportScheduleKind],
  );
}

/** E-mail addresses of a schedule: its own and those of the company's users it names. */
async function recipientsOf(context: CoreContext, companyId: number, schedule: ScheduleDocument): Promise<string[]> {
  const users = schedule.recipient_users.length
    ? await context.db.query<{ email: string }>("select email from users where company_id = $1 and id = any($2::int[]) and coalesce(email, '') <> ''", [companyId, schedule.recipient_users])
    : [];
  return [...new Set([...schedule.recipients, ...users.map((user) => user.email)])];
}

/**
 * Sends a scheduled run's files. Files over the company's attachment limit are sent instead as signed links that
 * download them without signing in for the settings' `link_days`. A failure is recorded on the run and the schedule,
 * and thrown so pg-boss tries again with backoff.
 */
async function deliveryJob(context: CoreContext, data: unknown): Promise<void> {
  const { runId } = data as RunJob;
  const { db } = context;
  const [run] = await db.query<RunRow>("select * from report_runs where id = $1 and status = 'done'", [runId]);
  if (!run?.schedule_id) return;
  const [scheduleRow] = await db.query<{ document: ScheduleDocument }>('select document from resources where id = $1 and kind = $2', [run.schedule_id, reportScheduleKind]);
  if (!scheduleRow) return;
  const schedule = scheduleRow.document;
  try {
    const settings = await loadReportSettings(db, run.company_id);
    // Only the files within the limit are read whole; a larger one is only linked.
    const limitBytes = Math.floor(settings.attachment_limit_mb * 1024 * 1024);
    const files = await db.query<DeliveredFile>(
      'select format, filename, content_type, size::float8 as size, case when size <= $2 then content end as content from report_files where run_id = $1 order by format', [runId, limitBytes],
    );
    const to = await recipientsOf(context, run.company_id, schedule);
    if (!to.length) throw new Error('The schedule has no recipient with an e-mail address.');
    // A retried delivery signs new links: each mail's links work for the full period from when it is sent.
    const linkExpiresAt = new Date(Date.now() + settings.link_days * 24 * 60 * 60 * 1000);
    const linkOf = (format: DeliveredFile['format']) => signedFileUrl(context.keys.reportLinksKey, context.config.publicUrl, { companyId: run.company_id, runId, format, expiresAt: linkExpiresAt });
    const { text, attachments } = deliveryMessage({
      publicUrl: context.config.publicUrl, reportName: run.report_name, body: schedule.body, limitMb: settings.attachment_limit_mb, files, linkOf, linkExpiry: linkExpiryText(linkExpiresAt, schedule.timezone),
    });
    const message = { to, subject: schedule.subject || run.report_name, text, attachments };
    const receipt = await sendCompanyMail(db, context.keys.secretsKey, run.company_id, message, await outboundPolicyFor(db, context.config, run.company_id), context.config.smtpTimeoutSeconds);
    const rejected = receipt.rejected.length ? `Refused recipients: ${receipt.rejected.join(', ')}` : '';
    await db.query("update report_runs set delivery_status = 'sent', delivery_error = $2 where id = $1", [runId, rejected]);
    await recordOnSchedule(context, run.schedule_id, { last_status: 'sent', last_error: rejected }, false);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await db.query("update report_runs set delivery_status = 'failed', delivery_error = $2 where id = $1", [runId, message]);
    await recordOnSchedule(context, run.schedule_id, { last_status: 'failed', last_error: message }, true);
    throw error;
  }
}

/** A due slot of a schedule: a run on behalf of the schedule, rendered and then delivered. */
async function scheduleJob(context: CoreContext, data: unknown, send: JobSend): Promise<void> {
  const { scheduleId } = data as ScheduleJob;
  const [row] = await context.db.query<{ company_id: number; document: ScheduleDocument }>('select company_id, document from resources where id = $1 and kind = $2', [scheduleId, reportScheduleKind]);
  if (!row?.document.enabled) return;
  const report = await loadCompanyReport(context.db, row.company_id, row.document.report);
  if (!report) return recordOnSchedule(context, scheduleId, { last_status: 'failed', last_error: 'The report of this schedule was deleted.' }, true);
  const run = await createRun(context.db, { companyId: row.company_id, reportId: report.id, reportName: report.document.name, scheduleId, formats: row.document.formats, indexId: null, userId: null, userName: `Schedule: ${row.document.name}` });
  await queueRun(send, run.id);
}

/** Sends the slots of enabled schedules that fell due between two ticks, once each across processes. */
export async function sendDueSchedules(context: CoreContext, send: JobSend, since: Date, now: Date): Promise<number> {
  const rows = await context.db.query<{ id: number; document: ScheduleDocument }>("select id, document from resources where kind = $1 and coalesce((document->>'enabled')::boolean, true)", [reportScheduleKind]);
  let sent = 0;
  for (const row of rows) {
    if (Object.keys(scheduleTimingErrors(row.document)).length) continue;
    const slot = new Cron(cronOf(row.document), { timezone: row.document.timezone, paused: true }).nextRun(since);
    if (!slot || slot > now) continue;
    const id = await send(reportScheduleQueue, { scheduleId: row.id, slot: slot.toISOString() } satisfies ScheduleJob, { singletonKey: `report-schedule:${row.id}:${slot.toISOString()}`, singletonSeconds, retryLimit: 0 });
    if (id) sent += 1;
  }
  return sent;
}

export const reportQueueWorkers: QueueWorker[] = [
  { queue: reportRunQueue, handle: runJob },
  { queue: reportDeliveryQueue, handle: (context, data) => deliveryJob(context, data) },
  { queue: reportScheduleQueue, handle: scheduleJob, tick: async (context, send, since, now) => void (await sendDueSchedules(context, send, since, now)) },
];
