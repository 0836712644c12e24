import type { Queryable } from '../db/database.js';

// Asset profiles and security policies are company documents in `resources` (schemas/entities/asset-profile.json
// and security-policy.json); their per-snapshot outcomes are in the security_* tables (migration 0060).

export const profileKind = 'cartograph:entities/asset-profile';
export const policyKind = 'cartograph:entities/security-policy';

// `owner_id` is the user who last saved the document (documentRoutes.ts), whose saved queries its condition expands.
export type ProfileDocument = { name: string; description?: string; owner?: string; criticality?: number; query: string; owner_id?: number };
export type Severity = 'critical' | 'high' | 'medium' | 'low';
/** The inventories a policy may check (its `inventory`; a policy stored before there was a choice checks devices). */
export const policyInventories = ['device', 'user'] as const;
export type PolicyInventory = (typeof policyInventories)[number];
export type PolicyDocument = {
  name: string; description?: string; enabled?: boolean; inventory?: PolicyInventory; query: string; severity: Severity; weight?: number | null; profile_ids?: number[];
  remediation?: string; cis_safeguard?: string; cis_title?: string; starter_id?: string | null; owner_id?: number;
};

/** A policy's weight when it names none: its severity's. */
export const severityWeights: Record<Severity, number> = { critical: 10, high: 6, medium: 3, low: 1 };

export const weightOf = (policy: PolicyDocument): number => policy.weight ?? severityWeights[policy.severity] ?? 3;

export const inventoryOf = (policy: Pick<PolicyDocument, 'inventory'>): PolicyInventory => policy.inventory ?? 'device';

/** `ownerId`: whose saved queries `Query is <id>` expands in the condition (null: public and ownerless ones only). */
export type Profile = { id: number; name: string; query: string; criticality: number; ownerId: number | null };
export type Policy = { id: number; name: string; inventory: PolicyInventory; query: string; weight: number; profile_ids: number[]; ownerId: number | null };

/** The company's asset profiles, oldest first. */
export async function loadProfiles(db: Queryable, companyId: number): Promise<Profile[]> {
  const rows = await db.query<{ id: number; document: ProfileDocument }>('select id, document from resources where kind = $1 and company_id = $2 order by id', [profileKind, companyId]);
  return rows.map(({ id, document }) => ({ id, name: document.name, query: document.query, criticality: document.criticality ?? 1, ownerId: document.owner_id ?? null }));
}

/** The company's enabled security policies, oldest first. */
export async function loadEnabledPolicies(db: Queryable, companyId: number): Promise<Policy[]> {
  const rows = await db.query<{ id: number; document: PolicyDocument }>(
    "select id, document from resources where kind = $1 and company_id = $2 and coalesce((document->>'enabled')::boolean, false) order by id", [policyKind, companyId],
  );
  return rows.map(({ id, document }) => ({
    id, name: document.name, inventory: inventoryOf(document), query: document.query, weight: weightOf(document), profile_ids: document.profile_ids ?? [], ownerId: document.owner_id ?? null,
  }));
}

/** The newest published snapshot of the company that was scored (profiles or policies evaluated), or null. */
export async function latestScoredSnapshot(db: Queryable, companyId: number): Promise<number | null> {
  const [row] = await db.query<{ id: number }>(
    "select max(s.discovery_id) as id from security_scores s join discoveries d on d.id = s.discovery_id where s.company_id = $1 and d.status = 'done'", [companyId],
  );
  return row?.id ?? null;
}
