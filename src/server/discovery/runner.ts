import type PgBoss from 'pg-boss';
import { logSystemEvent } from '../activities/activityLog.js';
import type { CoreContext } from '../context.js';
import { detailError } from '../http/errors.js';
import { lockKeys, withAdvisoryLock } from '../db/advisoryLock.js';
import { createJobQueue } from '../jobs/queue.js';
import { tickSeconds, type JobSend, type QueueWorker } from '../jobs/queueWorkers.js';
import { DiscoveryScheduler, scheduledDiscoveryQueue, type ScheduledDiscoveryJob } from '../jobs/scheduler.js';
import { announcePublished, publishedQueueOf, type PublishedSubscriber, type SnapshotPublished } from '../jobs/published.js';
import { runFetchStep, runPublishStep, type Announce } from './pipeline.js';
import { begin, newProgress } from './progress.js';
import { deleteSnapshotRows } from './snapshotWriter.js';
import { logDiscoveryFailed, logDiscoveryStarted, logScheduledDiscoveryStarted } from './discoveryEvents.js';
import { loadDiscoverySettings } from './settings.js';
import { abandonFetch, advance, attemptsPerStep, fetchStepQueue, planSteps, publishStep, publishStepQueue, requeueStale, takeStaleSteps, type StepJob } from './steps.js';

const interruptedMessage = 'Interrupted: the process running this discovery stopped before it finished. The previous snapshot stays in use.';
const lostMessage = `Its worker stopped answering ${attemptsPerStep} times.`;

// How long stopping waits for steps still running after pg-boss's graceful wait, and for pg-boss to record the ends.
const stopWaitMilliseconds = 10_000;
const jobRecordMilliseconds = 100;
// How often each working process looks for steps whose worker died.
const reapSeconds = 10;

/**
 * Starts discoveries and runs their steps from the pg-boss queues. The API process works the queues too; on
 * PostgreSQL more `npm run worker` processes share them, each fetch and the publish going to whichever process is
 * free, and a step whose process dies going to another.
 */
