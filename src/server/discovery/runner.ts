import type PgBoss from 'pg-boss';
import { logSystemEvent } from '../activities/activityLog.js';
import type { CoreContext } from '../context.js';
import { Conflict, detailBody } from '../errors.js';
import type { JobBus } from '../jobs/jobBus.js';
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

// How often each working process looks for steps whose worker died.
const reapSeconds = 10;

/**
 * Starts discoveries and runs their steps from queues on the job bus. The API process works the queues too; on
 * PostgreSQL more `npm run worker` processes share them, each fetch and the publish going to whichever process is
 * free, and a step whose process dies going to another.
 */
export class DiscoveryRunner {
  private readonly queue: PgBoss;
  /** Starts discoveries on each company's schedule (every process ticks; pg-boss singletons keep one per slot). */
  readonly scheduler: DiscoveryScheduler;

  /** Registers the discovery's queues (steps, scheduled starts, what follows a publish) with the job bus. */
  constructor(
    private readonly context: CoreContext,
    private readonly jobs: JobBus,
    subscribers: PublishedSubscriber[] = [],
  ) {
    this.queue = jobs.boss;
    this.scheduler = new DiscoveryScheduler(context.db, this.queue, jobs.logError);
    jobs.beforeWorking(() => this.recoverInterrupted(), { always: true });
    const announce: Announce = (transaction, event) => announcePublished(transaction, this.queue, subscribers, event);
    const stepWork = (run: (job: StepJob) => Promise<void>) => async (data: unknown) => {
      await run(data as StepJob);
      this.jobs.wake();
    };
    jobs.work(fetchStepQueue, stepWork((job) => runFetchStep(this.context, this.queue, job)), { lanes: context.config.fetchLanes });
    jobs.work(publishStepQueue, stepWork((job) => runPublishStep(this.context, this.queue, job, announce)));
    for (const subscriber of subscribers) jobs.work(publishedQueueOf(subscriber), (data) => subscriber.handle(this.context, data as SnapshotPublished));
    jobs.work(scheduledDiscoveryQueue, (data) => this.startScheduled(data as ScheduledDiscoveryJob), { pollingIntervalSeconds: 2 });
    jobs.every(reapSeconds, async () => void (await this.reapStaleSteps()));
    jobs.beforeWorking(async () => this.scheduler.start(), { always: true });
  }

  /** Stops the schedule's timer (the job bus stops the queues). */
  stop(): void {
    this.scheduler.stop();
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
    if (taken.length) this.jobs.wake();
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
    if (discoveryId === null) throw new Conflict(detailBody('A discovery is already running for this company.', 'discovery_running'));
    this.jobs.wake();
    // A scheduled start is logged by startScheduled, which knows its slot.
    if (trigger === 'manual') await logDiscoveryStarted(db, companyId, discoveryId, userId);
    return discoveryId;
  }
}
