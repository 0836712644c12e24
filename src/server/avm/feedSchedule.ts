import { Cron } from 'croner';
import type PgBoss from 'pg-boss';
import { logSystemEvent } from '../activities/activityLog.js';
import type { Database } from '../db/database.js';
import { scheduleProblem } from '../jobs/scheduler.js';
import { downloadFeeds, loadFeedDownloads } from './feedDownloads.js';

export const feedDownloadQueue = 'avm-feed-download';
export type FeedDownloadJob = { slot: string };

// Like the discovery schedule: every process ticks, and a due slot goes to the queue as a pg-boss singleton, so one
// download runs per slot however many processes see it. The job runs in whichever process works the queue.
const tickMilliseconds = 15_000;
const singletonSeconds = 6 * 60 * 60;

export class FeedDownloadScheduler {
  private timer: NodeJS.Timeout | null = null;
  private lastTick: Date;

  constructor(
    private readonly db: Database,
    private readonly queue: PgBoss,
    private readonly onError: (error: Error) => void,
    startedAt = new Date(),
  ) {
    this.lastTick = new Date(startedAt.getTime() - 2 * tickMilliseconds);
  }

  start(): void {
    this.timer = setInterval(() => void this.tick().catch(this.onError), tickMilliseconds);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Sends the download slot that fell due since the previous tick; answers whether this process sent it. */
  async tick(now = new Date(), since = this.lastTick): Promise<boolean> {
    this.lastTick = now;
    const settings = await loadFeedDownloads(this.db);
    if (!settings.enabled || scheduleProblem(settings)) return false;
    const slot = new Cron(settings.cron, { timezone: settings.timezone, paused: true }).nextRun(since);
    if (!slot || slot > now) return false;
    const data: FeedDownloadJob = { slot: slot.toISOString() };
    return Boolean(await this.queue.send(feedDownloadQueue, data, { singletonKey: data.slot, singletonSeconds, retryLimit: 0 }));
  }

  /** Queues a download now (the console's "Download now"); a second ask within the same minute is the same job. */
  async downloadNow(now = new Date()): Promise<boolean> {
    const slot = `now:${now.toISOString().slice(0, 16)}`;
    return Boolean(await this.queue.send(feedDownloadQueue, { slot } satisfies FeedDownloadJob, { singletonKey: slot, singletonSeconds: 60, retryLimit: 0 }));
  }

  /** The job: downloads every configured feed, logging what failed (each failure is also on its enrichment). */
  async run({ slot }: FeedDownloadJob): Promise<void> {
    const outcomes = await downloadFeeds(this.db, await loadFeedDownloads(this.db));
    const failed = outcomes.filter((outcome) => outcome.outcome === 'failed');
    if (failed.length) await logSystemEvent(this.db, 'warning', 'feed_download_failed', `Feed download ${slot}: ${failed.map((outcome) => `${outcome.url}: ${outcome.detail}`).join('; ')}`.slice(0, 2000));
  }
}
