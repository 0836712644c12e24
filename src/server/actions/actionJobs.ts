import { Cron } from 'croner';
import type PgBoss from 'pg-boss';
import type { CoreContext } from '../context.js';
import type { Queryable } from '../db/database.js';
import { jobSender } from '../jobs/queue.js';
import { tickSeconds, type JobSend, type QueueWorker } from '../jobs/queueWorkers.js';
import type { SnapshotPublished } from '../jobs/published.js';
import { actionRunners } from './actionRunners.js';
import { actionKind, type ActionDocument } from './actionStore.js';
import { logRunFailed, logRunTakenOver } from './runEvents.js';
import { attemptsPerRun, failStaleRun, requeueRun, stoppedMessage, takeStaleRuns, type StaleRun } from './runLeases.js';
import { createRun, executeRun } from './runs.js';

export const actionRunQueue = 'action-run';
export type ActionRunJob = { runId: number };

/** After a publish: each enabled action triggered by discoveries runs once for that snapshot (the run is unique per snapshot). */
export async function runDiscoveryActions(context: CoreContext, event: SnapshotPublished): Promise<void> {
  const actions = await context.db.query<{ id: number }>(
    "select id from resources where kind = $1 and company_id = $2 and document->>'trigger' = 'discovery' and coalesce((document->>'enabled')::boolean, true) order by id",
    [actionKind, event.companyId],
  );
  for (const action of actions) {
    const runId = await createRun(context.db, { companyId: event.companyId, actionId: action.id, trigger: 'discovery', dryRun: false, discoveryId: event.discoveryId });
    if (runId !== null) await executeRun(context, runId);
  }
}

/** Every process ticks; a due slot becomes a run unique per action and slot, so it is queued once however many tick. */
export async function queueScheduledActions(context: CoreContext, send: JobSend, now = new Date(), since = new Date(now.getTime() - tickSeconds * 2000)): Promise<number> {
  const rows = await context.db.query<{ id: number; company_id: number; document: ActionDocument }>(
    "select id, company_id, document from resources where kind = $1 and document->>'trigger' = 'schedule' and coalesce((document->>'enabled')::boolean, true)",
    [actionKind],
  );
  let queued = 0;
  for (const row of rows) {
    let slot: Date | null;
    try {
      slot = new Cron(row.document.cron ?? '0 6 * * *', { timezone: row.document.timezone ?? 'UTC', paused: true }).nextRun(since);
    } catch {
      continue;
    }
    if (!slot || slot > now) continue;
    const runId = await context.db.transaction(async (transaction) => {
      const created = await createRun(transaction, { companyId: row.company_id, actionId: row.id, trigger: 'schedule', dryRun: false, slot: slot.toISOString() });
      if (created !== null) await queueActionRun(send, created, transaction);
      return created;
    });
    if (runId !== null) queued += 1;
  }
  return queued;
}

/**
 * Sends a run's job; in `transaction` when given, so the job exists exactly when the transaction that queued the run
 * commits. A run that failed midway is not repeated on its own: re-running the failed targets is the user's choice
 * (a run whose process stopped is taken over by the reaper, not by a retry of its job).
 */
export const queueActionRun = (send: JobSend, runId: number, transaction?: Queryable) =>
  send(actionRunQueue, { runId } satisfies ActionRunJob, { retryLimit: 0, ...(transaction && { db: jobSender(transaction) }) } as PgBoss.SendOptions);

/** Why a run whose process stopped cannot be taken over (null: it can). */
function reasonToFail(run: StaleRun): string | null {
  if (run.attempt >= attemptsPerRun) return `${stoppedMessage}, ${run.attempt} times.`;
  const resumable = run.dry_run || run.acting_since === null || Boolean(run.type && actionRunners[run.type]?.resumable);
  if (!resumable) return `${stoppedMessage} while it acted on its targets: it is not run again on its own, since some targets may have been acted on. Run the action again to act on them.`;
  return null;
}

/**
 * Runs whose process stopped saying it is alive: each is queued again for any process (its job sent in the
 * transaction that queues the run, so the run is queued exactly when its job exists), or failed when acting again
 * could act twice or its attempts are spent. On the embedded database this process is the only one, so when it
 * starts every run still running was its own before it stopped.
 */
export async function reapStaleRuns(context: CoreContext, send: JobSend, starting = false): Promise<number> {
  const { db, config } = context;
  const staleSeconds = starting && !config.databaseUrl ? 0 : config.actionRunStaleSeconds;
  const decided = await db.transaction(async (transaction) => {
    const outcomes: { run: StaleRun; failed: string | null }[] = [];
    for (const run of await takeStaleRuns(transaction, staleSeconds)) {
      const failed = reasonToFail(run);
      if (failed) {
        await failStaleRun(transaction, run.id, failed);
      } else {
        await requeueRun(transaction, run.id);
        await queueActionRun(send, run.id, transaction);
      }
      outcomes.push({ run, failed });
    }
    return outcomes;
  });
  for (const { run, failed } of decided) {
    if (failed) await logRunFailed(db, run, failed);
    else await logRunTakenOver(db, run);
  }
  return decided.length;
}

/** The action center's queue (runs started by hand or by schedule) and its schedule tick. */
export const actionQueueWorkers: QueueWorker[] = [
  {
    queue: actionRunQueue,
    handle: (context, data) => executeRun(context, (data as ActionRunJob).runId),
    tick: async (context, send, since, now) => void (await queueScheduledActions(context, send, now, since)),
    // Looks for stopped runs a few times within their timeout, so one is taken over soon after it goes stale.
    sweep: { everySeconds: (context) => Math.max(1, Math.floor(context.config.actionRunStaleSeconds / 3)), run: (context, send, starting) => reapStaleRuns(context, send, starting).then(() => undefined) },
  },
];
