import type { AppContext } from '../../context.js';
import type { Caller } from '../../identity/callers.js';
import { planSnapshotQuery, withStatementTimeout } from '../../inventory/search.js';
import { resolveSnapshot } from '../../inventory/snapshots.js';
import { assignTags, refreshDeviceTags, tagKind, unassignTags } from '../../inventory/tags.js';
import { fieldError, HttpError, notFound } from '../errors.js';
import { pageWindow, paginated, type ListQuery } from '../pagination.js';
import { callerOf, type RouteCatalogue } from '../routes.js';
import { containsPattern } from '../../db/likePatterns.js';

type TagDocument = { name: string; description?: string; color?: string };
type TagRow = { id: number; document: TagDocument; created_at: Date; updated_at: Date; device_count: number };
type TagUpdate = { tags: string[]; action: 'add' | 'remove'; assets?: string[]; query?: string; index_id?: number | null };

const path = '/devices/tags';
const tagSelect = `select t.id, t.document, t.created_at, t.updated_at, (select count(*)::int from device_tags dt where dt.tag_id = t.id) as device_count from resources t`;
const describe = (row: TagRow) => ({ id: row.id, description: '', color: '#5b6b8c', ...row.document, device_count: row.device_count, created_at: row.created_at, updated_at: row.updated_at });

