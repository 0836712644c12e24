import { logSystemEvent } from '../activities/activityLog.js';
import type { Queryable } from '../db/database.js';

// A system-log write that fails (the database restarting) must not undo or fail the discovery it reports on.
const quietly = (written: Promise<void>) => written.catch(() => undefined);

/** A discovery started by hand (or by the demo loader): the system log and the company's syslog receiver hear of it. */
export function logDiscoveryStarted(db: Queryable, companyId: number, discoveryId: number, userId: number | null): Promise<void> {
  return quietly(logSystemEvent(db, 'info', 'discovery_started', `Discovery ${discoveryId} started`, {
    company_id: companyId, discovery_id: discoveryId, trigger: 'manual', ...(userId !== null && { user_id: userId }),
  }));
}

/** The scheduler's event: a company's scheduled slot started its discovery. */
export function logScheduledDiscoveryStarted(db: Queryable, companyId: number, discoveryId: number, slot: string): Promise<void> {
  return quietly(logSystemEvent(db, 'info', 'scheduled_discovery_started', `Scheduled discovery ${discoveryId} of ${slot} started`, {
    company_id: companyId, discovery_id: discoveryId, trigger: 'schedule', slot,
  }));
}

/** A discovery that ended as failed, with the reason its page shows. */
export async function logDiscoveryFailed(db: Queryable, discoveryId: number, reason: string): Promise<void> {
  const [discovery] = await db.query<{ company_id: number }>('select company_id from discoveries where id = $1', [discoveryId]).catch(() => []);
  await quietly(logSystemEvent(db, 'error', 'discovery_failed', `Discovery ${discoveryId} failed: ${reason}`.slice(0, 2000), {
    ...(discovery && { company_id: discovery.company_id }), discovery_id: discoveryId,
  }));
}
