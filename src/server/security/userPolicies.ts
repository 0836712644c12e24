import type { Queryable } from '../db/database.js';
import { refreshSnapshotIndex, snapshotIndexedFields } from '../inventory/snapshotIndex.js';
import { queryCondition, relationOptions } from '../inventory/search.js';
import { guarded } from './guardedCondition.js';
import type { Policy } from './securityStore.js';

// Policies on the user inventory (a leaver whose account still signs in), evaluated in the publish's transaction
// after the devices' scoring, over the users' index, which the publish has already built. Each policy is compiled
// by the query compiler as the user inventory list runs it, into one statement that inserts the users matching
// `NOT (<condition>)` into `security_policy_failures`; its result row (users checked, failed) goes beside the device
// policies' with `entity = 'user'`. A user policy weighs in no score: what it gives is the list of users that fail
// it, written into their documents (`FailedPolicies`, by name) so that the user inventory filters, shows and exports
// them like any field, and the rows of those users in the index are re-derived (a few users, not all of them).

/** The users' SQL name (the user inventory names a user by `Username`) and display name, from a snapshot_assets row `a`. */
export const userNamesSql = "a.fields->'Username'->>0 as username, a.fields->'DisplayName'->>0 as display_name";

/**
 * Evaluates the enabled user policies over the snapshot's users: their failures, results and the failing users'
 * `FailedPolicies`. A policy that fails or times out is recorded with its reason, as a device policy is.
 */
export async function evaluateUserPolicies(db: Queryable, companyId: number, discoveryId: number, policies: Policy[], timeoutMs: number): Promise<void> {
  if (!policies.length) return;
  const indexed = await snapshotIndexedFields(db, discoveryId, 'user');
  const relations = await relationOptions(db, companyId, discoveryId, 'user');
  const [{ users }] = await db.query<{ users: number }>("select count(*)::int as users from snapshot_assets where discovery_id = $1 and entity = 'user'", [discoveryId]);
  for (const policy of policies) {
    const started = performance.now();
    let failed = 0;
    const error = await guarded(db, timeoutMs, async () => {
      // No one asks: the condition expands the saved queries its owner (who last saved it) may read.
      const condition = await queryCondition(db, { companyId, userId: policy.ownerId }, `NOT (${policy.query})`, 3, indexed, relations);
      [{ failed }] = await db.query<{ failed: number }>(
        `with failing as (
           insert into security_policy_failures (discovery_id, policy_id, asset_id)
           select $1, $${3 + condition.params.length}, asset_id from ${condition.table} where discovery_id = $1 and entity = $2 and ${condition.sql}
           returning 1)
         select count(*)::int as failed from failing`,
        [discoveryId, 'user', ...condition.params, policy.id],
      );
    });
    await db.query(
      `insert into security_policy_results (discovery_id, policy_id, name, query, weight, profile_ids, applicable, failed, error, duration_ms, entity)
       values ($1, $2, $3, $4, $5, '{}', $6, $7, $8, $9, 'user')`,
      [discoveryId, policy.id, policy.name, policy.query, policy.weight, error ? 0 : users, error ? 0 : failed, error, Math.round(performance.now() - started)],
    );
  }
  const failing = await db.query<{ asset_id: string }>(
    `update snapshot_assets a set fields = a.fields || jsonb_build_object('FailedPolicies', failed.names)
       from (select f.asset_id, jsonb_agg(r.name order by r.name) as names
               from security_policy_failures f join security_policy_results r on r.discovery_id = f.discovery_id and r.policy_id = f.policy_id and r.entity = 'user'
              where f.discovery_id = $1 group by f.asset_id) failed
      where a.discovery_id = $1 and a.entity = 'user' and a.asset_id = failed.asset_id
      returning a.asset_id`,
    [discoveryId],
  );
  await refreshSnapshotIndex(db, discoveryId, 'user', failing.map((row) => row.asset_id));
}

/**
 * Takes the failed user policies off the snapshot's users (before the snapshot is scored again): their documents and
 * index rows lose `FailedPolicies`.
 */
export async function clearUserFailures(db: Queryable, discoveryId: number): Promise<void> {
  const cleared = await db.query<{ asset_id: string }>(
    "update snapshot_assets set fields = fields - 'FailedPolicies' where discovery_id = $1 and entity = 'user' and fields ? 'FailedPolicies' returning asset_id", [discoveryId],
  );
  await refreshSnapshotIndex(db, discoveryId, 'user', cleared.map((row) => row.asset_id));
}
