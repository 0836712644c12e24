import { logSystemEvent } from '../activities/activityLog.js';
import type { Queryable } from '../db/database.js';

/** What started an action run. */
export type RunTrigger = 'manual' | 'discovery' | 'schedule' | 'rerun';

type LoggedRun = { id: number; company_id: number; action_id: number; trigger: RunTrigger; dry_run: boolean };

const detailOf = (run: LoggedRun) => ({ company_id: run.company_id, action_id: run.action_id, run_id: run.id, trigger: run.trigger, dry_run: run.dry_run });
const describeTrigger: Record<RunTrigger, string> = { manual: 'started by hand', schedule: 'started by its schedule', discovery: 'started after a discovery', rerun: 'a re-run of failed targets' };

// A system-log write that fails must not change how the run itself ends.
const quietly = (written: Promise<void>) => written.catch(() => undefined);

/** Every action run, however it was started (by hand, a schedule, a discovery, a re-run), is in the system log. */
export function logRunStarted(db: Queryable, run: LoggedRun): Promise<void> {
  return quietly(logSystemEvent(db, 'info', 'action_run_started', `Action run ${run.id} of action ${run.action_id} ${describeTrigger[run.trigger]}${run.dry_run ? ' (dry run)' : ''}`, detailOf(run)));
}

/** A run that reached its end; some targets failing makes it a warning. */
export function logRunFinished(db: Queryable, run: LoggedRun, counts: { targets: number; succeeded: number; failed: number; skipped: number }): Promise<void> {
  const level = counts.failed ? 'warning' : 'info';
  const message = `Action run ${run.id} finished: ${counts.targets} targets, ${counts.succeeded} succeeded, ${counts.failed} failed, ${counts.skipped} skipped`;
  return quietly(logSystemEvent(db, level, 'action_run_finished', message, { ...detailOf(run), ...counts }));
}

/** A run whose process stopped, queued again for another process (its next attempt acts on what is left). */
export function logRunTakenOver(db: Queryable, run: LoggedRun & { attempt: number; worker: string | null }): Promise<void> {
  const message = `Action run ${run.id} lost its process${run.worker ? ` (${run.worker})` : ''} in attempt ${run.attempt} and was queued again`;
  return quietly(logSystemEvent(db, 'warning', 'action_run_taken_over', message, { ...detailOf(run), attempt: run.attempt }));
}

/** A run that could not run to its end (its action deleted, its type unknown, a runner that threw, its process stopped). */
export function logRunFailed(db: Queryable, run: LoggedRun, reason: string): Promise<void> {
  return quietly(logSystemEvent(db, 'error', 'action_run_failed', `Action run ${run.id} failed: ${reason}`.slice(0, 2000), detailOf(run)));
}
