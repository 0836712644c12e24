import type { Queryable } from '../db/database.js';
import { workerName } from '../discovery/steps.js';
import type { RunTrigger } from './runEvents.js';

/**
 * An action run belongs to one attempt at a time, as a discovery step does (src/server/discovery/steps.ts): the
 * attempt that claims a queued run numbers itself, says it is alive in `heartbeat_at` while it works, and writes its
 * results only while the run is still its own. A run whose heartbeat grows older than the configured timeout (its
 * process was killed, lost its machine or its database) is taken by the reaper: queued again for another process
 * with the next attempt, or failed. The stopped attempt, should it wake, finds the run gone and writes nothing.
 */

/** Attempts a run gets: its first and the takeovers after its process stopped. */
export const attemptsPerRun = 3;

/** The reason a run is failed with when its process stopped and it could not be taken over. */
export const stoppedMessage = 'The process running it stopped before it finished';

export type LeasedRun = {
  id: number; company_id: number; action_id: number; trigger: RunTrigger; dry_run: boolean; discovery_id: number | null;
  rerun_of: number | null; started_by: number | null; started_by_name: string; attempt: number;
};

/** How often a running attempt says it is alive: several times within the timeout, so one slow write is not a death. */
export const heartbeatMillisecondsOf = (staleSeconds: number) => Math.max(250, Math.floor((staleSeconds * 1000) / 6));

/** One attempt's hold on its run; `signal` is aborted the moment the run turns out to belong to another attempt. */
export class RunLease {
  private readonly superseded = new AbortController();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly db: Queryable,
    readonly run: LeasedRun,
    staleSeconds: number,
  ) {
    this.timer = setInterval(() => void this.heartbeat(), heartbeatMillisecondsOf(staleSeconds));
    this.timer.unref();
  }

  get attempt(): number {
    return this.run.attempt;
  }

  /** Aborted when another attempt owns the run: act on no further target. */
  get signal(): AbortSignal {
    return this.superseded.signal;
  }

  private async heartbeat(): Promise<void> {
    // A failed heartbeat (the database unreachable a moment) is not a lost run: the next one tries again.
    const kept = await this.db
      .query("update action_runs set heartbeat_at = now() where id = $1 and attempt = $2 and status = 'running' returning 1", [this.run.id, this.run.attempt])
      .catch(() => null);
    if (kept && !kept.length) this.superseded.abort();
  }

  /**
   * Marks the run as acting on its targets (a takeover then knows targets may have been acted on); false when the
   * run is no longer this attempt's.
   */
  async startActing(): Promise<boolean> {
    const owned = await this.db.query("update action_runs set acting_since = coalesce(acting_since, now()), heartbeat_at = now() where id = $1 and attempt = $2 and status = 'running' returning 1", [this.run.id, this.run.attempt]);
    if (!owned.length) this.superseded.abort();
    return owned.length === 1;
  }

  /** Locks the run for the attempt's final writes, in the caller's transaction; false when it was superseded. */
  async holdForFinish(transaction: Queryable): Promise<boolean> {
    const owned = await transaction.query("select 1 from action_runs where id = $1 and attempt = $2 and status = 'running' for update", [this.run.id, this.run.attempt]);
    return owned.length === 1;
  }

  release(): void {
    clearInterval(this.timer);
  }
}

/** Takes a queued run for this process with the next attempt; null when it is not queued (taken, or ended). */
export async function claimRun(db: Queryable, runId: number, staleSeconds: number): Promise<RunLease | null> {
  const [run] = await db.query<LeasedRun>(
    `update action_runs set status = 'running', attempt = attempt + 1, worker = $2, heartbeat_at = now(), started_at = coalesce(started_at, now())
      where id = $1 and status = 'queued' returning *`,
    [runId, workerName],
  );
  return run ? new RunLease(db, run, staleSeconds) : null;
}

export type StaleRun = { id: number; company_id: number; action_id: number; trigger: RunTrigger; dry_run: boolean; attempt: number; acting_since: Date | null; worker: string | null; type: string | null };

/**
 * Running runs whose attempt stopped saying it is alive for `staleSeconds`, locked in the caller's transaction
 * (`for update skip locked`, so two processes reaping at once take each run once).
 */
export function takeStaleRuns(transaction: Queryable, staleSeconds: number): Promise<StaleRun[]> {
  return transaction.query<StaleRun>(
    `select r.id, r.company_id, r.action_id, r.trigger, r.dry_run, r.attempt, r.acting_since, r.worker, a.document->>'type' as type
       from action_runs r left join resources a on a.id = r.action_id
      where r.status = 'running' and coalesce(r.heartbeat_at, r.started_at, r.created_at) < now() - make_interval(secs => $1)
      order by r.id for update of r skip locked`,
    [staleSeconds],
  );
}

/** Queues a stale run again, in the caller's transaction (its job is sent in it too): the next claim supersedes the stopped attempt. */
export async function requeueRun(transaction: Queryable, runId: number): Promise<void> {
  await transaction.query("update action_runs set status = 'queued', heartbeat_at = now() where id = $1", [runId]);
}

/** Ends a stale run as failed, in the caller's transaction. */
export async function failStaleRun(transaction: Queryable, runId: number, reason: string): Promise<void> {
  await transaction.query("update action_runs set status = 'error', finished_at = now(), heartbeat_at = null, error = $2 where id = $1", [runId, reason.slice(0, 2000)]);
}
