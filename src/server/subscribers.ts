import { warmDashboards } from './dashboards/warmDashboards.js';
import type { PublishedSubscriber } from './jobs/published.js';
import type { QueueWorker } from './jobs/queueWorkers.js';
import { reportQueueWorkers } from './reports/reportJobs.js';
import { actionQueueWorkers, runDiscoveryActions } from './actions/actionJobs.js';
import { feedDownloadQueueWorkers } from './avm/feedSchedule.js';

/** What runs after every published snapshot, each as a job of its own (src/server/jobs/published.ts). */
export const publishedSubscribers: PublishedSubscriber[] = [
  // The company's dashboards computed ahead, so the first one opened after the publish is already answered.
  { name: 'dashboards', handle: (context, event) => warmDashboards(context, event.companyId) },
  // Actions triggered by discoveries, once per snapshot.
  { name: 'actions', handle: runDiscoveryActions },
];

/** Queues worked beside the discovery steps: report runs, deliveries and schedules; action runs and schedules; feed downloads. */
export const queueWorkers: QueueWorker[] = [...reportQueueWorkers, ...actionQueueWorkers, ...feedDownloadQueueWorkers];
