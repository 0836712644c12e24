import { parseQuery } from '../../core/query/index.js';
import type { Queryable } from '../db/database.js';
import { fieldColumn } from '../query/fieldColumns.js';
import { relationOfField, relationsOf } from '../query/relationConditions.js';
import { fieldsOf } from './conditions.js';
import { securityFormula } from './scoring.js';

// Why a device scored as it did in a snapshot: each policy that applied, passed or failed, with the weight it
// counted with and the device's values of the fields its condition reads (related software, vulnerabilities and
// services included), next to the formula. For a user: each user policy evaluated, passed or failed, with the
// user's values (users have no score).

const shownValues = 10;

type PolicyResult = { policy_id: number; name: string; query: string; weight: number; profile_ids: number[] };

/** The asset's values of one field: its own, or those of the rows it reaches through a relation (a few distinct). */
async function valuesOf(db: Queryable, discoveryId: number, entity: string, assetId: string, field: string, own: Record<string, unknown[]>): Promise<unknown[]> {
  const relation = relationOfField(relationsOf(entity), field);
  if (!relation) return own[field] ?? [];
  const rest = field.slice(relation.prefix.length);
  const link = relation.linkFields[rest];
  const company = '(select company_id from discoveries where id = $1)';
  const value = link
    ? `(${link.sql.replace('{company}', company)})::text`
    : `(select string_agg(v, ', ') from jsonb_array_elements_text(r.${fieldColumn(rest)}->$3) as value_list(v))`;
  const related = !link && relation.related ? `join snapshot_assets r on r.discovery_id = $1 and r.entity = '${relation.related.entity}' and r.asset_id = l.${relation.related.column}` : '';
  const rows = await db.query<{ value: string }>(
    `select distinct value from (select ${value} as value from ${relation.table} l ${related} where l.discovery_id = $1 and l.${relation.own} = $2) as found
      where value is not null and value <> '' order by value limit ${shownValues}`,
    [discoveryId, assetId, ...(link ? [] : [rest])],
  );
  return rows.map((row) => row.value);
}

/** The asset's values of each field a condition reads. */
async function decidingValues(db: Queryable, discoveryId: number, entity: string, assetId: string, query: string, own: Record<string, unknown[]>) {
  let fields: string[] = [];
  try {
    fields = fieldsOf(parseQuery(query), entity);
  } catch {
    // A condition is checked before it is stored; one that no longer parses shows no values.
  }
  const values = [];
  for (const field of fields) values.push({ field, values: await valuesOf(db, discoveryId, entity, assetId, field, own) });
  return values;
}

export async function explainDevice(db: Queryable, discoveryId: number, assetId: string) {
  const [device] = await db.query<{ fields: Record<string, unknown[]> }>("select fields || specifics as fields from snapshot_assets where discovery_id = $1 and entity = 'device' and asset_id = $2", [discoveryId, assetId]);
  if (!device) return null;
  const [scored] = await db.query<{ score: number; criticality: number; failed: number[] }>('select score, criticality, failed from security_device_scores where discovery_id = $1 and asset_id = $2', [discoveryId, assetId]);
  const profiles = await db.query<{ id: number; name: string; criticality: number }>(
    `select m.profile_id as id, coalesce(r.document->>'name', '#' || m.profile_id) as name, coalesce((r.document->>'criticality')::float8, 1) as criticality
       from security_profile_members m left join resources r on r.id = m.profile_id where m.discovery_id = $1 and m.asset_id = $2 order by m.profile_id`,
    [discoveryId, assetId],
  );
  const results = await db.query<PolicyResult & { remediation: string | null; cis_safeguard: string | null }>(
    `select p.policy_id, p.name, p.query, p.weight, p.profile_ids, r.document->>'remediation' as remediation, r.document->>'cis_safeguard' as cis_safeguard
       from security_policy_results p left join resources r on r.id = p.policy_id where p.discovery_id = $1 and p.entity = 'device' and p.error is null order by p.policy_id`,
    [discoveryId],
  );
  const deviceCriticality = Math.max(1, ...profiles.map((profile) => profile.criticality));
  const policies = [];
  for (const result of results) {
    const through = profiles.filter((profile) => result.profile_ids.includes(profile.id));
    if (result.profile_ids.length && !through.length) continue;
    const criticality = result.profile_ids.length ? Math.max(...through.map((profile) => profile.criticality)) : deviceCriticality;
    const values = await decidingValues(db, discoveryId, 'device', assetId, result.query, device.fields);
    policies.push({
      id: result.policy_id, name: result.name, query: result.query, passed: !(scored?.failed ?? []).includes(result.policy_id),
      weight: result.weight, criticality, effective_weight: result.weight * criticality, remediation: result.remediation ?? '', cis_safeguard: result.cis_safeguard ?? '', values,
    });
  }
  return {
    asset_id: assetId, index_id: discoveryId, score: scored?.score ?? null, criticality: scored?.criticality ?? deviceCriticality, formula: securityFormula,
    profiles, policies: policies.sort((left, right) => Number(left.passed) - Number(right.passed) || right.effective_weight - left.effective_weight),
  };
}

/** The user policies evaluated in a snapshot and whether the user passed each, failed ones first; null: no such user. */
export async function explainUser(db: Queryable, discoveryId: number, assetId: string) {
  const [user] = await db.query<{ fields: Record<string, unknown[]> }>("select fields || specifics as fields from snapshot_assets where discovery_id = $1 and entity = 'user' and asset_id = $2", [discoveryId, assetId]);
  if (!user) return null;
  const results = await db.query<{ policy_id: number; name: string; query: string; failed: boolean; remediation: string | null; severity: string | null; cis_safeguard: string | null }>(
    `select p.policy_id, p.name, p.query, exists (select 1 from security_policy_failures f where f.discovery_id = p.discovery_id and f.policy_id = p.policy_id and f.asset_id = $2) as failed,
            r.document->>'remediation' as remediation, r.document->>'severity' as severity, r.document->>'cis_safeguard' as cis_safeguard
       from security_policy_results p left join resources r on r.id = p.policy_id where p.discovery_id = $1 and p.entity = 'user' and p.error is null order by p.policy_id`,
    [discoveryId, assetId],
  );
  const policies = [];
  for (const result of results) {
    policies.push({
      id: result.policy_id, name: result.name, query: result.query, passed: !result.failed, severity: result.severity ?? 'medium', remediation: result.remediation ?? '',
      cis_safeguard: result.cis_safeguard ?? '', values: await decidingValues(db, discoveryId, 'user', assetId, result.query, user.fields),
    });
  }
  return { asset_id: assetId, index_id: discoveryId, policies: policies.sort((left, right) => Number(left.passed) - Number(right.passed) || left.name.localeCompare(right.name)) };
}
