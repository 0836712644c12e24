import type { Queryable } from '../db/database.js';
import { latestScoredSnapshot } from './securityStore.js';
import { userNamesSql } from './userPolicies.js';

// The security manager's overview, read from what the publishes stored: no policy is evaluated here, so the page
// costs a handful of indexed reads whatever the fleet's size.

const trendLength = 60;
const worstShown = 10;

const rounded = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);

/** The company's score in each scored snapshot, oldest first (the newest `trendLength`). */
async function companyTrend(db: Queryable, companyId: number, profileId: number) {
  const rows = await db.query<{ index_id: number; start_time: Date; score: number | null; devices: number }>(
    `select * from (select s.discovery_id as index_id, d.start_time, s.score, s.devices from security_scores s join discoveries d on d.id = s.discovery_id
       where s.company_id = $1 and s.profile_id = $2 and d.status = 'done' order by s.discovery_id desc limit ${trendLength}) as newest order by index_id`,
    [companyId, profileId],
  );
  return rows.map((row) => ({ ...row, score: rounded(row.score) }));
}

export async function securityOverview(db: Queryable, companyId: number) {
  const snapshot = await latestScoredSnapshot(db, companyId);
  if (snapshot === null) return { index_id: null, score: null, devices: 0, trend: [], worst_profiles: [], most_failed_policies: [], worst_devices: [], failing_users: [] };
  const [company] = await db.query<{ score: number | null; devices: number }>('select score, devices from security_scores where discovery_id = $1 and profile_id = 0', [snapshot]);
  const worstProfiles = await db.query<{ id: number; name: string; score: number | null; devices: number; error: string | null }>(
    `select s.profile_id as id, r.document->>'name' as name, s.score, s.devices, s.error from security_scores s join resources r on r.id = s.profile_id
      where s.discovery_id = $1 and s.profile_id <> 0 order by s.score nulls last, s.profile_id limit ${worstShown}`,
    [snapshot],
  );
  const mostFailed = await db.query<{ id: number; name: string; inventory: string; failed: number; applicable: number; error: string | null; weight: number }>(
    `select policy_id as id, name, entity as inventory, failed, applicable, error, weight from security_policy_results where discovery_id = $1
      order by error is null, failed desc, weight desc, policy_id limit ${worstShown}`,
    [snapshot],
  );
  const worstDevices = await db.query<{ asset_id: string; hostname: string | null; score: number; failed: number }>(
    `select s.asset_id, a.fields->'Hostname'->>0 as hostname, s.score, cardinality(s.failed) as failed
       from (select asset_id, score, failed from security_device_scores where discovery_id = $1 order by score, asset_id limit ${worstShown}) s
       join snapshot_assets a on a.discovery_id = $1 and a.entity = 'device' and a.asset_id = s.asset_id order by s.score, s.asset_id`,
    [snapshot],
  );
  // The users that fail the most user policies (a leaver whose account is still enabled), with their names.
  const failingUsers = await db.query<{ asset_id: string; username: string | null; display_name: string | null; failed: number; policies: string[] }>(
    `select f.asset_id, ${userNamesSql}, f.failed, f.policies
       from (select f.asset_id, count(*)::int as failed, array_agg(r.name order by r.name) as policies
               from security_policy_failures f join security_policy_results r on r.discovery_id = f.discovery_id and r.policy_id = f.policy_id and r.entity = 'user'
              where f.discovery_id = $1 group by f.asset_id order by count(*) desc, f.asset_id limit ${worstShown}) f
       join snapshot_assets a on a.discovery_id = $1 and a.entity = 'user' and a.asset_id = f.asset_id order by f.failed desc, f.asset_id`,
    [snapshot],
  );
  return {
    index_id: snapshot, score: rounded(company?.score ?? null), devices: company?.devices ?? 0, trend: await companyTrend(db, companyId, 0),
    worst_profiles: worstProfiles.map((row) => ({ ...row, score: rounded(row.score) })), most_failed_policies: mostFailed, worst_devices: worstDevices, failing_users: failingUsers,
  };
}

/**
 * A profile across the scored snapshots: its size and score in each (kept after older snapshots are pruned), and the
 * devices that joined and left it since the snapshot before, where both snapshots still hold their rows.
 */
export async function profileHistory(db: Queryable, companyId: number, profileId: number) {
  const trend = await companyTrend(db, companyId, profileId);
  const changes = await db.query<{ index_id: number; added: number; removed: number }>(
    `with kept as (select distinct discovery_id from security_profile_members m join discoveries d on d.id = m.discovery_id where d.company_id = $1 and d.status = 'done'),
          pairs as (select s.index_id, lag(s.index_id) over (order by s.index_id) as previous from unnest($3::int[]) as s(index_id))
     select p.index_id,
            (select count(*)::int from security_profile_members m where m.discovery_id = p.index_id and m.profile_id = $2
               and not exists (select 1 from security_profile_members o where o.discovery_id = p.previous and o.profile_id = $2 and o.asset_id = m.asset_id)) as added,
            (select count(*)::int from security_profile_members o where o.discovery_id = p.previous and o.profile_id = $2
               and not exists (select 1 from security_profile_members m where m.discovery_id = p.index_id and m.profile_id = $2 and m.asset_id = o.asset_id)) as removed
       from pairs p where p.previous in (select discovery_id from kept) and p.index_id in (select discovery_id from kept)`,
    [companyId, profileId, trend.map((row) => row.index_id)],
  );
  return trend.map((row) => {
    const change = changes.find((candidate) => candidate.index_id === row.index_id);
    return { ...row, added: change?.added ?? null, removed: change?.removed ?? null };
  });
}
