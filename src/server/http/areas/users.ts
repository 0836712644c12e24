import { noteChange } from '../../activities/activityChanges.js';
import { redactedValue } from '../../activities/secretRedaction.js';
import { hashPassword, passwordPolicyErrors } from '../../auth/passwords.js';
import type { AppContext } from '../../context.js';
import type { Database, Queryable } from '../../db/database.js';
import { queueAccountMail } from '../../identity/accountMail.js';
import { grantsOf, type Caller } from '../../identity/callers.js';
import { grantsOfGroups, refuseGrantsBeyondCaller, type AdapterNames } from '../../identity/grantLimits.js';
import { describeUser, userById, userColumns, type UserRow } from '../../identity/users.js';
import { detailError, fieldError, HttpError, notFound } from '../errors.js';
import { orderByClause, pageWindow, paginated, type ListQuery } from '../pagination.js';
import { callerOf, type RouteCatalogue } from '../routes.js';
import { containsPattern } from '../../db/likePatterns.js';

export type UserBody = {
  username?: string;
  email?: string;
  first_name?: string;
  last_name?: string;
  is_active?: boolean;
  group_ids?: number[];
  password?: string;
};

const orderingColumns = { id: 'u.id', username: 'lower(u.username)', email: 'lower(u.email)', first_name: 'u.first_name', last_name: 'u.last_name' };

/** Field-level checks that need the database: unique username, password policy, groups of the same company. */
export async function checkUserBody(db: Queryable, body: UserBody, companyId: number, userId: number | null): Promise<void> {
  const errors: Record<string, string[]> = {};
  if (body.username !== undefined) {
    const taken = await db.query('select 1 from users where lower(username) = lower($1) and id <> coalesce($2::int, 0)', [body.username, userId]);
    if (taken.length) errors.username = ['A user with that username already exists.'];
  }
  if (body.password !== undefined) {
    const problems = passwordPolicyErrors(body.password, body.username ?? '');
    if (problems.length) errors.password = problems;
  }
  if (body.group_ids?.length) {
    const found = await db.query<{ id: number }>('select id from groups where company_id = $1 and id = any($2::int[])', [companyId, body.group_ids]);
    const missing = body.group_ids.find((id) => !found.some((row) => row.id === id));
    if (missing !== undefined) errors.group_ids = [`Invalid pk "${missing}" - object does not exist.`];
  }
  if (Object.keys(errors).length) throw new HttpError(400, errors);
}

export async function writeUser(db: Queryable, userId: number, body: UserBody): Promise<void> {
  const columns = (['username', 'email', 'first_name', 'last_name', 'is_active'] as const).filter((column) => body[column] !== undefined);
  if (columns.length) {
    const assignments = columns.map((column, index) => `${column} = $${index + 2}`).join(', ');
    await db.query(`update users set ${assignments}, updated_at = now() where id = $1`, [userId, ...columns.map((column) => body[column])]);
  }
  if (body.password !== undefined) {
    await db.query('update users set password_hash = $2, password_changed_at = now(), password_expired = false where id = $1', [userId, await hashPassword(body.password)]);
  }
  if (body.group_ids !== undefined) {
    await db.query('delete from user_groups where user_id = $1', [userId]);
    await db.query('insert into user_groups (user_id, group_id) select $1, unnest($2::int[])', [userId, body.group_ids]);
  }
}

/** Creates a user of a company after the same checks as the API; answers its id. */
export async function createUser(db: Database, companyId: number, body: UserBody): Promise<number> {
  await checkUserBody(db, body, companyId, null);
  return db.transaction(async (connection) => {
    const [row] = await connection.query<{ id: number }>('insert into users (company_id, username) values ($1, $2) returning id', [companyId, body.username]);
    await writeUser(connection, row.id, { ...body, username: undefined });
    return row.id;
  });
}

/**
 * Refuses a change that would give the user more than the caller holds: groups they join (the caller's own
 * groups included) must grant nothing beyond the caller, and a password is only set for a user who holds nothing
 * beyond the caller (setting it would hand the caller that account).
 */
export async function refuseUserEscalation(db: Queryable, caller: Caller, adapterNames: AdapterNames, body: UserBody, current: UserRow | null): Promise<void> {
  const joining = (body.group_ids ?? []).filter((groupId) => !current?.groups.some((group) => group.id === groupId));
  if (joining.length) {
    refuseGrantsBeyondCaller(caller, await grantsOfGroups(db, joining), adapterNames, 'You cannot put a user, yourself included, in a group that grants more than you hold.');
  }
  if (current && body.password !== undefined && current.id !== caller.userId) {
    refuseGrantsBeyondCaller(caller, await grantsOf(db, current.id), adapterNames, 'You cannot set the password of a user who holds more than you do.');
  }
}

