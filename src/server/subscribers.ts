import { logSystemEvent } from './activities/activityLog.js';
import { warmDashboards } from './dashboards/warmDashboards.js';
import type { PublishedSubscriber } from './jobs/published.js';

/** What runs after every published snapshot, each as a job of its own (src/server/jobs/published.ts). */
export const publishedSubscribers: PublishedSubscriber[] = [
  // The company's dashboards computed ahead, so the first one opened after the publish is already answered.
  { name: 'dashboards', handle: (context, event) => warmDashboards(context, event.companyId) },
  // The system log (and the company's syslog receiver) hears of every discovery that completed.
  { name: 'activity', handle: (context, event) => logSystemEvent(context.db, 'info', 'discovery_published', `Discovery ${event.discoveryId} completed and was published`, { company_id: event.companyId, discovery_id: event.discoveryId }) },
];
