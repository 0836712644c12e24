import type PgBoss from 'pg-boss';
import { logSystemEvent } from '../activities/activityLog.js';
import type { CoreContext } from '../context.js';
import { detailError } from '../http/errors.js';
import { lockKeys, withAdvisoryLock } from '../db/advisoryLock.js';
import { createJobQueue, discoveryQueue } from '../jobs/queue.js';
import { DiscoveryScheduler, scheduledDiscoveryQueue, type ScheduledDiscoveryJob } from '../jobs/scheduler.js';
import { runDiscovery } from './pipeline.js';
import { deleteSnapshotRows } from './snapshotWriter.js';
import { loadDiscoverySettings } from './settings.js';

const interruptedMessage = 'Interrupted: the process running this discovery stopped before it finished. The previous snapshot stays in use.';

/**
 * Starts discoveries and runs them from the pg-boss queue. The API process works the queue too; on PostgreSQL
 * more `npm run worker` processes can share it.
 */
export class DiscoveryRunner {
  private readonly queue: PgBoss;
  /** Starts discoveries on each company's schedule (every process ticks; pg-boss singletons keep one per slot). */
  readonly scheduler: DiscoveryScheduler;

  constructor(private readonly context: CoreContext) {
    this.queue = createJobQueue(context.db, context.config.databaseUrl);
    const logError = (error: Error) => void logSystemEvent(context.db, 'error', 'job_queue_error', error.message).catch(() => undefined);
    this.queue.on('error', logError);
    this.scheduler = new DiscoveryScheduler(context.db, this.queue, logError);
  }

  /** Starts the queue, marks discoveries a dead process left running as failed, and (when asked) works the queue. */
  async start(options: { work: boolean }): Promise<void> {
    // pg-boss installs its schema and creates queues on first start; two processes doing that at once on PostgreSQL
    // deadlock, so they take turns.
    await withAdvisoryLock(this.context.db, lockKeys.jobQueueInstall, async () => {
      await this.queue.start();
      await this.queue.createQueue(discoveryQueue);
      await this.queue.createQueue(scheduledDiscoveryQueue);
    });
    await this.recoverInterrupted();
    if (options.work) {
      await this.queue.work<{ discoveryId: number }>(discoveryQueue, { pollingIntervalSeconds: 1, batchSize: 1 }, async ([job]) => {
        const [discovery] = await this.context.db.query<{ company_id: number }>('select company_id from discoveries where id = $1', [job.data.discoveryId]);
        if (!discovery) return;
        await runDiscovery(this.context, job.data.discoveryId, await loadDiscoverySettings(this.context.db, discovery.company_id, this.context.adapters.catalogue));
      });
      await this.queue.work<ScheduledDiscoveryJob>(scheduledDiscoveryQueue, { pollingIntervalSeconds: 2, batchSize: 1 }, async ([job]) => {
        await this.startScheduled(job.data);
      });
    }
    this.scheduler.start();
  }

  /** A scheduled slot: starts the company's discovery unless one is still running (the slot is then skipped). */
  private async startScheduled({ companyId, slot }: ScheduledDiscoveryJob): Promise<void> {
    try {
      await this.startDiscovery(companyId, null, 'schedule');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await logSystemEvent(this.context.db, 'warning', 'scheduled_discovery_skipped', `Scheduled discovery of ${slot} skipped: ${message}`);
    }
  }

  private async recoverInterrupted(): Promise<void> {
    const running = await this.context.db.query<{ id: number; job_id: string | null }>("select id, job_id from discoveries where status = 'running'");
    for (const discovery of running) {
      // On PGlite this process is the only one; on PostgreSQL another worker may still be running the job.
      const job = this.context.config.databaseUrl && discovery.job_id ? await this.queue.getJobById(discoveryQueue, discovery.job_id) : null;
      if (job && ['created', 'retry', 'active'].includes(job.state)) continue;
      await this.context.db.query("update discoveries set status = 'error', end_time = now(), error = $2 where id = $1 and status = 'running'", [discovery.id, interruptedMessage]);
      await deleteSnapshotRows(this.context.db, discovery.id);
      await logSystemEvent(this.context.db, 'warning', 'discovery_interrupted', `Discovery ${discovery.id} was interrupted and marked as failed`);
    }
  }

  /** Creates a running discovery for the company and queues it; one runs at a time per company. */
  async startDiscovery(companyId: number, userId: number | null, trigger: 'manual' | 'schedule'): Promise<number> {
    const [created] = await this.context.db.query<{ id: number }>(
      "insert into discoveries (company_id, status, trigger, started_by) values ($1, 'running', $2, $3) on conflict do nothing returning id",
      [companyId, trigger, userId],
    );
    if (!created) throw detailError(409, 'A discovery is already running for this company.', 'discovery_running');
    const jobId = await this.queue.send(discoveryQueue, { discoveryId: created.id }, { retryLimit: 0, expireInSeconds: 4 * 60 * 60 });
    await this.context.db.query('update discoveries set job_id = $2 where id = $1', [created.id, jobId]);
    return created.id;
  }

  async stop(): Promise<void> {
    this.scheduler.stop();
    await this.queue.stop({ graceful: true, timeout: 10_000, wait: true });
  }
}
