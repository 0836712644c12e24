import { noteChange } from '../activities/activityChanges.js';
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/database.js';
import type { Caller } from '../identity/callers.js';
import { fieldError, Invalid, notFound } from '../errors.js';
import { pageWindow, paginated, type ListQuery } from '../http/pagination.js';
import { callerOf, type Access, type RouteCatalogue } from '../http/routes.js';
import { allSchemas, type JsonSchema } from '../http/validators.js';
import { containsPattern } from '../db/likePatterns.js';

type ResourceDeclaration = {
  path: string;
  scope: 'tenant' | 'global';
  custom?: true;
  permissions: Record<'view' | 'add' | 'change' | 'delete', Access>;
  search?: string[];
};
type PropertySchema = { readOnly?: boolean; 'x-unique'?: true; title?: string };
type Document = Record<string, unknown>;
type ResourceRow = { id: number; document: Document; created_at: Date; updated_at: Date };

/** A schema served by the generic layer: its kind (the schema id) and what its `x-resource` declares. */
export type GenericResource = { kind: string; schema: JsonSchema; declaration: ResourceDeclaration; properties: Record<string, PropertySchema> };

/** Every entity schema with an `x-resource` that is not served by hand-written routes. */
export function genericResources(): GenericResource[] {
  return allSchemas()
    .filter((schema) => schema['x-resource'] && !(schema['x-resource'] as ResourceDeclaration).custom)
    .map((schema) => ({
      kind: schema.$id,
      schema,
      declaration: schema['x-resource'] as ResourceDeclaration,
      properties: (schema.properties ?? {}) as Record<string, PropertySchema>,
    }));
}

/** Strips the properties the server owns (`readOnly`): `{id: 9, name: "x"}` → `{name: "x"}`. */
function writableFields(resource: GenericResource, body: Document): Document {
  return Object.fromEntries(Object.entries(body).filter(([key]) => !resource.properties[key]?.readOnly));
}

function describe(resource: GenericResource, row: ResourceRow): Document {
  const timestamps = Object.fromEntries(
    (['created_at', 'updated_at'] as const).filter((key) => key in resource.properties).map((key) => [key, row[key]]),
  );
  return { id: row.id, ...row.document, ...timestamps };
}

/** Tenant resources belong to the caller's company; `null` company marks global rows. */
const scopeOf = (resource: GenericResource, caller: Caller): number | null => (resource.declaration.scope === 'tenant' ? caller.companyId : null);
const scopeFilter = 'kind = $1 and company_id is not distinct from $2';

async function checkUnique(db: Queryable, resource: GenericResource, companyId: number | null, document: Document, id: number | null): Promise<void> {
  const errors: Record<string, string[]> = {};
  for (const [field, property] of Object.entries(resource.properties)) {
    if (!property['x-unique'] || typeof document[field] !== 'string') continue;
    const taken = await db.query(`select 1 from resources where ${scopeFilter} and lower(document->>$3) = lower($4) and id <> coalesce($5::int, 0)`, [
      resource.kind, companyId, field, document[field], id,
    ]);
    if (taken.length) errors[field] = [`A ${String(resource.schema.title ?? 'record').toLowerCase()} with this ${field.replace(/_/g, ' ')} already exists.`];
  }
  if (Object.keys(errors).length) throw new Invalid(errors);
}

