import type { CoreContext } from '../context.js';
import type { Queryable } from '../db/database.js';
import { loadSettingsDocument, saveSettingsDocument } from '../settings/settingsStore.js';
import type { JobSend, QueueWorker } from '../jobs/queueWorkers.js';
import { logSystemEvent } from './activityLog.js';

/** How long the activity log and the system log keep their entries, one document per company (`cartograph:settings/activity-retention`). */
export const activityRetentionKind = 'cartograph:settings/activity-retention';

export type ActivityRetention = { user_activity_days: number; system_log_days: number };

export const defaultActivityRetention: ActivityRetention = { user_activity_days: 365, system_log_days: 365 };

export function loadActivityRetention(db: Queryable, companyId: number): Promise<ActivityRetention> {
  return loadSettingsDocument(db, companyId, activityRetentionKind, defaultActivityRetention);
}

export async function saveActivityRetention(db: Queryable, companyId: number, retention: ActivityRetention): Promise<ActivityRetention> {
  const document = { ...defaultActivityRetention, ...retention };
  await saveSettingsDocument(db, companyId, activityRetentionKind, document);
  return document;
}

// Deleting in slices keeps each statement (and its locks) short on a log that has grown for years.
const deleteSlice = 10_000;
const dayMs = 24 * 60 * 60 * 1000;

async function deleteOlder(db: Queryable, table: 'activities' | 'system_log', condition: string, params: unknown[]): Promise<number> {
  let total = 0;
  for (;;) {
    const [{ count }] = await db.query<{ count: number }>(
      `with gone as (delete from ${table} where id in (select id from ${table} where ${condition} limit ${deleteSlice}) returning 1) select count(*)::int as count from gone`,
      params,
    );
    total += count;
    if (count < deleteSlice) return total;
  }
}

/**
 * Deletes what each company's retention lets go: its activities older than its `user_activity_days`, and system
 * events older than the provider company's `system_log_days` (the system log is the installation's). Activities of
 * no company (sign-ins with unknown usernames) follow the provider company's setting. Answers what was deleted.
 */
export async function pruneActivityLogs(db: Queryable, now = new Date()): Promise<{ activities: number; systemLog: number }> {
  const companies = await db.query<{ id: number; is_constant: boolean; document: Partial<ActivityRetention> | null }>(
    `select c.id, c.is_constant, r.document from companies c
       left join lateral (select document from resources where kind = $1 and company_id = c.id order by id limit 1) r on true
      order by c.is_constant desc, c.id`,
    [activityRetentionKind],
  );
  const cutoff = (days: number) => new Date(now.getTime() - days * dayMs);
  let activities = 0;
  for (const company of companies) {
    const retention = { ...defaultActivityRetention, ...company.document };
    activities += await deleteOlder(db, 'activities', 'company_id = $1 and created_at < $2', [company.id, cutoff(retention.user_activity_days)]);
  }
  const provider = { ...defaultActivityRetention, ...companies.find((company) => company.is_constant)?.document };
  activities += await deleteOlder(db, 'activities', 'company_id is null and created_at < $1', [cutoff(provider.user_activity_days)]);
  const systemLog = await deleteOlder(db, 'system_log', 'created_at < $1', [cutoff(provider.system_log_days)]);
  return { activities, systemLog };
}

export const activityRetentionQueue = 'activity-retention';
type RetentionJob = { hour: string };

/**
 * Sends the pruning job when a tick crosses into a new hour. Every process ticks; the hour is the job's singleton
 * key, so one prune runs per hour however many processes see it.
 */
export async function sendHourlyPrune(send: JobSend, since: Date, now: Date): Promise<boolean> {
  const hour = now.toISOString().slice(0, 13);
  if (since.toISOString().slice(0, 13) === hour) return false;
  return Boolean(await send(activityRetentionQueue, { hour } satisfies RetentionJob, { singletonKey: hour, singletonSeconds: 60 * 60, retryLimit: 0 }));
}

async function runPrune(context: CoreContext): Promise<void> {
  const deleted = await pruneActivityLogs(context.db);
  if (deleted.activities || deleted.systemLog) {
    await logSystemEvent(context.db, 'info', 'activity_log_pruned', `Retention deleted ${deleted.activities} activities and ${deleted.systemLog} system events`, { activities: deleted.activities, system_events: deleted.systemLog });
  }
}

/** The hourly pruning of both logs, worked like the other queues (src/server/jobs/queueWorkers.ts). */
export const activityRetentionQueueWorkers: QueueWorker[] = [
  { queue: activityRetentionQueue, handle: (context) => runPrune(context), tick: async (_context, send, since, now) => void (await sendHourlyPrune(send, since, now)) },
];
