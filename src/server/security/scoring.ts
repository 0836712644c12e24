import { parseQuery } from '../../core/query/index.js';
import type { Queryable } from '../db/database.js';
import { withoutJit } from '../db/jit.js';
import { refreshIndexedColumns, snapshotIndexedFields, writeTemporaryIndexRows } from '../inventory/snapshotIndex.js';
import { queryCondition, relationOptions } from '../inventory/search.js';
import { expandSavedQueries } from '../query/savedQueries.js';
import { loadSavedQueryText } from '../query/savedQueryStore.js';
import { fieldsOf } from './conditions.js';
import { guarded } from './guardedCondition.js';
import { loadEnabledPolicies, loadProfiles, type Policy, type Profile } from './securityStore.js';
import { evaluateUserPolicies } from './userPolicies.js';

// Scoring a snapshot, in the publish's transaction (pipeline.ts), so readers never see a snapshot without its scores:
// after the index of every inventory but the devices' is built and before the devices' is, so each device's index
// row is written once, score included (rewriting 100k wide index rows and their ordering indexes afterwards cost more
// than all the policies). Every profile and policy is compiled by the query compiler, exactly as the inventory list
// would run it, into one set-based statement over the snapshot's devices (their typed rows, with the columns the
// conditions read): a profile inserts its members, a policy the devices it applies to that match `NOT (<condition>)`.
// One more statement turns failures into scores:
//
//   weight(p, d) = policy weight × criticality, where criticality is the highest criticality among the profiles of p
//                  that hold d (a policy for every device: the highest among all profiles holding d; 1 if none)
//   score(d)     = 100 × (Σ weight of the policies d passed) / (Σ weight of the policies that apply to d), rounded
//   profile      = average score of its scored devices
//   company      = average device score weighted by each device's criticality
//
// The scores are written into the devices' documents (`SecurityScore`, `FailedPolicies`), from which the devices'
// index columns are derived, so queries, columns, exports and widgets read them like any field.

/** How long one profile or policy may run at a publish before it is given up for that snapshot. */
export const defaultConditionTimeoutMs = 60_000;

export const securityFormula =
  'score = 100 × Σ weight of passed policies ÷ Σ weight of applicable policies; weight = policy weight (or its severity\'s: critical 10, high 6, medium 3, low 1) × the highest criticality among the policy\'s profiles holding the device (a policy for every device: among all its profiles; 1 if none). Profile score: average of its devices; company score: device scores averaged by criticality. Policies on users count in no score: they list the users that fail them.';

/** Compiles a profile's or policy's condition for the user whose saved queries it may expand (its owner). */
type Compile = (text: string, ownerId: number | null) => Promise<{ sql: string; params: unknown[]; table: string }>;

// The rows being scored live in temporary tables of the publish's transaction (no WAL; analyzed, so the planner
// knows their size, which it cannot for rows written in the same transaction): `scoring_devices` the devices' typed
// rows (when the publish has not written their index yet), `scoring_members` what the profiles matched (keyed, so a
// policy's profile filter is a lookup), `scoring_failures` what the policies failed, `scoring_scores` each device's
// score. The members and scores then go into the kept tables in one statement each.
const temporaryTables = ['scoring_members (profile_id integer not null, asset_id text not null, primary key (profile_id, asset_id))', 'scoring_failures (policy_id integer not null, asset_id text not null)'];

/** Inserts each profile's devices; answers the profiles that could not be evaluated, with why. */
async function writeMembers(db: Queryable, discoveryId: number, profiles: Profile[], compile: Compile, timeoutMs: number): Promise<Map<number, string>> {
  const errors = new Map<number, string>();
  for (const profile of profiles) {
    const error = await guarded(db, timeoutMs, async () => {
      const condition = await compile(profile.query, profile.ownerId);
      await db.query(
        `insert into scoring_members (profile_id, asset_id)
         select $${3 + condition.params.length}, asset_id from ${condition.table} where discovery_id = $1 and entity = $2 and ${condition.sql}`,
        [discoveryId, 'device', ...condition.params, profile.id],
      );
    });
    if (error) errors.set(profile.id, error);
  }
  await db.exec('analyze scoring_members');
  await db.query('insert into security_profile_members (discovery_id, profile_id, asset_id) select $1, profile_id, asset_id from scoring_members order by profile_id, asset_id', [discoveryId]);
  return errors;
}

