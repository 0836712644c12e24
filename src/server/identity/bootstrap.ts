import { randomBytes } from 'node:crypto';
import { hashPassword } from '../auth/passwords.js';
import type { AppContext } from '../context.js';
import { builtinGroupId, createCompany, refreshAdministrators } from './companies.js';
import { syncPermissionCatalogue } from './permissionCatalogue.js';

export type FirstAdministrator = { username: string; password: string; generated: boolean };

/**
 * Brings identity data up to date at every start; on an empty database also creates the provider company and
 * its administrator. A generated password is returned once (for printing) and is already expired, so the
 * console sends the administrator to choose their own.
 */
export async function bootstrapIdentity(context: AppContext, companyName: string): Promise<FirstAdministrator | null> {
  const { db, config } = context;
  await syncPermissionCatalogue(db);
  const created = await db.transaction(async (connection) => {
    // Serializes first starts of several processes on one PostgreSQL: only one creates the company.
    await connection.query('lock table companies in exclusive mode');
    const [{ count }] = await connection.query<{ count: number }>('select count(*)::int as count from companies');
    if (count > 0) return null;
    const companyId = await createCompany(connection, { name: companyName, is_constant: true });
    const generated = config.adminPassword === null;
    const password = config.adminPassword ?? randomBytes(12).toString('base64url');
    const [user] = await connection.query<{ id: number }>(
      `insert into users (company_id, username, first_name, last_name, password_hash, password_expired)
       values ($1, $2, 'Cartograph', 'Administrator', $3, $4) returning id`,
      [companyId, config.adminUsername, await hashPassword(password), generated],
    );
    await connection.query('insert into user_groups (user_id, group_id) values ($1, $2)', [user.id, await builtinGroupId(connection, companyId, 'Administrators')]);
    return { username: config.adminUsername, password, generated };
  });
  await refreshAdministrators(db);
  return created;
}
