import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/database.js';
import { addedGrants, permissionsByIds, refuseGrantsBeyondCaller, type Grants } from '../../identity/grantLimits.js';
import { fieldError, HttpError, detailError, notFound } from '../errors.js';
import { orderByClause, pageWindow, paginated, type ListQuery } from '../pagination.js';
import { callerOf, type RouteCatalogue } from '../routes.js';
import { containsPattern } from '../../db/likePatterns.js';

type GroupBody = { name?: string; permissions?: number[]; user_ids?: number[]; adapters?: string[] };
type GroupRow = { id: number; name: string; is_builtin: boolean; adapters: string[]; user_count: number; hr_permissions: { id: number; name: string; codename: string; app: string }[] };

const groupColumns = `g.id, g.name, g.is_builtin, g.adapters,
  (select count(*)::int from user_groups ug where ug.group_id = g.id) as user_count,
  coalesce((select json_agg(json_build_object('id', p.id, 'name', p.label, 'codename', p.codename, 'app', p.app) order by p.id)
              from group_permissions gp join permissions p on p.id = gp.permission_id where gp.group_id = g.id), '[]') as hr_permissions`;

function describeGroup(row: GroupRow) {
  return { id: row.id, name: row.name, user_count: row.user_count, is_builtin: row.is_builtin, adapters: row.adapters, permissions: row.hr_permissions.map((permission) => permission.id), hr_permissions: row.hr_permissions };
}

async function groupById(db: Queryable, companyId: number, id: number): Promise<GroupRow> {
  const [row] = await db.query<GroupRow>(`select ${groupColumns} from groups g where g.id = $1 and g.company_id = $2`, [id, companyId]);
  if (!row) throw notFound();
  return row;
}

async function firstMissing(db: Queryable, sql: string, params: unknown[], ids: number[]): Promise<number | undefined> {
  const found = new Set((await db.query<{ id: number }>(sql, params)).map((row) => row.id));
  return ids.find((id) => !found.has(id));
}

async function checkGroupBody(db: Queryable, body: GroupBody, companyId: number, groupId: number | null): Promise<void> {
  const errors: Record<string, string[]> = {};
  if (body.name !== undefined) {
    const taken = await db.query('select 1 from groups where company_id = $1 and lower(name) = lower($2) and id <> coalesce($3::int, 0)', [companyId, body.name, groupId]);
    if (taken.length) errors.name = ['A group with that name already exists.'];
  }
  if (body.permissions?.length) {
    const missing = await firstMissing(db, 'select id from permissions where id = any($1::int[])', [body.permissions], body.permissions);
    if (missing !== undefined) errors.permissions = [`Invalid pk "${missing}" - object does not exist.`];
  }
  if (body.user_ids?.length) {
    const missing = await firstMissing(db, 'select id from users where company_id = $1 and id = any($2::int[])', [companyId, body.user_ids], body.user_ids);
    if (missing !== undefined) errors.user_ids = [`Invalid pk "${missing}" - object does not exist.`];
  }
  if (Object.keys(errors).length) throw new HttpError(400, errors);
}

const noGrants: Grants = { permissions: [], adapters: [] };

/**
 * What saving the body gives someone: a member who joins gets everything the group will grant; the members it
 * already has get only what the change adds (renaming, keeping or narrowing a group gives nobody anything).
 */
async function grantsGivenBy(db: Queryable, group: GroupRow | null, body: GroupBody): Promise<Grants> {
  const before = group ? { permissions: group.hr_permissions.map((permission) => `${permission.app}.${permission.codename}`), adapters: group.adapters } : noGrants;
  const after = {
    permissions: body.permissions !== undefined ? await permissionsByIds(db, body.permissions) : before.permissions,
    adapters: body.adapters ?? before.adapters,
  };
  const members = group ? (await db.query<{ user_id: number }>('select user_id from user_groups where group_id = $1', [group.id])).map((row) => row.user_id) : [];
  const joining = (body.user_ids ?? []).filter((id) => !members.includes(id));
  return joining.length ? after : addedGrants(before, after);
}

const beyondGroupLead = 'You can give a group, and anyone you add to it, only what you hold yourself.';

async function writeGroup(db: Queryable, groupId: number, body: GroupBody): Promise<void> {
  if (body.name !== undefined) await db.query('update groups set name = $2 where id = $1', [groupId, body.name]);
  if (body.adapters !== undefined) await db.query('update groups set adapters = $2 where id = $1', [groupId, body.adapters]);
  if (body.permissions !== undefined) {
    await db.query('delete from group_permissions where group_id = $1', [groupId]);
    await db.query('insert into group_permissions (group_id, permission_id) select $1, unnest($2::int[])', [groupId, body.permissions]);
  }
  if (body.user_ids !== undefined) {
    await db.query('delete from user_groups where group_id = $1', [groupId]);
    await db.query('insert into user_groups (group_id, user_id) select $1, unnest($2::int[])', [groupId, body.user_ids]);
  }
}

