import { installPolicy } from '../outbound/policy.js';
import { Cron } from 'croner';
import { logSystemEvent } from '../activities/activityLog.js';
import type { JobSend, QueueWorker } from '../jobs/queueWorkers.js';
import { scheduleProblem } from '../jobs/scheduler.js';
import type { CoreContext } from '../context.js';
import { downloadFeeds, loadFeedDownloads } from './feedDownloads.js';

export const feedDownloadQueue = 'avm-feed-download';
export type FeedDownloadJob = { slot: string };

// Like the discovery schedule: every process ticks, and a due slot goes to the queue as a pg-boss singleton, so one
// download runs per slot however many processes see it. The job runs in whichever process works the queue.
const singletonSeconds = 6 * 60 * 60;

/** Sends the download slot that fell due between two ticks; answers whether this process sent it. */
export async function sendDueFeedDownload(context: CoreContext, send: JobSend, since: Date, now: Date): Promise<boolean> {
  const settings = await loadFeedDownloads(context.db);
  if (!settings.enabled || scheduleProblem(settings)) return false;
  const slot = new Cron(settings.cron, { timezone: settings.timezone, paused: true }).nextRun(since);
  if (!slot || slot > now) return false;
  const data: FeedDownloadJob = { slot: slot.toISOString() };
  return Boolean(await send(feedDownloadQueue, data, { singletonKey: data.slot, singletonSeconds, retryLimit: 0 }));
}

/** Queues a download now (the console's "Download now"); a second ask within the same minute is the same job. */
export async function downloadFeedsNow(send: JobSend, now = new Date()): Promise<boolean> {
  const slot = `now:${now.toISOString().slice(0, 16)}`;
  return Boolean(await send(feedDownloadQueue, { slot } satisfies FeedDownloadJob, { singletonKey: slot, singletonSeconds: 60, retryLimit: 0 }));
}

/** The job: downloads every configured feed, logging what failed (each failure is also on its enrichment). */
async function runFeedDownload(context: CoreContext, { slot }: FeedDownloadJob): Promise<void> {
  // The feeds are the install's, downloaded for every company: the provider's own policy.
  const outcomes = await downloadFeeds(context.db, await loadFeedDownloads(context.db), installPolicy(context.config));
  const failed = outcomes.filter((outcome) => outcome.outcome === 'failed');
  if (failed.length) await logSystemEvent(context.db, 'warning', 'feed_download_failed', `Feed download ${slot}: ${failed.map((outcome) => `${outcome.url}: ${outcome.detail}`).join('; ')}`.slice(0, 2000));
}

export const feedDownloadQueueWorkers: QueueWorker[] = [
  { queue: feedDownloadQueue, handle: (context, data) => runFeedDownload(context, data as FeedDownloadJob), tick: async (context, send, since, now) => void (await sendDueFeedDownload(context, send, since, now)) },
];
