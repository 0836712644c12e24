import type PgBoss from 'pg-boss';
import type { CoreContext } from '../context.js';

/** Sends a job to one of the queues (pg-boss options: singleton keys, retries with backoff, start after). */
export type JobSend = (queue: string, data: object, options?: PgBoss.SendOptions) => Promise<string | null>;

/**
 * A queue of work other than discoveries (report runs, report deliveries, ...), worked by every process that works
 * the queues, and an optional tick every process runs to send jobs that fell due (schedules).
 */
export type QueueWorker = {
  queue: string;
  handle: (context: CoreContext, data: unknown, send: JobSend) => Promise<void>;
  /** Ticks every `tickSeconds` in each process; pg-boss singleton keys keep a slot from being sent twice. */
  tick?: (context: CoreContext, send: JobSend, since: Date, now: Date) => Promise<void>;
};

export const tickSeconds = 15;
