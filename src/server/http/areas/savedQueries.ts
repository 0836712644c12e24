import type { AppContext } from '../../context.js';
import { checkSavedQueryText, savedQueryKind, visibleToCaller, type SavedQueryDocument } from '../../query/savedQueryStore.js';
import { describeUsers, savedQueryUsers } from '../../query/savedQueryUsers.js';
import { detailError, fieldError, HttpError, notFound } from '../errors.js';
import { pageWindow, paginated, type ListQuery } from '../pagination.js';
import { callerOf, type RouteCatalogue } from '../routes.js';
import type { Caller } from '../../identity/callers.js';
import { containsPattern } from '../../db/likePatterns.js';

type Row = { id: number; document: SavedQueryDocument; created_at: Date; updated_at: Date };
const orderable = new Set(['name', 'text', 'type', 'is_public', 'created_at', 'updated_at']);
const path = '/queries/queries';

/** The reference API's saved-query shape: `{id, name, text, tags, count, is_public, created_at, updated_at, temporary, type, user_full_name}`. */
function describe(row: Row) {
  const { owner_id: _owner, ...document } = row.document;
  return {
    id: row.id, tags: [], type: 'device', ...document, is_public: row.document.is_public ?? row.document.owner_id === undefined,
    user_full_name: row.document.user_full_name ?? '', temporary: false, count: null, created_at: row.created_at, updated_at: row.updated_at,
  };
}

/**
 * Saved queries (hand-written rather than generic: they have owners and visibility, and a query's references to
 * other saved queries are checked when it is saved, so no cycle can be stored).
 */
export function registerSavedQueryRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  const load = async (caller: Caller, id: number, forChange: boolean): Promise<Row> => {
    const [row] = await db.query<Row>(`select id, document, created_at, updated_at from resources where id = $1 and ${visibleToCaller('$2', '$3')}`, [id, caller.companyId, caller.userId]);
    if (!row) throw notFound();
    // Anyone may use a public query; only its owner changes it (ownerless ones: anyone with the permission).
    if (forChange && row.document.owner_id !== undefined && row.document.owner_id !== caller.userId) throw new HttpError(403, { detail: 'Only the owner of this saved query can change it.' });
    return row;
  };
  const checkName = async (caller: Caller, name: string, id: number | null) => {
    const taken = await db.query(`select 1 from resources where ${visibleToCaller('$2', '$3')} and lower(document->>'name') = lower($1) and id <> coalesce($4::int, 0)`, [name, caller.companyId, caller.userId, id]);
    if (taken.length) throw fieldError('name', 'A saved query with this name already exists.');
  };
  const ownerName = async (caller: Caller) => {
    const [user] = await db.query<{ name: string }>("select trim(first_name || ' ' || last_name) as name from users where id = $1", [caller.userId]);
    return user?.name || caller.username;
  };
  const save = async (caller: Caller, body: SavedQueryDocument, existing: Row | null): Promise<Row> => {
    const document: SavedQueryDocument = {
      name: body.name, text: body.text, type: body.type ?? 'device', tags: body.tags ?? [], is_public: body.is_public ?? false,
      owner_id: existing ? existing.document.owner_id ?? caller.userId : caller.userId, user_full_name: existing?.document.user_full_name ?? (await ownerName(caller)),
    };
    await checkName(caller, document.name, existing?.id ?? null);
    await checkSavedQueryText(db, caller, document.text, existing?.id ?? null);
    const [row] = existing
      ? await db.query<Row>('update resources set document = $2, updated_at = now() where id = $1 returning id, document, created_at, updated_at', [existing.id, JSON.stringify(document)])
      : await db.query<Row>('insert into resources (kind, company_id, document) values ($1, $2, $3) returning id, document, created_at, updated_at', [savedQueryKind, caller.companyId, JSON.stringify(document)]);
    return row;
  };

  routes.add({
    method: 'GET', url: path, name: 'saved_query.list', summary: 'List the saved queries the caller may use', access: 'queries.view_query', query: 'cartograph:api/saved-query-list-query',
    handler: async (request) => {
      const caller = callerOf(request);
      const query = request.query as ListQuery & { type?: string };
      const { limit, offset } = pageWindow(query);
      const orderField = query.ordering?.replace(/^-/, '');
      if (orderField && !orderable.has(orderField)) throw fieldError('ordering', `Ordering by "${orderField}" is not supported.`);
      const filter = `${visibleToCaller('$1', '$2')} and ($3::text is null or document->>'name' ilike $3 or document->>'text' ilike $3)
        and ($4::text is null or coalesce(document->>'type', 'device') = $4)`;
      const params = [caller.companyId, caller.userId, query.search ? containsPattern(query.search) : null, query.type ?? null];
      const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from resources where ${filter}`, params);
      const direction = query.ordering?.startsWith('-') ? 'desc' : 'asc';
      const order = !orderField ? 'id asc' : ['created_at', 'updated_at'].includes(orderField) ? `${orderField} ${direction}, id` : `document->$7 ${direction}, id`;
      const rows = await db.query<Row>(
        `select id, document, created_at, updated_at from resources where ${filter} order by ${order} limit $5 offset $6`,
        [...params, limit, offset, ...(order.includes('$7') ? [orderField] : [])],
      );
      return paginated(request, query, count, rows.map(describe));
    },
  });
  routes.add({
    method: 'POST', url: path, name: 'saved_query.create', summary: 'Save a query', access: 'queries.add_query', body: savedQueryKind, status: 201,
    handler: async (request) => describe(await save(callerOf(request), request.body as SavedQueryDocument, null)),
  });
  routes.add({
    method: 'GET', url: `${path}/:id`, name: 'saved_query.read', summary: 'Read a saved query', access: 'queries.view_query', params: 'cartograph:api/id-params',
    handler: async (request) => describe(await load(callerOf(request), (request.params as { id: number }).id, false)),
  });
  for (const method of ['PUT', 'PATCH'] as const) {
    routes.add({
      method, url: `${path}/:id`, name: `saved_query.${method === 'PUT' ? 'update' : 'partial_update'}`, summary: 'Change a saved query (its owner only)',
      access: 'queries.change_query', params: 'cartograph:api/id-params', body: method === 'PUT' ? savedQueryKind : `${savedQueryKind}-patch`,
      handler: async (request) => {
        const caller = callerOf(request);
        const existing = await load(caller, (request.params as { id: number }).id, true);
        const body = request.body as Partial<SavedQueryDocument>;
        const merged = method === 'PUT' ? (body as SavedQueryDocument) : { ...existing.document, ...body };
        return describe(await save(caller, merged, existing));
      },
    });
  }
  routes.add({
    method: 'DELETE', url: `${path}/:id`, name: 'saved_query.delete', summary: 'Delete a saved query (its owner only; one in use only with force=true)',
    access: 'queries.delete_query', params: 'cartograph:api/id-params', query: 'cartograph:api/saved-query-delete-query',
    handler: async (request) => {
      const caller = callerOf(request);
      const existing = await load(caller, (request.params as { id: number }).id, true);
      // What uses the query fails once it is gone: the caller deletes it only knowing what, and saying so.
      if (!(request.query as { force?: boolean }).force) {
        const { users, hidden } = await savedQueryUsers(db, caller.companyId, caller.userId, existing.id);
        if (users.length || hidden) {
          const detail = `This saved query is used by ${describeUsers(users, hidden)}: change them first, or delete it anyway with force=true (they then fail until changed).`;
          throw detailError(409, detail, 'saved_query_in_use');
        }
      }
      await db.query('delete from resources where id = $1', [existing.id]);
    },
  });
}
