import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Queryable } from '../db/database.js';

export type PermissionEntry = { permission: string; app: string; codename: string; label: string };
export type BuiltinGroup = { name: string; description: string; include: string[]; exclude: string[] };
type Catalogue = { permissions: PermissionEntry[]; builtinGroups: BuiltinGroup[] };

const catalogueFile = fileURLToPath(new URL('../../../schemas/permissions.json', import.meta.url));
export const permissionCatalogue: Catalogue = JSON.parse(readFileSync(catalogueFile, 'utf8'));

/** `users.view_*` matches `users.view_user`; `*` matches everything. */
function matches(pattern: string, permission: string): boolean {
  const expression = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
  return expression.test(permission);
}

/** The permission strings a built-in group starts with: its includes minus its excludes. */
export function builtinGroupPermissions(group: BuiltinGroup): string[] {
  return permissionCatalogue.permissions
    .map((entry) => entry.permission)
    .filter((permission) => group.include.some((pattern) => matches(pattern, permission)) && !group.exclude.some((pattern) => matches(pattern, permission)));
}

/** Brings the permissions table in line with schemas/permissions.json; existing rows keep their ids. */
export async function syncPermissionCatalogue(db: Queryable): Promise<void> {
  for (const entry of permissionCatalogue.permissions) {
    await db.query(
      `insert into permissions (app, codename, label) values ($1, $2, $3)
       on conflict (app, codename) do update set label = excluded.label`,
      [entry.app, entry.codename, entry.label],
    );
  }
}

/** Gives a group exactly these permission strings. */
export async function setGroupPermissions(db: Queryable, groupId: number, permissions: string[]): Promise<void> {
  await db.query('delete from group_permissions where group_id = $1', [groupId]);
  await db.query(
    `insert into group_permissions (group_id, permission_id)
     select $1, id from permissions where app || '.' || codename = any($2::text[])`,
    [groupId, permissions],
  );
}