/** Evaluates each policy into its failures and its result row; answers the policies evaluated. */
async function writeFailures(db: Queryable, discoveryId: number, devices: number, policies: Policy[], compile: Compile, timeoutMs: number): Promise<Policy[]> {
  const evaluated: Policy[] = [];
  for (const policy of policies) {
    const scoped = policy.profile_ids.length > 0;
    const started = performance.now();
    let applicable = 0;
    let failed = 0;
    const error = await guarded(db, timeoutMs, async () => {
      // The devices that fail are those the compiler's own NOT of the condition matches.
      const condition = await compile(`NOT (${policy.query})`, policy.ownerId);
      const next = 3 + condition.params.length;
      const inProfiles = scoped ? `and asset_id in (select asset_id from scoring_members where profile_id = any($${next + 1}::int[]))` : '';
      [{ failed }] = await db.query<{ failed: number }>(
        `with failing as (
           insert into scoring_failures (policy_id, asset_id)
           select $${next}, asset_id from ${condition.table} where discovery_id = $1 and entity = $2 and ${condition.sql} ${inProfiles}
           returning 1)
         select count(*)::int as failed from failing`,
        [discoveryId, 'device', ...condition.params, policy.id, ...(scoped ? [policy.profile_ids] : [])],
      );
      applicable = scoped
        ? (await db.query<{ count: number }>('select count(distinct asset_id)::int as count from scoring_members where profile_id = any($1::int[])', [policy.profile_ids]))[0].count
        : devices;
    });
    await db.query(
      `insert into security_policy_results (discovery_id, policy_id, name, query, weight, profile_ids, applicable, failed, error, duration_ms)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [discoveryId, policy.id, policy.name, policy.query, policy.weight, policy.profile_ids, error ? 0 : applicable, error ? 0 : failed, error, Math.round(performance.now() - started)],
    );
    if (!error) evaluated.push(policy);
  }
  // Kept per device only (security_device_scores.failed): one row per failure was the publish's largest write.
  await db.exec('analyze scoring_failures');
  return evaluated;
}

/**
 * Turns the failures of the evaluated policies into device scores (formula above), in one statement, with the
 * names of the failed policies (`FailedPolicies`, by name) beside their ids.
 */
async function writeDeviceScores(db: Queryable, discoveryId: number, devicesTable: string, profiles: Profile[], policies: Policy[]): Promise<void> {
  const pairs = policies.flatMap((policy) => policy.profile_ids.map((profileId) => [policy.id, profileId] as const));
  const everyDeviceWeight = policies.filter((policy) => !policy.profile_ids.length).reduce((sum, policy) => sum + policy.weight, 0);
  await db.exec('drop table if exists scoring_scores; create temporary table scoring_scores (asset_id text not null, score integer not null, criticality double precision not null, failed integer[] not null, failed_names jsonb) on commit drop');
  // Every join below reads whole tables of the snapshot: hash joins suit them all, and a nested loop the planner
  // picks on a misjudged row count (a materialized CTE has no statistics) reads one table once per row of the other.
  const [{ nestloop }] = await db.query<{ nestloop: string }>("select current_setting('enable_nestloop') as nestloop, set_config('enable_nestloop', 'off', true)");
  await db.query(
    `with profile as (select * from unnest($2::int[], $3::float8[]) as p(id, criticality)),
          policy as (select * from unnest($4::int[], $5::float8[], $6::bool[], $10::text[]) as q(id, weight, scoped, name)),
          policy_profile as (select * from unnest($7::int[], $8::int[]) as pp(policy_id, profile_id)),
          device_criticality as (
            select m.asset_id, max(p.criticality) as criticality from scoring_members m join profile p on p.id = m.profile_id group by m.asset_id),
          scoped as (
            select m.asset_id, pp.policy_id, max(p.criticality) as criticality
              from scoring_members m join policy_profile pp on pp.profile_id = m.profile_id join profile p on p.id = m.profile_id
             group by m.asset_id, pp.policy_id),
          scoped_total as (select s.asset_id, sum(q.weight * s.criticality) as total from scoped s join policy q on q.id = s.policy_id group by s.asset_id),
          lost as (
            select f.asset_id, sum(q.weight * case when q.scoped then s.criticality else coalesce(dc.criticality, 1) end) as lost,
                   array_agg(f.policy_id order by f.policy_id) as failed, jsonb_agg(q.name order by q.name) as failed_names
              from scoring_failures f join policy q on q.id = f.policy_id
              left join device_criticality dc on dc.asset_id = f.asset_id
              left join scoped s on s.asset_id = f.asset_id and s.policy_id = f.policy_id
             group by f.asset_id),
          totals as (
            select d.asset_id, coalesce(dc.criticality, 1) as criticality, coalesce(dc.criticality, 1) * $9::float8 + coalesce(st.total, 0) as total
              from ${devicesTable} d left join device_criticality dc on dc.asset_id = d.asset_id left join scoped_total st on st.asset_id = d.asset_id
             where d.discovery_id = $1 and d.entity = 'device')
     insert into scoring_scores (asset_id, score, criticality, failed, failed_names)
     select t.asset_id, round(100 * (t.total - coalesce(l.lost, 0)) / t.total)::int, t.criticality, coalesce(l.failed, '{}'), l.failed_names
       from totals t left join lost l on l.asset_id = t.asset_id where t.total > 0`,
    [
      discoveryId, profiles.map((profile) => profile.id), profiles.map((profile) => profile.criticality),
      policies.map((policy) => policy.id), policies.map((policy) => policy.weight), policies.map((policy) => policy.profile_ids.length > 0),
      pairs.map(([policyId]) => policyId), pairs.map(([, profileId]) => profileId), everyDeviceWeight, policies.map((policy) => policy.name),
    ],
  );
  await db.query("select set_config('enable_nestloop', $1, true)", [nestloop]);
  await db.exec('analyze scoring_scores (asset_id)');
  await db.query(
    'insert into security_device_scores (discovery_id, asset_id, score, criticality, failed) select $1, asset_id, score, criticality, failed from scoring_scores order by asset_id',
    [discoveryId],
  );
}

/**
 * Writes the scores into the devices' documents; when the snapshot's device index is already built (a snapshot
 * scored again), into its index columns too. The publish builds the devices' index after this, from the documents.
 */
async function writeScoreFields(db: Queryable, discoveryId: number, deviceIndexBuilt: boolean): Promise<void> {
  await db.query(
    `update snapshot_assets a
        set fields = case when s.failed_names is null then (a.fields - 'FailedPolicies') || jsonb_build_object('SecurityScore', jsonb_build_array(s.score))
                     else a.fields || jsonb_build_object('SecurityScore', jsonb_build_array(s.score), 'FailedPolicies', s.failed_names) end
       from scoring_scores s
      where a.discovery_id = $1 and a.entity = 'device' and a.asset_id = s.asset_id`,
    [discoveryId],
  );
  if (deviceIndexBuilt) await refreshIndexedColumns(db, discoveryId, 'device', ['SecurityScore', 'FailedPolicies']);
}

/** The company's and each profile's score of the snapshot (the trend). */
async function writeSummaryScores(db: Queryable, companyId: number, discoveryId: number, profiles: Profile[], profileErrors: Map<number, string>): Promise<void> {
  await db.query(
    `insert into security_scores (discovery_id, company_id, profile_id, score, devices)
     select $1, $2, 0, sum(score * criticality) / nullif(sum(criticality), 0), count(*)::int from security_device_scores where discovery_id = $1`,
    [discoveryId, companyId],
  );
  await db.query(
    `insert into security_scores (discovery_id, company_id, profile_id, score, devices, error)
     select $1, $2, p.id, avg(s.score), count(m.asset_id)::int, nullif(p.error, '')
       from unnest($3::int[], $4::text[]) as p(id, error)
       left join security_profile_members m on m.discovery_id = $1 and m.profile_id = p.id
       left join security_device_scores s on s.discovery_id = $1 and s.asset_id = m.asset_id
      group by p.id, p.error`,
    [discoveryId, companyId, profiles.map((profile) => profile.id), profiles.map((profile) => profileErrors.get(profile.id) ?? '')],
  );
}

/** The device fields the conditions read (saved queries expanded); a condition that no longer expands reads none. */
async function fieldsRead(db: Queryable, companyId: number, conditions: { query: string; ownerId: number | null }[]): Promise<Set<string>> {
  const fields = new Set<string>();
  for (const { query, ownerId } of conditions) {
    try {
      for (const field of fieldsOf(await expandSavedQueries(parseQuery(query), (id) => loadSavedQueryText(db, { companyId, userId: ownerId }, id)))) fields.add(field);
    } catch {
      // Its evaluation fails below and says why.
    }
  }
  return fields;
}

/**
 * Scores a snapshot being published (see the top of this file). Nothing to do for a company without profiles or
 * enabled policies. A profile or policy that fails or times out is recorded with its reason; the others still count.
 * Policies on users are evaluated after the devices' (userPolicies.ts): they list the users that fail them and count
 * in no score.
 */
export async function scoreSnapshot(db: Queryable, companyId: number, discoveryId: number, timeoutMs = defaultConditionTimeoutMs): Promise<void> {
  const profiles = await loadProfiles(db, companyId);
  const policies = await loadEnabledPolicies(db, companyId);
  if (!profiles.length && !policies.length) return;
  const devicePolicies = policies.filter((policy) => policy.inventory === 'device');
  // The statements below are planned for tens of thousands of rows and run once: compiling them to machine code
  // (PostgreSQL's JIT) cost more than it saved, up to half a second for each policy reaching vulnerabilities.
  await withoutJit(db, async () => {
    // Only user policies: the devices' rows are not derived for nothing; the snapshot's summary still says it was scored.
    const profileErrors = profiles.length || devicePolicies.length ? await scoreDevices(db, companyId, discoveryId, profiles, devicePolicies, timeoutMs) : new Map<number, string>();
    await evaluateUserPolicies(db, companyId, discoveryId, policies.filter((policy) => policy.inventory === 'user'), timeoutMs);
    await writeSummaryScores(db, companyId, discoveryId, profiles, profileErrors);
  });
}

/** Profiles, device policies and device scores; answers the profiles that could not be evaluated, with why. */
async function scoreDevices(db: Queryable, companyId: number, discoveryId: number, profiles: Profile[], policies: Policy[], timeoutMs: number): Promise<Map<number, string>> {
  const built = await snapshotIndexedFields(db, discoveryId, 'device');
  // A snapshot being published has no device index yet: its devices' typed rows are derived into a temporary table.
  const devicesTable = built.size ? 'snapshot_index' : 'scoring_devices';
  const indexed = built.size ? built : await writeTemporaryIndexRows(db, devicesTable, discoveryId, 'device', await fieldsRead(db, companyId, [...profiles, ...policies]));
  await db.exec(temporaryTables.map((table) => `drop table if exists ${table.split(' ')[0]}; create temporary table ${table} on commit drop;`).join(' '));
  const relations = await relationOptions(db, companyId, discoveryId, 'device');
  // No one asks: each condition expands the saved queries its owner (who last saved it) may read.
  const compile: Compile = async (text, ownerId) => {
    const condition = await queryCondition(db, { companyId, userId: ownerId }, text, 3, indexed, relations);
    return { ...condition, table: condition.table === 'snapshot_index' ? devicesTable : condition.table };
  };
  const [{ devices }] = await db.query<{ devices: number }>(`select count(*)::int as devices from ${devicesTable} where discovery_id = $1 and entity = 'device'`, [discoveryId]);
  const profileErrors = await writeMembers(db, discoveryId, profiles, compile, timeoutMs);
  const evaluated = await writeFailures(db, discoveryId, devices, policies, compile, timeoutMs);
  if (evaluated.length) {
    await writeDeviceScores(db, discoveryId, devicesTable, profiles, evaluated);
    await writeScoreFields(db, discoveryId, built.size > 0);
  }
  return profileErrors;
}

/**
 * Deletes the per-asset rows of pruned snapshots (their result and score summaries stay for the trend).
 * `security_policy_failures` holds the users that failed user policies (a device's failed policies are in its score
 * row; older snapshots' rows there may be devices).
 */
export async function pruneSecurityRows(db: Queryable, staleSnapshots: string, params: unknown[]): Promise<void> {
  for (const table of ['security_profile_members', 'security_policy_failures', 'security_device_scores']) {
    await db.query(`delete from ${table} where discovery_id in (${staleSnapshots})`, params);
  }
}
