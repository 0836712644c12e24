import type PgBoss from 'pg-boss';
import type { CoreContext } from '../context.js';

/** Sends a job to one of the background queues (the API's "run now" buttons, schedulers' due slots). */
export type JobSend = (queue: string, data: object) => Promise<string | null>;

/**
 * Work of other parts of the server that runs on the discovery runner's pg-boss queues (actions, later reports):
 * a queue worked by whichever process is free, and optionally a tick every process runs (schedules), so the
 * discovery runner knows none of them.
 */
export type BackgroundJob = {
  queue: string;
  handle: (context: CoreContext, data: never) => Promise<void>;
  sendOptions?: PgBoss.SendOptions;
  tick?: { seconds: number; run: (context: CoreContext, send: JobSend) => Promise<void> };
};