/** Groups of the caller's company and the permission catalogue (reference API `/users/groups`, `/users/permissions`). */
export function registerGroupRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  routes.add({
    method: 'GET', url: '/users/groups', name: 'groups.list', summary: 'List groups', access: 'auth.view_group', query: 'cartograph:api/list-query',
    handler: async (request) => {
      const caller = callerOf(request);
      const query = request.query as ListQuery;
      const { limit, offset } = pageWindow(query);
      const filter = 'g.company_id = $1 and ($2::text is null or g.name ilike $2)';
      const params = [caller.companyId, query.search ? containsPattern(query.search) : null];
      const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from groups g where ${filter}`, params);
      const order = orderByClause(query.ordering, { id: 'g.id', name: 'lower(g.name)' }, 'g.id');
      const rows = await db.query<GroupRow>(`select ${groupColumns} from groups g where ${filter} order by ${order} limit $3 offset $4`, [...params, limit, offset]);
      return paginated(request, query, count, rows.map(describeGroup));
    },
  });
  routes.add({
    method: 'POST', url: '/users/groups', name: 'groups.create', summary: 'Create a group', access: 'auth.add_group', body: 'cartograph:entities/group', status: 201,
    handler: async (request) => {
      const caller = callerOf(request);
      const body = request.body as GroupBody;
      await checkGroupBody(db, body, caller.companyId, null);
      refuseGrantsBeyondCaller(caller, await grantsGivenBy(db, null, body), context.adapters.catalogue, beyondGroupLead);
      const id = await db.transaction(async (connection) => {
        const [row] = await connection.query<{ id: number }>('insert into groups (company_id, name) values ($1, $2) returning id', [caller.companyId, body.name]);
        await writeGroup(connection, row.id, body);
        return row.id;
      });
      return describeGroup(await groupById(db, caller.companyId, id));
    },
  });
  routes.add({
    method: 'GET', url: '/users/groups/:id', name: 'groups.read', summary: 'Read a group', access: 'auth.view_group', params: 'cartograph:api/id-params',
    handler: async (request) => describeGroup(await groupById(db, callerOf(request).companyId, (request.params as { id: number }).id)),
  });
  for (const method of ['PUT', 'PATCH'] as const) {
    routes.add({
      method, url: '/users/groups/:id', name: method === 'PUT' ? 'groups.update' : 'groups.partial_update', summary: 'Change a group', access: 'auth.change_group',
      params: 'cartograph:api/id-params', body: method === 'PUT' ? 'cartograph:entities/group' : 'cartograph:entities/group-patch',
      handler: async (request) => {
        const caller = callerOf(request);
        const { id } = request.params as { id: number };
        const body = request.body as GroupBody;
        const group = await groupById(db, caller.companyId, id);
        if (group.is_builtin && body.name !== undefined && body.name !== group.name) throw fieldError('name', 'Built-in groups cannot be renamed.');
        // Administrators keep every permission, so a company can never lock itself out of its own settings.
        if (group.is_builtin && group.name === 'Administrators' && (body.permissions !== undefined || body.adapters !== undefined)) {
          throw fieldError('permissions', 'The Administrators group always has every permission and adapter.');
        }
        await checkGroupBody(db, body, caller.companyId, id);
        refuseGrantsBeyondCaller(caller, await grantsGivenBy(db, group, body), context.adapters.catalogue, beyondGroupLead);
        await db.transaction((connection) => writeGroup(connection, id, body));
        return describeGroup(await groupById(db, caller.companyId, id));
      },
    });
  }
  routes.add({
    method: 'DELETE', url: '/users/groups/:id', name: 'groups.delete', summary: 'Delete a group', access: 'auth.delete_group', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const caller = callerOf(request);
      const group = await groupById(db, caller.companyId, (request.params as { id: number }).id);
      if (group.is_builtin) throw detailError(400, 'Built-in groups cannot be deleted.');
      await db.query('delete from groups where id = $1', [group.id]);
    },
  });
  routes.add({
    method: 'GET', url: '/users/permissions', name: 'permissions.list', summary: 'The permission catalogue', access: 'auth.view_group', query: 'cartograph:api/list-query',
    handler: async (request) => {
      const query = request.query as ListQuery;
      const { limit, offset } = pageWindow(query);
      const filter = "($1::text is null or p.codename ilike $1 or p.label ilike $1 or p.app ilike $1)";
      const params = [query.search ? containsPattern(query.search) : null];
      const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from permissions p where ${filter}`, params);
      const rows = await db.query(`select p.id, p.label as name, p.codename, p.app from permissions p where ${filter} order by p.app, p.codename limit $2 offset $3`, [...params, limit, offset]);
      return paginated(request, query, count, rows);
    },
  });
}
