import type { Queryable } from '../db/database.js';

/** The signed-in user behind a request, read fresh from the database so revoked rights apply at once. */
export type Caller = {
  userId: number;
  companyId: number;
  username: string;
  /** The caller's company is the provider company created at first start, which administers the others. */
  isProvider: boolean;
  permissions: Set<string>;
  adapters: string[];
  passwordExpired: boolean;
};

type CallerRow = {
  id: number;
  company_id: number;
  username: string;
  is_active: boolean;
  company_active: boolean;
  is_constant: boolean;
  password_expired: boolean;
  password_changed_at: Date;
};

/** True when the password was marked expired or is older than the expiry period (0 days = never expires). */
export function isPasswordExpired(row: { password_expired: boolean; password_changed_at: Date }, expiryDays: number): boolean {
  if (row.password_expired) return true;
  return expiryDays > 0 && Date.now() - new Date(row.password_changed_at).getTime() > expiryDays * 86_400_000;
}

/** Permission strings (`app.codename`) and adapter slugs the user's groups grant. */
export async function grantsOf(db: Queryable, userId: number): Promise<{ permissions: string[]; adapters: string[] }> {
  const [permissionRows, adapterRows] = await Promise.all([
    db.query<{ permission: string }>(
      `select distinct p.app || '.' || p.codename as permission
         from user_groups ug join group_permissions gp on gp.group_id = ug.group_id join permissions p on p.id = gp.permission_id
        where ug.user_id = $1 order by 1`,
      [userId],
    ),
    db.query<{ adapter: string }>(
      `select distinct unnest(g.adapters) as adapter from user_groups ug join groups g on g.id = ug.group_id where ug.user_id = $1 order by 1`,
      [userId],
    ),
  ]);
  const adapters = adapterRows.map((row) => row.adapter);
  return { permissions: permissionRows.map((row) => row.permission), adapters: adapters.includes('*') ? ['*'] : adapters };
}

/** The caller for a user id, or null when the user or its company is gone or inactive. */
export async function loadCaller(db: Queryable, userId: number, passwordExpiryDays: number): Promise<Caller | null> {
  const [row] = await db.query<CallerRow>(
    `select u.id, u.company_id, u.username, u.is_active, u.password_expired, u.password_changed_at,
            c.is_active as company_active, c.is_constant
       from users u join companies c on c.id = u.company_id where u.id = $1`,
    [userId],
  );
  if (!row || !row.is_active || !row.company_active) return null;
  const grants = await grantsOf(db, userId);
  return {
    userId: row.id,
    companyId: row.company_id,
    username: row.username,
    isProvider: row.is_constant,
    permissions: new Set(grants.permissions),
    adapters: grants.adapters,
    passwordExpired: isPasswordExpired(row, passwordExpiryDays),
  };
}