/** A user as the activity log keeps them: a password set by the change shows as set, never its value. */
const withPasswordNoted = (user: ReturnType<typeof describeUser>, body: UserBody) => (body.password === undefined ? user : { ...user, password: redactedValue });

/** Users of the caller's company (reference API `/users/users`). */
export function registerUserRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  const read = async (caller: Caller, id: number) => describeUser(await userById(db, caller.companyId, id));

  routes.add({
    method: 'GET', url: '/users/users', name: 'users.list', summary: 'List users', access: 'users.view_user', query: 'cartograph:api/list-query',
    handler: async (request) => {
      const caller = callerOf(request);
      const query = request.query as ListQuery;
      const { limit, offset } = pageWindow(query);
      const filter = `u.company_id = $1 and ($2::text is null or u.username ilike $2 or u.email ilike $2 or u.first_name ilike $2 or u.last_name ilike $2)`;
      const params = [caller.companyId, query.search ? containsPattern(query.search) : null];
      const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from users u where ${filter}`, params);
      const rows = await db.query<UserRow>(
        `select ${userColumns} from users u where ${filter} order by ${orderByClause(query.ordering, orderingColumns, 'u.id')} limit $3 offset $4`,
        [...params, limit, offset],
      );
      return paginated(request, query, count, rows.map(describeUser));
    },
  });
  routes.add({
    method: 'POST', url: '/users/users', name: 'users.create', summary: 'Create a user', access: 'users.add_user', body: 'cartograph:entities/user', status: 201,
    handler: async (request) => {
      const caller = callerOf(request);
      const body = request.body as UserBody;
      await checkUserBody(db, body, caller.companyId, null);
      await refuseUserEscalation(db, caller, context.adapters.catalogue, body, null);
      const id = await createUser(db, caller.companyId, body);
      const created = describeUser(await userById(db, caller.companyId, id));
      noteChange(request, { targetId: id, before: null, after: withPasswordNoted(created, body) });
      await queueAccountMail(context.jobs.send, { companyId: caller.companyId, userId: id, kind: 'account_created', by: caller.username, email: created.email })
        .catch((error) => request.log.error({ err: error }, 'could not queue the account notice'));
      return created;
    },
  });
  routes.add({
    method: 'GET', url: '/users/users/:id', name: 'users.read', summary: 'Read a user', access: 'users.view_user', params: 'cartograph:api/id-params',
    handler: async (request) => read(callerOf(request), (request.params as { id: number }).id),
  });
  for (const method of ['PUT', 'PATCH'] as const) {
    routes.add({
      method, url: '/users/users/:id', name: method === 'PUT' ? 'users.update' : 'users.partial_update', summary: 'Change a user', access: 'users.change_user',
      params: 'cartograph:api/id-params', body: method === 'PUT' ? 'cartograph:entities/user' : 'cartograph:entities/user-patch',
      handler: async (request) => {
        const caller = callerOf(request);
        const { id } = request.params as { id: number };
        const body = request.body as UserBody;
        const current = await userById(db, caller.companyId, id);
        const before = describeUser(current);
        if (id === caller.userId && body.is_active === false) throw fieldError('is_active', 'You cannot deactivate your own account.');
        await checkUserBody(db, body, caller.companyId, id);
        await refuseUserEscalation(db, caller, context.adapters.catalogue, body, current);
        await db.transaction((connection) => writeUser(connection, id, body));
        const after = await read(caller, id);
        noteChange(request, { before, after: withPasswordNoted(after, body) });
        // An administrator setting someone else's password: that person hears of it (the password is not in the mail).
        if (body.password !== undefined && id !== caller.userId) {
          await queueAccountMail(context.jobs.send, { companyId: caller.companyId, userId: id, kind: 'password_changed', by: caller.username, email: after.email })
            .catch((error) => request.log.error({ err: error }, 'could not queue the account notice'));
        }
        return after;
      },
    });
  }
  routes.add({
    method: 'DELETE', url: '/users/users/:id', name: 'users.delete', summary: 'Delete a user', access: 'users.delete_user', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const caller = callerOf(request);
      const { id } = request.params as { id: number };
      if (id === caller.userId) throw detailError(400, 'You cannot delete your own account.');
      const before = describeUser(await userById(db, caller.companyId, id));
      const deleted = await db.query('delete from users where id = $1 and company_id = $2 returning id', [id, caller.companyId]);
      if (!deleted.length) throw notFound();
      noteChange(request, { before, after: null });
    },
  });
}
