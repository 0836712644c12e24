import { Cron } from 'croner';
import type PgBoss from 'pg-boss';
import type { Queryable } from '../db/database.js';
import { defaultScheduleDocument, discoveryScheduleKind, type DiscoveryScheduleDocument } from '../discovery/settings.js';

export const scheduledDiscoveryQueue = 'discovery-schedule';
export type ScheduledDiscoveryJob = { companyId: number; slot: string };

// How often each process looks for due slots. A slot fires within this long of its time.
const tickMilliseconds = 15_000;
// A six-hour singleton window (pg-boss allows at most its 12-hour archive interval): the same (company, slot) key
// sent twice in it is refused by pg-boss's unique index.
const singletonSeconds = 6 * 60 * 60;

/** The next start times of a schedule (none when it is off or its expression cannot run). */
export function nextRunsOf(schedule: DiscoveryScheduleDocument, count: number, from = new Date()): string[] {
  if (!schedule.enabled) return [];
  return new Cron(schedule.cron, { timezone: schedule.timezone, paused: true }).nextRuns(count, from).map((date) => date.toISOString());
}

/** Checks that a cron expression and time zone can be scheduled; answers the problem, or null. */
export function scheduleProblem(schedule: DiscoveryScheduleDocument): { field: 'cron' | 'timezone'; message: string } | null {
  try {
    new Intl.DateTimeFormat('en', { timeZone: schedule.timezone });
  } catch {
    return { field: 'timezone', message: `Unknown time zone "${schedule.timezone}".` };
  }
  try {
    new Cron(schedule.cron, { timezone: schedule.timezone, paused: true }).nextRun();
  } catch (error) {
    return { field: 'cron', message: `Invalid cron expression: ${(error as Error).message}` };
  }
  return null;
}

/**
 * Starts scheduled discoveries. Every process ticks; a due slot is sent to the queue as a pg-boss singleton keyed
 * by company and slot, so however many processes see the slot, one job (and one discovery) results. The schedule
 * lives in the database, so it survives restarts; a process starting shortly after a slot still fires it (the
 * singleton key keeps that from running twice).
 */
export class DiscoveryScheduler {
  private timer: NodeJS.Timeout | null = null;
  private lastTick: Date;

  constructor(
    private readonly db: Queryable,
    private readonly queue: PgBoss,
    onError: (error: Error) => void,
    startedAt = new Date(),
  ) {
    this.lastTick = new Date(startedAt.getTime() - 2 * tickMilliseconds);
    this.onError = onError;
  }

  private readonly onError: (error: Error) => void;

  start(): void {
    this.timer = setInterval(() => void this.tick().catch(this.onError), tickMilliseconds);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Sends the slots that fell due since the previous tick; answers how many this process sent (duplicates excluded). */
  async tick(now = new Date(), since = this.lastTick): Promise<number> {
    this.lastTick = now;
    const rows = await this.db.query<{ company_id: number; document: Partial<DiscoveryScheduleDocument> }>(
      "select r.company_id, r.document from resources r join companies c on c.id = r.company_id where r.kind = $1 and (r.document->>'enabled')::boolean",
      [discoveryScheduleKind],
    );
    let sent = 0;
    for (const row of rows) {
      const schedule = { ...defaultScheduleDocument, ...row.document };
      if (scheduleProblem(schedule)) continue;
      const slot = new Cron(schedule.cron, { timezone: schedule.timezone, paused: true }).nextRun(since);
      if (!slot || slot > now) continue;
      const data: ScheduledDiscoveryJob = { companyId: row.company_id, slot: slot.toISOString() };
      const id = await this.queue.send(scheduledDiscoveryQueue, data, { singletonKey: `${row.company_id}:${data.slot}`, singletonSeconds, retryLimit: 0 });
      if (id) sent += 1;
    }
    return sent;
  }
}
