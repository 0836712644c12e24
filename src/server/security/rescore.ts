import type { Database } from '../db/database.js';
import { refreshIndexedColumns } from '../inventory/snapshotIndex.js';
import type { JobSend, QueueWorker } from '../jobs/queueWorkers.js';
import { defaultConditionTimeoutMs, scoreSnapshot } from './scoring.js';
import { clearUserFailures } from './userPolicies.js';

// Enabling or changing a policy (on devices or users, or a profile a policy weighs by) scores the company's latest
// published snapshot again, as a job of its own: the request answers at once, and nobody waits for the next
// discovery to see the effect.

export const securityRescoreQueue = 'security-rescore';
// pg_advisory_xact_lock(class, company): one rescoring of a company at a time, in every process.
const rescoreLockClass = 727_100_036;
const scoreTables = ['security_policy_results', 'security_policy_failures', 'security_device_scores', 'security_profile_members', 'security_scores'];

/**
 * Scores the company's newest published snapshot again from its current profiles and enabled policies: the old
 * scores of that snapshot go, in the same transaction, so readers see the old scores or the new ones, never neither.
 * Answers the snapshot scored, or null when the company has none.
 */
export async function rescoreLatestSnapshot(db: Database, companyId: number, timeoutMs = defaultConditionTimeoutMs): Promise<number | null> {
  return db.transaction(async (connection) => {
    await connection.query('select pg_advisory_xact_lock($1, $2)', [rescoreLockClass, companyId]);
    const [latest] = await connection.query<{ id: number | null }>("select max(id) as id from discoveries where company_id = $1 and status = 'done'", [companyId]);
    if (latest?.id === null || latest?.id === undefined) return null;
    const discoveryId = latest.id;
    for (const table of scoreTables) await connection.query(`delete from ${table} where discovery_id = $1`, [discoveryId]);
    // A device no policy applies to any more keeps no score.
    await connection.query("update snapshot_assets set fields = fields - 'SecurityScore' - 'FailedPolicies' where discovery_id = $1 and entity = 'device' and (fields ? 'SecurityScore' or fields ? 'FailedPolicies')", [discoveryId]);
    // Nor does a user that fails no user policy any more list one.
    await clearUserFailures(connection, discoveryId);
    await scoreSnapshot(connection, companyId, discoveryId, timeoutMs);
    // The index columns follow the documents (scoring refreshes them only for the devices it scored).
    await refreshIndexedColumns(connection, discoveryId, 'device', ['SecurityScore', 'FailedPolicies']);
    return discoveryId;
  });
}

/** Asks for the company's latest snapshot to be scored again; never fails the change that asked. */
export async function requestRescore(send: JobSend, companyId: number, log: (error: unknown) => void): Promise<void> {
  await send(securityRescoreQueue, { companyId }, { retryLimit: 2, retryDelay: 5 }).catch(log);
}

export const securityRescoreQueueWorkers: QueueWorker[] = [
  { queue: securityRescoreQueue, handle: async (context, data) => void (await rescoreLatestSnapshot(context.db, (data as { companyId: number }).companyId)) },
];
