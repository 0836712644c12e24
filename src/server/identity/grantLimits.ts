import type { Queryable } from '../db/database.js';
import { Forbidden } from '../errors.js';
import type { Caller } from './callers.js';
import { permissionCatalogue } from './permissionCatalogue.js';

/** What someone holds or is given: permission strings (`app.codename`) and adapter slugs (`*` = every adapter). */
export type Grants = { permissions: string[]; adapters: string[] };

/** Adapter names by slug, to name an adapter in a refusal (the server's adapter catalogue). */
export type AdapterNames = ReadonlyMap<string, { name: string }>;

const labels = new Map(permissionCatalogue.permissions.map((entry) => [entry.permission, entry.label]));

/** The permission strings of permission ids (unknown ids are the body checks' business, not this one's). */
export async function permissionsByIds(db: Queryable, ids: number[]): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await db.query<{ permission: string }>(`select app || '.' || codename as permission from permissions where id = any($1::int[])`, [ids]);
  return rows.map((row) => row.permission);
}

/** What these groups grant together. */
export async function grantsOfGroups(db: Queryable, groupIds: number[]): Promise<Grants> {
  if (!groupIds.length) return { permissions: [], adapters: [] };
  const [permissionRows, adapterRows] = await Promise.all([
    db.query<{ permission: string }>(
      `select distinct p.app || '.' || p.codename as permission from group_permissions gp join permissions p on p.id = gp.permission_id
        where gp.group_id = any($1::int[]) order by 1`,
      [groupIds],
    ),
    db.query<{ adapter: string }>('select distinct unnest(adapters) as adapter from groups where id = any($1::int[]) order by 1', [groupIds]),
  ]);
  return { permissions: permissionRows.map((row) => row.permission), adapters: adapterRows.map((row) => row.adapter) };
}

/** What `after` grants that `before` did not: adding a permission or an adapter a group already had grants nothing new. */
export function addedGrants(before: Grants, after: Grants): Grants {
  return {
    permissions: after.permissions.filter((permission) => !before.permissions.includes(permission)),
    adapters: before.adapters.includes('*') ? [] : after.adapters.filter((adapter) => !before.adapters.includes(adapter)),
  };
}

/** The part of `wanted` the caller does not hold. The provider's administrators hold everything, so nothing is beyond them. */
export function beyondCaller(caller: Caller, wanted: Grants): Grants {
  return {
    permissions: [...new Set(wanted.permissions)].filter((permission) => !caller.permissions.has(permission)),
    adapters: caller.adapters.includes('*') ? [] : [...new Set(wanted.adapters)].filter((adapter) => !caller.adapters.includes(adapter)),
  };
}

/** "Permissions you do not hold: Can add company, Can delete user. Adapters you may not use: Okta." */
function describeMissing(missing: Grants, adapterNames: AdapterNames): string {
  const parts: string[] = [];
  if (missing.permissions.length) {
    const named = missing.permissions.map((permission) => labels.get(permission) ?? permission).sort((a, b) => a.localeCompare(b));
    parts.push(`Permissions you do not hold: ${named.join(', ')}.`);
  }
  if (missing.adapters.length) {
    const named = missing.adapters.includes('*') ? ['every adapter'] : missing.adapters.map((slug) => adapterNames.get(slug)?.name ?? slug).sort((a, b) => a.localeCompare(b));
    parts.push(`Adapters you may not use: ${named.join(', ')}.`);
  }
  return parts.join(' ');
}

/**
 * Refuses (403) to give anyone what the caller does not hold themselves, so nobody can raise their own rights or
 * another's above theirs. `lead` says what was refused; the answer names the missing permissions by their labels.
 */
export function refuseGrantsBeyondCaller(caller: Caller, wanted: Grants, adapterNames: AdapterNames, lead: string): void {
  const missing = beyondCaller(caller, wanted);
  if (!missing.permissions.length && !missing.adapters.length) return;
  throw new Forbidden({ detail: `${lead} ${describeMissing(missing, adapterNames)}`, code: 'permission_escalation' });
}