export class DiscoveryRunner {
  private readonly queue: PgBoss;
  /** Starts discoveries on each company's schedule (every process ticks; pg-boss singletons keep one per slot). */
  readonly scheduler: DiscoveryScheduler;
  private readonly localWorkers: string[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private reaper: NodeJS.Timeout | null = null;
  private readonly logError: (error: Error) => void;
  private ticker: NodeJS.Timeout | null = null;
  /** Sends a job to a queue of this runner (report runs, deliveries); null when a singleton key refused it. */
  readonly sendJob: JobSend = async (queue, data, options) => {
    const id = await this.queue.send(queue, data, options ?? {});
    // This process's workers look for it now rather than at their next poll.
    this.wake();
    return id;
  };

  constructor(
    private readonly context: CoreContext,
    private readonly subscribers: PublishedSubscriber[] = [],
    private readonly queueWorkers: QueueWorker[] = [],
  ) {
    this.queue = createJobQueue(context.db, context.config.databaseUrl);
    this.logError = (error: Error) => void logSystemEvent(context.db, 'error', 'job_queue_error', error.message).catch(() => undefined);
    this.queue.on('error', this.logError);
    this.scheduler = new DiscoveryScheduler(context.db, this.queue, this.logError);
  }

  /** Starts the queue, marks discoveries a dead process left running as failed, and (when asked) works the queue. */
  async start(options: { work: boolean }): Promise<void> {
    // pg-boss installs its schema and creates queues on first start; two processes doing that at once on PostgreSQL
    // deadlock, so they take turns.
    await withAdvisoryLock(this.context.db, lockKeys.jobQueueInstall, async () => {
      await this.queue.start();
      for (const name of [fetchStepQueue, publishStepQueue, scheduledDiscoveryQueue, ...this.subscribers.map(publishedQueueOf), ...this.queueWorkers.map((worker) => worker.queue)]) await this.queue.createQueue(name);
    });
    await this.recoverInterrupted();
    if (options.work) {
      const announce: Announce = (transaction, event) => announcePublished(transaction, this.queue, this.subscribers, event);
      const steps: [string, number, (job: StepJob) => Promise<void>][] = [
        [fetchStepQueue, this.context.config.fetchLanes, (job) => runFetchStep(this.context, this.queue, job)],
        [publishStepQueue, 1, (job) => runPublishStep(this.context, this.queue, job, announce)],
      ];
      for (const [name, lanes, run] of steps) {
        for (let lane = 0; lane < lanes; lane += 1) {
          this.localWorkers.push(await this.queue.work<StepJob>(name, { pollingIntervalSeconds: 1, batchSize: 1 }, async ([job]) => {
            await this.track(run(job.data));
            this.wake();
          }));
        }
      }
      for (const subscriber of this.subscribers) {
        this.localWorkers.push(await this.queue.work<SnapshotPublished>(publishedQueueOf(subscriber), { pollingIntervalSeconds: 1, batchSize: 1 }, ([job]) => this.track(subscriber.handle(this.context, job.data))));
      }
      await this.queue.work<ScheduledDiscoveryJob>(scheduledDiscoveryQueue, { pollingIntervalSeconds: 2, batchSize: 1 }, async ([job]) => {
        await this.startScheduled(job.data);
      });
      for (const worker of this.queueWorkers) {
        this.localWorkers.push(await this.queue.work(worker.queue, { pollingIntervalSeconds: 1, batchSize: 1 }, ([job]) => this.track(worker.handle(this.context, job.data, this.sendJob))));
      }
      this.reaper = setInterval(() => void this.reapStaleSteps().catch(this.logError), reapSeconds * 1000);
      this.reaper.unref();
    }
    this.scheduler.start();
    this.startTicks();
  }

  /** Runs the queue workers' ticks (schedules that send their due slots), each over the time since its last tick. */
  private startTicks(): void {
    let since = new Date(Date.now() - 2 * tickSeconds * 1000);
    const ticking = this.queueWorkers.filter((worker) => worker.tick);
    if (!ticking.length) return;
    this.ticker = setInterval(() => {
      const now = new Date();
      const from = since;
      since = now;
      for (const worker of ticking) void worker.tick?.(this.context, this.sendJob, from, now).catch(this.logError);
    }, tickSeconds * 1000);
    this.ticker.unref();
  }

  /** Lets this process's workers look for the jobs just sent now rather than at their next poll. */
  private wake(): void {
    for (const id of this.localWorkers) this.queue.notifyWorker(id);
  }

  /** A scheduled slot: starts the company's discovery unless one is still running (the slot is then skipped). */
  private async startScheduled({ companyId, slot }: ScheduledDiscoveryJob): Promise<void> {
    try {
      const discoveryId = await this.startDiscovery(companyId, null, 'schedule');
      await logScheduledDiscoveryStarted(this.context.db, companyId, discoveryId, slot);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await logSystemEvent(this.context.db, 'warning', 'scheduled_discovery_skipped', `Scheduled discovery of ${slot} skipped: ${message}`);
    }
  }

  /**
   * On PGlite this process is the only one: a discovery still running was cut short when the process stopped, and is
   * marked failed. On PostgreSQL other workers may be running its steps; steps whose worker died are taken over.
   */
  private async recoverInterrupted(): Promise<void> {
    if (this.context.config.databaseUrl) return;
    const running = await this.context.db.query<{ id: number }>("select id from discoveries where status = 'running'");
    for (const discovery of running) {
      await this.context.db.query("update discoveries set status = 'error', end_time = now(), error = $2 where id = $1 and status = 'running'", [discovery.id, interruptedMessage]);
      await deleteSnapshotRows(this.context.db, discovery.id);
      await logSystemEvent(this.context.db, 'warning', 'discovery_interrupted', `Discovery ${discovery.id} was interrupted and marked as failed`);
    }
  }

  /**
   * Steps whose attempt stopped saying it is alive (its process was killed or lost its database) are queued again
   * for any worker; after their last attempt, a fetch ends its connection as failed and a publish fails the discovery.
   */
  async reapStaleSteps(): Promise<number> {
    const { db, adapters } = this.context;
    const taken = await db.transaction(async (transaction) => {
      const stale = await takeStaleSteps(transaction);
      for (const step of stale) {
        const [{ company_id: companyId }] = await transaction.query<{ company_id: number }>('select company_id from discoveries where id = $1', [step.discovery_id]);
        const pace = await loadDiscoverySettings(transaction, companyId, adapters.catalogue);
        if (step.attempt < attemptsPerStep) {
          await requeueStale(transaction, this.queue, step, pace);
        } else if (step.step === publishStep) {
          await transaction.query("update discovery_steps set state = 'error' where discovery_id = $1 and step = $2", [step.discovery_id, step.step]);
          await transaction.query("update discoveries set status = 'error', end_time = now(), error = $2 where id = $1 and status = 'running'", [step.discovery_id, `Publishing failed: ${lostMessage}`]);
        } else {
          await abandonFetch(transaction, step, lostMessage);
          await advance(transaction, this.queue, step.discovery_id, pace);
        }
      }
      return stale;
    });
    for (const step of taken) {
      if (step.step === publishStep && step.attempt >= attemptsPerStep) {
        await deleteSnapshotRows(db, step.discovery_id);
        await logDiscoveryFailed(db, step.discovery_id, `Publishing failed: ${lostMessage}`);
      }
      await logSystemEvent(db, 'warning', 'discovery_step_taken_over', `Step ${step.step} of discovery ${step.discovery_id} lost its worker (attempt ${step.attempt})`);
    }
    if (taken.length) this.wake();
    return taken.length;
  }

  /** Creates a running discovery for the company and queues its first fetches; one runs at a time per company. */
  async startDiscovery(companyId: number, userId: number | null, trigger: 'manual' | 'schedule'): Promise<number> {
    const { db, adapters } = this.context;
    const pace = await loadDiscoverySettings(db, companyId, adapters.catalogue);
    const discoveryId = await db.transaction(async (transaction) => {
      const [created] = await transaction.query<{ id: number }>(
        "insert into discoveries (company_id, status, trigger, started_by) values ($1, 'running', $2, $3) on conflict do nothing returning id",
        [companyId, trigger, userId],
      );
      if (!created) return null;
      const connections = await transaction.query<{ id: number; name: string; adapter: string }>('select id, name, adapter from connections where company_id = $1 and enabled order by id', [companyId]);
      const progress = newProgress(connections);
      begin(progress.stages.fetch);
      await transaction.query('update discoveries set progress = $2 where id = $1', [created.id, JSON.stringify(progress)]);
      await planSteps(transaction, created.id, connections.map((connection) => connection.id));
      await advance(transaction, this.queue, created.id, pace);
      return created.id;
    });
    if (discoveryId === null) throw detailError(409, 'A discovery is already running for this company.', 'discovery_running');
    this.wake();
    // A scheduled start is logged by startScheduled, which knows its slot.
    if (trigger === 'manual') await logDiscoveryStarted(db, companyId, discoveryId, userId);
    return discoveryId;
  }

  /** Remembers a job's work until it ends, so stopping can wait for it. */
  private track(work: Promise<void>): Promise<void> {
    this.inFlight.add(work);
    void work.catch(() => undefined).finally(() => this.inFlight.delete(work));
    return work;
  }

  async stop(): Promise<void> {
    this.scheduler.stop();
    if (this.reaper) clearInterval(this.reaper);
    if (this.ticker) clearInterval(this.ticker);
    await this.queue.stop({ graceful: true, timeout: 10_000, wait: true });
    // pg-boss records a job's end after its work ends without waiting for it: give work still under way (past the
    // graceful wait) and those records time to land before the caller closes the database.
    await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((resolve) => setTimeout(resolve, stopWaitMilliseconds))]);
    await new Promise((resolve) => setTimeout(resolve, jobRecordMilliseconds));
  }
}
