import type { Queryable } from '../db/database.js';
import { companyStarterPolicyIds, ensureStarterPolicy } from '../security/starterPolicies.js';
import { builtinGroupPermissions, permissionCatalogue, setGroupPermissions } from './permissionCatalogue.js';

export type CompanyRow = { id: number; name: string; domain: string; is_active: boolean; is_constant: boolean };

export const companyColumns = `c.id, c.name, c.is_active, c.is_constant,
  coalesce((select d.domain from domains d where d.company_id = c.id order by d.is_primary desc, d.id limit 1), '') as domain`;

/**
 * Creates a company with its built-in groups (Administrators, Analysts, Viewers), its Default connector and the
 * starter security policies every company has from the start (switched off, as the starter library adds them).
 */
export async function createCompany(db: Queryable, fields: { name: string; is_active?: boolean; is_constant?: boolean }): Promise<number> {
  const [company] = await db.query<{ id: number }>('insert into companies (name, is_active, is_constant) values ($1, $2, $3) returning id', [
    fields.name,
    fields.is_active ?? true,
    fields.is_constant ?? false,
  ]);
  await db.query("insert into connectors (company_id, name, is_default) values ($1, 'Default', true)", [company.id]);
  for (const group of permissionCatalogue.builtinGroups) {
    const [row] = await db.query<{ id: number }>("insert into groups (company_id, name, is_builtin, adapters) values ($1, $2, true, '{*}') returning id", [
      company.id,
      group.name,
    ]);
    await setGroupPermissions(db, row.id, builtinGroupPermissions(group));
  }
  for (const starterId of companyStarterPolicyIds) await ensureStarterPolicy(db, company.id, starterId, false);
  return company.id;
}

/** Administrators always hold every permission, including ones added to the catalogue since they were created. */
export async function refreshAdministrators(db: Queryable): Promise<void> {
  await db.query(
    `insert into group_permissions (group_id, permission_id)
     select g.id, p.id from groups g cross join permissions p where g.is_builtin and g.name = 'Administrators'
     on conflict do nothing`,
  );
}

/** The company's built-in group of that name. */
export async function builtinGroupId(db: Queryable, companyId: number, name: string): Promise<number> {
  const [row] = await db.query<{ id: number }>('select id from groups where company_id = $1 and is_builtin and name = $2', [companyId, name]);
  return row.id;
}