/** Device tags: the tag list and form (`/device-inventory/tags`), and the add-tag dialog and bulk update. */
export function registerTagRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  const load = async (caller: Caller, id: number): Promise<TagRow> => {
    const [row] = await db.query<TagRow>(`${tagSelect} where t.kind = $1 and t.company_id = $2 and t.id = $3`, [tagKind, caller.companyId, id]);
    if (!row) throw notFound();
    return row;
  };
  const checkName = async (caller: Caller, name: string, id: number | null) => {
    const taken = await db.query("select 1 from resources where kind = $1 and company_id = $2 and lower(document->>'name') = lower($3) and id <> coalesce($4::int, 0)", [tagKind, caller.companyId, name, id]);
    if (taken.length) throw fieldError('name', 'A tag with this name already exists.');
  };
  // A rename or a deletion changes what the latest snapshot's devices show at once.
  const refreshLatest = async (caller: Caller) => {
    const latest = await resolveSnapshot(db, caller.companyId, null).catch(() => null);
    if (latest !== null) await refreshDeviceTags(db, caller.companyId, latest, null);
  };

  routes.add({
    method: 'GET', url: path, name: 'tag.list', summary: 'List device tags with how many devices carry each', access: 'devices.view_tag', query: 'cartograph:api/list-query',
    handler: async (request) => {
      const caller = callerOf(request);
      const query = request.query as ListQuery;
      const { limit, offset } = pageWindow(query);
      const order = { name: "lower(t.document->>'name')", created_at: 't.created_at', device_count: 'device_count' }[query.ordering?.replace(/^-/, '') ?? 'name'];
      if (!order) throw fieldError('ordering', `Ordering by "${query.ordering?.replace(/^-/, '')}" is not supported.`);
      const filter = "t.kind = $1 and t.company_id = $2 and ($3::text is null or t.document->>'name' ilike $3 or t.document->>'description' ilike $3)";
      const params = [tagKind, caller.companyId, query.search ? containsPattern(query.search) : null];
      const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from resources t where ${filter}`, params);
      const rows = await db.query<TagRow>(`${tagSelect} where ${filter} order by ${order} ${query.ordering?.startsWith('-') ? 'desc' : 'asc'}, t.id limit $4 offset $5`, [...params, limit, offset]);
      return paginated(request, query, count, rows.map(describe));
    },
  });
  routes.add({
    method: 'POST', url: path, name: 'tag.create', summary: 'Create a device tag', access: 'devices.add_tag', body: 'cartograph:entities/tag', status: 201,
    handler: async (request) => {
      const caller = callerOf(request);
      const { name, description = '', color = '#5b6b8c' } = request.body as TagDocument;
      await checkName(caller, name, null);
      const [row] = await db.query<{ id: number }>('insert into resources (kind, company_id, document) values ($1, $2, $3) returning id', [tagKind, caller.companyId, JSON.stringify({ name, description, color })]);
      return describe(await load(caller, row.id));
    },
  });
  routes.add({
    method: 'GET', url: `${path}/:id`, name: 'tag.read', summary: 'Read a device tag', access: 'devices.view_tag', params: 'cartograph:api/id-params',
    handler: async (request) => describe(await load(callerOf(request), (request.params as { id: number }).id)),
  });
  for (const method of ['PUT', 'PATCH'] as const) {
    routes.add({
      method, url: `${path}/:id`, name: `tag.${method === 'PUT' ? 'update' : 'partial_update'}`, summary: 'Change a device tag (devices show a new name at once)',
      access: 'devices.change_tag', params: 'cartograph:api/id-params', body: method === 'PUT' ? 'cartograph:entities/tag' : 'cartograph:entities/tag-patch',
      handler: async (request) => {
        const caller = callerOf(request);
        const existing = await load(caller, (request.params as { id: number }).id);
        const body = request.body as Partial<TagDocument>;
        const document = { ...(method === 'PATCH' ? existing.document : { description: '', color: '#5b6b8c' }), ...body };
        await checkName(caller, document.name!, existing.id);
        await db.query('update resources set document = $2, updated_at = now() where id = $1', [existing.id, JSON.stringify(document)]);
        if (document.name !== existing.document.name) await refreshLatest(caller);
        return describe(await load(caller, existing.id));
      },
    });
  }
  routes.add({
    method: 'DELETE', url: `${path}/:id`, name: 'tag.delete', summary: 'Delete a device tag and take it off every device', access: 'devices.delete_tag', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const caller = callerOf(request);
      const existing = await load(caller, (request.params as { id: number }).id);
      await db.query('delete from resources where id = $1', [existing.id]);
      await refreshLatest(caller);
    },
  });
  routes.add({
    method: 'POST', url: '/devices/tags/update', name: 'tag.update_devices', summary: 'Add or remove tags on devices (chosen ones or every device a query matches)',
    access: 'devices.change_tag', body: 'cartograph:api/device-tag-update',
    handler: async (request) => {
      const caller = callerOf(request);
      const body = request.body as TagUpdate;
      if (!body.assets && body.query === undefined) throw fieldError('assets', 'Name the devices or give a query.');
      const discoveryId = await resolveSnapshot(db, caller.companyId, body.index_id);
      const tags = await resolveTags(caller, body.tags, body.action === 'add');
      const assets = await withStatementTimeout(db, async (connection) => {
        const plan = await planSnapshotQuery(connection, caller, discoveryId, 'device', body.query);
        const chosen = plan.params.length + 1;
        const rows = await connection.query<{ asset_id: string }>(
          `select asset_id from ${plan.table} where ${plan.where} and ($${chosen}::text[] is null or asset_id = any($${chosen}::text[]))`,
          [...plan.params, body.assets ?? null],
        );
        return rows.map((row) => row.asset_id);
      });
      const missing = body.query ? undefined : body.assets?.find((id) => !assets.includes(id));
      if (missing) throw fieldError('assets', `Invalid pk "${missing}" - object does not exist.`);
      await db.transaction(async (connection) => {
        if (body.action === 'add') await assignTags(connection, caller.companyId, tags.map((tag) => tag.id), discoveryId, assets);
        else await unassignTags(connection, caller.companyId, tags.map((tag) => tag.id), discoveryId, assets);
        await refreshDeviceTags(connection, caller.companyId, discoveryId, body.action === 'add' ? assets : null);
      });
      return { tags, devices: assets.length, index_id: discoveryId };
    },
  });

  /** The tags named; adding creates the missing ones when the caller may add tags. */
  async function resolveTags(caller: Caller, names: string[], create: boolean): Promise<{ id: number; name: string }[]> {
    const rows = await db.query<{ id: number; name: string }>(
      "select id, document->>'name' as name from resources where kind = $1 and company_id = $2 and lower(document->>'name') = any($3::text[])",
      [tagKind, caller.companyId, names.map((name) => name.toLowerCase())],
    );
    const missing = names.filter((name) => !rows.some((row) => row.name.toLowerCase() === name.toLowerCase()));
    if (missing.length && !create) throw fieldError('tags', `Unknown tag "${missing[0]}".`);
    if (missing.length && !caller.permissions.has('devices.add_tag')) throw new HttpError(403, { detail: `Tag "${missing[0]}" does not exist and you may not create tags.` });
    for (const name of missing) {
      const [row] = await db.query<{ id: number }>('insert into resources (kind, company_id, document) values ($1, $2, $3) returning id', [tagKind, caller.companyId, JSON.stringify({ name, description: '', color: '#5b6b8c' })]);
      rows.push({ id: row.id, name });
    }
    return rows;
  }
}