/** list/get/create/update/delete for one schema, validated by it and stored as a JSONB document. */
function registerResource(routes: RouteCatalogue, context: AppContext, resource: GenericResource): void {
  const { db } = context;
  const { path, permissions, search = [] } = resource.declaration;
  const name = resource.kind.replace(/^cartograph:entities\//, '').replace(/-/g, '_');
  const title = String(resource.schema.title ?? name);
  const load = async (caller: Caller, id: number): Promise<ResourceRow> => {
    const [row] = await db.query<ResourceRow>(`select id, document, created_at, updated_at from resources where ${scopeFilter} and id = $3`, [resource.kind, scopeOf(resource, caller), id]);
    if (!row) throw notFound();
    return row;
  };

  routes.add({
    method: 'GET', url: path, name: `${name}.list`, summary: `List ${title.toLowerCase()}s`, access: permissions.view, query: 'cartograph:api/list-query',
    handler: async (request) => {
      const caller = callerOf(request);
      const query = request.query as ListQuery;
      const { limit, offset } = pageWindow(query);
      const orderField = query.ordering?.replace(/^-/, '');
      if (orderField && !(orderField in resource.properties)) throw fieldError('ordering', `Ordering by "${orderField}" is not supported.`);
      const filter = `${scopeFilter} and ($3::text is null or exists (select 1 from unnest($4::text[]) field where document->>field ilike $3))`;
      const params = [resource.kind, scopeOf(resource, caller), query.search ? containsPattern(query.search) : null, search];
      const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from resources where ${filter}`, params);
      const direction = query.ordering?.startsWith('-') ? 'desc' : 'asc';
      const byDocumentField = orderField !== undefined && orderField !== 'id';
      const order = byDocumentField ? `document->$7 ${direction}, id` : `id ${direction}`;
      const rows = await db.query<ResourceRow>(
        `select id, document, created_at, updated_at from resources where ${filter} order by ${order} limit $5 offset $6`,
        [...params, limit, offset, ...(byDocumentField ? [orderField] : [])],
      );
      return paginated(request, query, count, rows.map((row) => describe(resource, row)));
    },
  });
  routes.add({
    method: 'POST', url: path, name: `${name}.create`, summary: `Create a ${title.toLowerCase()}`, access: permissions.add, body: resource.kind, status: 201,
    handler: async (request) => {
      const caller = callerOf(request);
      const document = writableFields(resource, request.body as Document);
      await checkUnique(db, resource, scopeOf(resource, caller), document, null);
      const [row] = await db.query<ResourceRow>('insert into resources (kind, company_id, document) values ($1, $2, $3) returning id, document, created_at, updated_at', [
        resource.kind, scopeOf(resource, caller), JSON.stringify(document),
      ]);
      const created = describe(resource, row);
      noteChange(request, { targetId: row.id, before: null, after: created });
      return created;
    },
  });
  routes.add({
    method: 'GET', url: `${path}/:id`, name: `${name}.read`, summary: `Read a ${title.toLowerCase()}`, access: permissions.view, params: 'cartograph:api/id-params',
    handler: async (request) => describe(resource, await load(callerOf(request), (request.params as { id: number }).id)),
  });
  for (const method of ['PUT', 'PATCH'] as const) {
    routes.add({
      method, url: `${path}/:id`, name: `${name}.${method === 'PUT' ? 'update' : 'partial_update'}`, summary: `Change a ${title.toLowerCase()}`,
      access: permissions.change, params: 'cartograph:api/id-params', body: method === 'PUT' ? resource.kind : `${resource.kind}-patch`,
      handler: async (request) => {
        const caller = callerOf(request);
        const existing = await load(caller, (request.params as { id: number }).id);
        const changes = writableFields(resource, request.body as Document);
        const document = method === 'PUT' ? changes : { ...existing.document, ...changes };
        await checkUnique(db, resource, scopeOf(resource, caller), document, existing.id);
        const [row] = await db.query<ResourceRow>('update resources set document = $2, updated_at = now() where id = $1 returning id, document, created_at, updated_at', [
          existing.id, JSON.stringify(document),
        ]);
        const changed = describe(resource, row);
        noteChange(request, { before: describe(resource, existing), after: changed });
        return changed;
      },
    });
  }
  routes.add({
    method: 'DELETE', url: `${path}/:id`, name: `${name}.delete`, summary: `Delete a ${title.toLowerCase()}`, access: permissions.delete, params: 'cartograph:api/id-params',
    handler: async (request) => {
      const existing = await load(callerOf(request), (request.params as { id: number }).id);
      await db.query('delete from resources where id = $1', [existing.id]);
      noteChange(request, { before: describe(resource, existing), after: null });
    },
  });
}

/** Serves every generic resource schema; adding an entity is adding a schema file. */
export function registerGenericResources(routes: RouteCatalogue, context: AppContext): void {
  for (const resource of genericResources()) registerResource(routes, context, resource);
}
