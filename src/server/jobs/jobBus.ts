import type PgBoss from 'pg-boss';
import type { Database } from '../db/database.js';
import { lockKeys, withAdvisoryLock } from '../db/advisoryLock.js';
import { createJobQueue } from './queue.js';

/** Sends a job to one of the queues (pg-boss options: singleton keys, retries with backoff, start after). */
export type JobSend = (queue: string, data: object, options?: PgBoss.SendOptions) => Promise<string | null>;

type Registration = { queue: string; lanes: number; pollingIntervalSeconds: number; handle: (data: unknown) => Promise<void> };

// How long stopping waits for work still running after pg-boss's graceful wait, and for pg-boss to record the ends.
const stopWaitMilliseconds = 10_000;
const jobRecordMilliseconds = 100;

/**
 * The application's job bus (`AppContext.jobs`): pg-boss on Cartograph's own database. Each area registers its own
 * queues and workers (discovery steps, reports, actions, mail, feeds); the bus creates the queues, works them in the
 * processes that work jobs, runs the areas' periodic work and waits for work under way when it stops. It knows none
 * of the areas, so none of them depend on each other through it.
 */
export class JobBus {
  /** pg-boss itself, for the senders that need its options (a job sent inside the caller's transaction). */
  readonly boss: PgBoss;
  private readonly queues = new Set<string>();
  private readonly registrations: Registration[] = [];
  private readonly beforeWork: Array<{ run: () => Promise<void>; always: boolean }> = [];
  private readonly periodic: Array<{ everySeconds: number; run: () => Promise<void>; always: boolean }> = [];
  private readonly localWorkers: string[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly timers: NodeJS.Timeout[] = [];
  private working = false;

  /** Sends a job; null when a singleton key refused it. This process's workers look for it now. */
  readonly send: JobSend = async (queue, data, options) => {
    const id = await this.boss.send(queue, data, options ?? {});
    this.wake();
    return id;
  };

  constructor(
    private readonly db: Database,
    databaseUrl: string | null,
    readonly logError: (error: Error) => void,
  ) {
    this.boss = createJobQueue(db, databaseUrl);
    this.boss.on('error', logError);
  }

  /** A queue jobs are sent to (created when the bus starts), worked elsewhere or by a worker registered with work(). */
  addQueue(queue: string): void {
    this.queues.add(queue);
  }

  /** Works a queue, one job at a time per lane, in each process that works jobs. */
  work(queue: string, handle: (data: unknown) => Promise<void>, options: { lanes?: number; pollingIntervalSeconds?: number } = {}): void {
    this.addQueue(queue);
    this.registrations.push({ queue, lanes: options.lanes ?? 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1, handle });
  }

  /**
   * Work done once when the bus starts, before any queue is worked: in each process that works jobs (taking over what
   * a stopped process left), or (`always`) in every process.
   */
  beforeWorking(run: () => Promise<void>, options: { always?: boolean } = {}): void {
    this.beforeWork.push({ run, always: options.always ?? false });
  }

  /** Work repeated every `everySeconds`: in each process that works jobs, or (`always`) in every process. */
  every(everySeconds: number, run: () => Promise<void>, options: { always?: boolean } = {}): void {
    this.periodic.push({ everySeconds, run, always: options.always ?? false });
  }

  /** Starts pg-boss and creates the queues; with `work`, takes over left work, then works the queues. */
  async start(options: { work: boolean }): Promise<void> {
    // pg-boss installs its schema and creates queues on first start; two processes doing that at once on PostgreSQL
    // deadlock, so they take turns.
    await withAdvisoryLock(this.db, lockKeys.jobQueueInstall, async () => {
      await this.boss.start();
      for (const name of this.queues) await this.boss.createQueue(name);
    });
    this.working = options.work;
    for (const { run, always } of this.beforeWork) {
      if (always) await run();
      else if (options.work) await run().catch(this.logError);
    }
    if (options.work) {
      for (const registration of this.registrations) {
        for (let lane = 0; lane < registration.lanes; lane += 1) {
          this.localWorkers.push(await this.boss.work(registration.queue, { pollingIntervalSeconds: registration.pollingIntervalSeconds, batchSize: 1 }, async ([job]) => {
            await this.track(registration.handle(job.data));
          }));
        }
      }
    }
    for (const { everySeconds, run, always } of this.periodic) {
      if (!always && !options.work) continue;
      const timer = setInterval(() => void run().catch(this.logError), everySeconds * 1000);
      timer.unref();
      this.timers.push(timer);
    }
  }

  /** Whether this process works the queues (false in an API process that leaves them to `npm run worker`). */
  get isWorking(): boolean {
    return this.working;
  }

  /** Lets this process's workers look for the jobs just sent now rather than at their next poll. */
  wake(): void {
    for (const id of this.localWorkers) this.boss.notifyWorker(id);
  }

  /** Remembers a job's work until it ends, so stopping can wait for it. */
  private track(work: Promise<void>): Promise<void> {
    this.inFlight.add(work);
    void work.catch(() => undefined).finally(() => this.inFlight.delete(work));
    return work;
  }

  async stop(): Promise<void> {
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    await this.boss.stop({ graceful: true, timeout: 10_000, wait: true });
    // pg-boss records a job's end after its work ends without waiting for it: give work still under way (past the
    // graceful wait) and those records time to land before the caller closes the database.
    await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((resolve) => setTimeout(resolve, stopWaitMilliseconds))]);
    await new Promise((resolve) => setTimeout(resolve, jobRecordMilliseconds));
  }
}
