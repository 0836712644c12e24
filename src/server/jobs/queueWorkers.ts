import type { CoreContext } from '../context.js';
import type { JobBus, JobSend } from './jobBus.js';

export type { JobSend } from './jobBus.js';

/**
 * A queue of work other than discoveries (report runs, report deliveries, ...), worked by every process that works
 * the queues, and an optional tick every process runs to send jobs that fell due (schedules).
 */
export type QueueWorker = {
  queue: string;
  handle: (context: CoreContext, data: unknown, send: JobSend) => Promise<void>;
  /** Ticks every `tickSeconds` in each process; pg-boss singleton keys keep a slot from being sent twice. */
  tick?: (context: CoreContext, send: JobSend, since: Date, now: Date) => Promise<void>;
  /**
   * Work each process that works the queues runs when it starts (before it takes jobs) and every `everySeconds`
   * after: taking over jobs whose process stopped. `starting` is true the first time.
   */
  sweep?: { everySeconds: (context: CoreContext) => number; run: (context: CoreContext, send: JobSend, starting: boolean) => Promise<void> };
};

export const tickSeconds = 15;

/** Registers an area's queue workers (reports, actions, mail, feeds, …) with the job bus. */
export function registerQueueWorkers(jobs: JobBus, context: CoreContext, workers: QueueWorker[]): void {
  for (const worker of workers) {
    const { sweep, tick } = worker;
    jobs.work(worker.queue, (data) => worker.handle(context, data, jobs.send));
    if (sweep) {
      jobs.beforeWorking(() => sweep.run(context, jobs.send, true));
      jobs.every(sweep.everySeconds(context), () => sweep.run(context, jobs.send, false));
    }
  }
  const ticking = workers.filter((worker) => worker.tick);
  if (!ticking.length) return;
  // Each tick covers the time since the last one (the first, the two tick lengths before the bus started).
  let since = new Date(Date.now() - 2 * tickSeconds * 1000);
  jobs.every(tickSeconds, async () => {
    const now = new Date();
    const from = since;
    since = now;
    for (const worker of ticking) void worker.tick?.(context, jobs.send, from, now).catch(jobs.logError);
  }, { always: true });
}
