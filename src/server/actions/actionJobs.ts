import { Cron } from 'croner';
import type { CoreContext } from '../context.js';
import { tickSeconds, type JobSend, type QueueWorker } from '../jobs/queueWorkers.js';
import type { SnapshotPublished } from '../jobs/published.js';
import { actionKind, type ActionDocument } from './actionStore.js';
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
    const runId = await createRun(context.db, { companyId: row.company_id, actionId: row.id, trigger: 'schedule', dryRun: false, slot: slot.toISOString() });
    if (runId === null) continue;
    await queueActionRun(send, runId);
    queued += 1;
  }
  return queued;
}

// A run that failed midway is not repeated on its own: re-running the failed targets is the user's choice.
export const queueActionRun = (send: JobSend, runId: number) => send(actionRunQueue, { runId } satisfies ActionRunJob, { retryLimit: 0 });

/** The action center's queue (runs started by hand or by schedule) and its schedule tick. */
export const actionQueueWorkers: QueueWorker[] = [
  {
    queue: actionRunQueue,
    handle: (context, data) => executeRun(context, (data as ActionRunJob).runId),
    tick: async (context, send, since, now) => void (await queueScheduledActions(context, send, now, since)),
  },
];
