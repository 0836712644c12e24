import type { AppContext } from '../context.js';
import type { Queryable } from '../db/database.js';
import type { Caller } from '../identity/callers.js';
import { fieldError } from '../errors.js';
import type { RouteCatalogue } from '../http/routes.js';
import { checkCondition } from './conditions.js';
import { registerDocumentRoutes, type DocumentRow } from './documentRoutes.js';
import { inventoryOf, latestScoredSnapshot, policyKind, profileKind, type PolicyDocument } from './securityStore.js';

const byName = "lower(document->>'name')";

/** A stored document as answered: without `owner_id` (who last saved it, kept for the discoveries that evaluate it). */
const answered = ({ owner_id: _owner, ...document }: DocumentRow['document']) => document;

async function describeProfiles(db: Queryable, caller: Caller, rows: DocumentRow[]) {
  const snapshot = await latestScoredSnapshot(db, caller.companyId);
  const scores = await db.query<{ profile_id: number; score: number | null; devices: number; error: string | null }>(
    'select profile_id, score, devices, error from security_scores where discovery_id = $1 and profile_id = any($2::int[])', [snapshot, rows.map((row) => row.id)],
  );
  return rows.map((row) => {
    const score = scores.find((candidate) => candidate.profile_id === row.id);
    return {
      id: row.id, description: '', owner: '', criticality: 1, ...answered(row.document),
      member_count: score?.devices ?? null, score: score?.score === null || score?.score === undefined ? null : Math.round(score.score * 10) / 10, error: score?.error ?? null,
      created_at: row.created_at, updated_at: row.updated_at,
    };
  });
}

async function describePolicies(db: Queryable, caller: Caller, rows: DocumentRow[]) {
  const snapshot = await latestScoredSnapshot(db, caller.companyId);
  const results = await db.query<{ policy_id: number; applicable: number; failed: number; error: string | null; discovery_id: number }>(
    'select policy_id, applicable, failed, error, discovery_id from security_policy_results where discovery_id = $1 and policy_id = any($2::int[])', [snapshot, rows.map((row) => row.id)],
  );
  return rows.map((row) => {
    const result = results.find((candidate) => candidate.policy_id === row.id);
    // A policy stored before policies had an inventory checks devices.
    return {
      id: row.id, description: '', enabled: false, inventory: 'device', weight: null, profile_ids: [], remediation: '', cis_safeguard: '', cis_title: '', starter_id: null, ...answered(row.document),
      last_result: result ? { applicable: result.applicable, failed: result.failed, error: result.error, index_id: result.discovery_id } : null,
      created_at: row.created_at, updated_at: row.updated_at,
    };
  });
}

/**
 * A policy's condition reads its inventory's fields, and only a device policy is scoped by asset profiles (which hold
 * devices): a user policy applies to every user.
 */
async function checkPolicy(db: Queryable, caller: Caller, document: PolicyDocument): Promise<void> {
  const inventory = inventoryOf(document);
  await checkCondition(db, caller, String(document.query), 'query', inventory);
  const profileIds = document.profile_ids ?? [];
  if (inventory !== 'device' && profileIds.length) throw fieldError('profile_ids', 'Asset profiles hold devices: a policy on users applies to every user. Take the profiles off, or check devices.');
  await checkProfileIds(db, caller, profileIds);
}

/** The profiles named all exist in the caller's company. */
async function checkProfileIds(db: Queryable, caller: Caller, ids: number[]): Promise<void> {
  const found = await db.query<{ id: number }>('select id from resources where kind = $1 and company_id = $2 and id = any($3::int[])', [profileKind, caller.companyId, ids]);
  const missing = ids.find((id) => !found.some((row) => row.id === id));
  if (missing !== undefined) throw fieldError('profile_ids', `Invalid pk "${missing}" - object does not exist.`);
}

/** Asset profiles and security policies: `/securitymanager/asset-profiles` and `/securitymanager/security-policies`. */
export function registerProfileAndPolicyRoutes(routes: RouteCatalogue, context: AppContext): void {
  registerDocumentRoutes(routes, context, {
    kind: profileKind, path: '/securitymanager/asset-profiles', name: 'asset_profile', label: 'asset profile', one: 'an asset profile',
    permissions: { view: 'securitymanager.view_assetprofile', add: 'securitymanager.add_assetprofile', change: 'securitymanager.change_assetprofile', delete: 'securitymanager.delete_assetprofile' },
    search: ['name', 'description', 'owner'],
    ordering: { name: byName, owner: "lower(document->>'owner')", criticality: "(document->>'criticality')::int", created_at: 'created_at' },
    defaults: { description: '', owner: '', criticality: 1, query: '' },
    check: async (db, caller, document) => void (await checkCondition(db, caller, String(document.query))),
    // Members, criticalities and profile scores: every profile counts, whether or not a policy is on.
    changesScores: () => true,
    checkDelete: async (db, caller, row) => {
      const users = await db.query<{ name: string }>(
        "select document->>'name' as name from resources where kind = $1 and company_id = $2 and document->'profile_ids' @> to_jsonb(array[$3::int]) order by id", [policyKind, caller.companyId, row.id],
      );
      if (users.length) throw fieldError('id', `Security policies apply to this profile: ${users.map((user) => user.name).join(', ')}. Take it off them first.`);
    },
    describe: describeProfiles,
  });
  registerDocumentRoutes(routes, context, {
    kind: policyKind, path: '/securitymanager/security-policies', name: 'security_policy', label: 'security policy', one: 'a security policy',
    permissions: { view: 'securitymanager.view_securitypolicy', add: 'securitymanager.add_securitypolicy', change: 'securitymanager.change_securitypolicy', delete: 'securitymanager.delete_securitypolicy' },
    search: ['name', 'description', 'cis_safeguard'],
    ordering: { name: byName, severity: "document->>'severity'", enabled: "document->>'enabled'", inventory: "coalesce(document->>'inventory', 'device')", cis_safeguard: "case when document->>'cis_safeguard' ~ '^[0-9]{1,6}(\\.[0-9]{1,6}){0,3}$' then string_to_array(document->>'cis_safeguard', '.')::int[] end", created_at: 'created_at' },
    defaults: { description: '', enabled: false, inventory: 'device', query: '', severity: 'medium', weight: null, profile_ids: [], remediation: '', cis_safeguard: '', cis_title: '' },
    check: (db, caller, document) => checkPolicy(db, caller, document as unknown as PolicyDocument),
    // Only an enabled policy scores: a change to one that is off, and stays off, changes nothing.
    changesScores: (before, after) => before?.enabled === true || after?.enabled === true,
    describe: describePolicies,
  });
}
