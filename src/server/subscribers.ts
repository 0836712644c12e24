import { logSystemEvent } from './activities/activityLog.js';
import { activityRetentionQueueWorkers } from './activities/activityRetention.js';
import { warmDashboards } from './dashboards/warmDashboards.js';
import type { PublishedSubscriber } from './jobs/published.js';
import type { QueueWorker } from './jobs/queueWorkers.js';
import { reportQueueWorkers } from './reports/reportJobs.js';
import { actionQueueWorkers, runDiscoveryActions } from './actions/actionJobs.js';
import { feedDownloadQueueWorkers } from './avm/feedSchedule.js';
import { accountMailQueueWorkers } from './identity/accountMail.js';
import { securityRescoreQueueWorkers } from './security/rescore.js';

/** What runs after every published snapshot, each as a job of its own (src/server/jobs/published.ts). */
export const publishedSubscribers: PublishedSubscriber[] = [
  // The company's dashboards computed ahead, so the first one opened after the publish is already answered.
  { name: 'dashboards', handle: (context, event) => warmDashboards(context, event.companyId) },
  // Actions triggered by discoveries, once per snapshot.
  { name: 'actions', handle: runDiscoveryActions },
  // The system log (and the company's syslog receiver) hears of every discovery that completed.
  { name: 'activity', handle: (context, event) => logSystemEvent(context.db, 'info', 'discovery_published', `Discovery ${event.discoveryId} completed and was published`, { company_id: event.companyId, discovery_id: event.discoveryId }) },
];

/**
 * Queues worked beside the discovery steps: report runs, deliveries and schedules; action runs and schedules; feed
 * downloads; the hourly pruning of the activity and system logs; account notices by e-mail; security scores of the
 * latest snapshot again after a policy changed.
 */
export const queueWorkers: QueueWorker[] = [...reportQueueWorkers, ...actionQueueWorkers, ...feedDownloadQueueWorkers, ...activityRetentionQueueWorkers, ...accountMailQueueWorkers, ...securityRescoreQueueWorkers];
