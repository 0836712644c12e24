import type { Queryable } from '../db/database.js';
import { notFound } from '../errors.js';

export type UserRow = {
  id: number;
  company_id: number;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  is_active: boolean;
  is_ldap: boolean;
  groups: { id: number; name: string }[];
};

export const userColumns = `u.id, u.company_id, u.username, u.email, u.first_name, u.last_name, u.is_active, u.is_ldap,
  coalesce((select json_agg(json_build_object('id', g.id, 'name', g.name) order by g.id)
              from user_groups ug join groups g on g.id = ug.group_id where ug.user_id = u.id), '[]') as groups`;

/** The public shape of a user (reference API): never a hash or a secret. */
export function describeUser(row: UserRow) {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    name: [row.first_name, row.last_name].filter(Boolean).join(' ') || row.username,
    is_active: row.is_active,
    is_ldap: row.is_ldap,
    groups: row.groups,
  };
}

/** A user of the given company; another company's user is "not found", exactly like a missing one. */
export async function userById(db: Queryable, companyId: number, userId: number): Promise<UserRow> {
  const [row] = await db.query<UserRow>(`select ${userColumns} from users u where u.id = $1 and u.company_id = $2`, [userId, companyId]);
  if (!row) throw notFound();
  return row;
}
