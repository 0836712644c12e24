import { pseudoAdapters } from '../../adapters/catalogue.js';
import { customAdapterColumns, type CustomAdapterRow } from '../../adapters/custom/customCatalogue.js';
import { customEntities, entityFieldCatalogue, identifierFieldsOf, type CustomEntity } from '../../adapters/custom/entityFields.js';
import type { CustomFieldDefinition } from '../../adapters/custom/customEngine.js';
import { fieldsOfEntity } from '../../adapters/files/fieldMapping.js';
import { removeUpload } from '../../adapters/files/fileSource.js';
import type { AppContext } from '../../context.js';
import type { Caller } from '../../identity/callers.js';
import { fieldError, notFound } from '../errors.js';
import { orderByClause, pageWindow, paginated, type ListQuery } from '../pagination.js';
import { callerOf, type RouteCatalogue } from '../routes.js';
import { adapterStatus, mayUseAdapter } from './adapters.js';
import { registerCustomAdapterUploadRoutes } from './customAdapterUploads.js';
import { containsPattern } from '../../db/likePatterns.js';

type CustomAdapterBody = {
  name: string; slug?: string; description?: string; categories?: string[]; entity: CustomEntity; file_type?: 'csv' | 'xlsx'; delimiter?: string;
  fields: CustomFieldDefinition[];
};

/** A custom adapter shaped like the catalogue's adapters, marked `custom` with status done (spec §3), with its definition. */
export function describeCustomAdapter(row: CustomAdapterRow & { connection_count?: number }) {
  return {
    id: row.id, name: row.name, slug: row.slug, description: row.description, groups: [], beta: false, custom: true,
    status: adapterStatus.done, categories: row.categories, entity: row.entity, file_type: row.file_type, delimiter: row.delimiter, fields: row.fields,
    connection_count: row.connection_count ?? 0, created_at: row.created_at, updated_at: row.updated_at,
  };
}

/** A slug from a name: `In-house CMDB (EU)` → `in-house-cmdb-eu`. */
const slugOf = (name: string) => name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);

/**
 * The checks the schema cannot make: column names unique, mapped fields known for the entity, at least one
 * identifier and every identifier feeding a field records can be correlated by.
 */
function checkDefinition(body: CustomAdapterBody): void {
  const seen = new Set<string>();
  const known = new Set(fieldsOfEntity(body.entity));
  const identifying = identifierFieldsOf(body.entity);
  for (const field of body.fields) {
    const column = field.column.trim();
    if (!column) throw fieldError('fields', 'Every column needs a name: one of the columns has none.');
    if (seen.has(column.toLowerCase())) throw fieldError('fields', `The column "${column}" appears twice: column names must be unique.`);
    seen.add(column.toLowerCase());
    if (field.field && !known.has(field.field)) throw fieldError('fields', `The column "${column}" is mapped to ${field.field}, which is not a field of the ${body.entity} entity.`);
    if (field.identifier && !field.field) throw fieldError('fields', `The identifier column "${column}" must be mapped to a field.`);
    if (field.identifier && !identifying.includes(field.field!)) {
      throw fieldError('fields', `The column "${column}" cannot identify a ${body.entity}: its field ${field.field} is not one records are correlated by (${identifying.join(', ')}).`);
    }
  }
  if (!body.fields.some((field) => field.identifier)) throw fieldError('fields', `Choose at least one identifier column (mapped to one of ${identifying.join(', ')}), so the records can be correlated.`);
}

/**
 * `/customs/adapters`: the company's custom adapters (sources defined from a CSV or XLSX sample), listed beside the
 * catalogue's adapters, created, changed and deleted; and the uploads of samples and data files.
 */
export function registerCustomAdapterRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  const load = async (caller: Caller, id: number): Promise<CustomAdapterRow & { connection_count: number }> => {
    const [row] = await db.query<CustomAdapterRow & { connection_count: number }>(
      `select ${customAdapterColumns}, (select count(*)::int from connections c where c.company_id = a.company_id and c.adapter = a.slug) as connection_count
         from custom_adapters a where id = $1 and company_id = $2`,
      [id, caller.companyId],
    );
    // Groups grant custom adapters by slug like the catalogue's: one the caller may not use does not exist for them.
    if (!row || !mayUseAdapter(caller, row.slug)) throw notFound();
    return row;
  };

  routes.add({
    method: 'GET', url: '/customs/adapters', name: 'custom_adapters.list', summary: 'List the custom adapters of the company',
    access: 'customs.view_data', query: 'cartograph:api/list-query',
    handler: async (request) => {
      const caller = callerOf(request);
      const query = request.query as ListQuery;
      const { limit, offset } = pageWindow(query);
      // Groups grant adapters by slug, custom ones included; `*` grants all.
      const allowed = caller.adapters.includes('*') ? null : caller.adapters;
      const filter = 'company_id = $1 and ($2::text is null or name ilike $2 or slug ilike $2) and ($3::text[] is null or slug = any($3))';
      const params = [caller.companyId, query.search ? containsPattern(query.search) : null, allowed];
      const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from custom_adapters where ${filter}`, params);
      const order = orderByClause(query.ordering, { id: 'id', slug: 'slug', name: 'lower(name)' }, 'id');
      const rows = await db.query<CustomAdapterRow & { connection_count: number }>(
        `select ${customAdapterColumns}, (select count(*)::int from connections c where c.company_id = a.company_id and c.adapter = a.slug) as connection_count
           from custom_adapters a where ${filter} order by ${order} limit $4 offset $5`,
        [...params, limit, offset],
      );
      return paginated(request, query, count, rows.map(describeCustomAdapter));
    },
  });
  routes.add({
    method: 'GET', url: '/customs/adapters/entity-fields', name: 'custom_adapters.entity_fields', summary: 'The fields of each entity a custom adapter column can be mapped to',
    // The same for every company and caller (the entity fields of the product), needed by whoever reads a sample.
    access: 'authenticated',
    handler: async () => ({ entities: entityFieldCatalogue(), categories: customEntities }),
  });
  routes.add({
    method: 'GET', url: '/customs/adapters/:id', name: 'custom_adapters.read', summary: 'One custom adapter with its field mapping',
    access: 'customs.view_data', params: 'cartograph:api/id-params',
    handler: async (request) => describeCustomAdapter(await load(callerOf(request), (request.params as { id: number }).id)),
  });
  routes.add({
    method: 'POST', url: '/customs/adapters', name: 'custom_adapters.create', summary: 'Define a custom adapter from the fields of a sample',
    access: 'customs.add_data', body: 'cartograph:api/custom-adapter-write', status: 201,
    handler: async (request) => {
      const caller = callerOf(request);
      const body = request.body as CustomAdapterBody;
      checkDefinition(body);
      const slug = body.slug ?? slugOf(body.name);
      if (slug.length < 2) throw fieldError('slug', 'The name gives no usable slug: choose a slug of lower-case letters, digits and dashes.');
      if (context.adapters.catalogue.has(slug) || pseudoAdapters.some((adapter) => adapter.slug === slug)) throw fieldError('slug', `"${slug}" is the slug of a built-in adapter: choose another.`);
      const taken = await db.query('select 1 from custom_adapters where company_id = $1 and slug = $2', [caller.companyId, slug]);
      // A slug made from the name is the name's to answer for: the form shows the name, not the slug.
      if (taken.length && body.slug === undefined) throw fieldError('name', `A custom adapter with this name (slug "${slug}") already exists: choose another name.`);
      if (taken.length) throw fieldError('slug', `A custom adapter with the slug "${slug}" already exists.`);
      const [{ id }] = await db.query<{ id: number }>(
        `insert into custom_adapters (company_id, slug, name, description, categories, entity, file_type, delimiter, fields) values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id`,
        [caller.companyId, slug, body.name, body.description ?? '', body.categories ?? [customEntities[body.entity]], body.entity, body.file_type ?? 'csv', body.delimiter ?? ',', JSON.stringify(body.fields)],
      );
      return describeCustomAdapter(await load(caller, id));
    },
  });
  routes.add({
    method: 'PUT', url: '/customs/adapters/:id', name: 'custom_adapters.update', summary: 'Change a custom adapter (its slug stays)',
    access: 'customs.change_data', params: 'cartograph:api/id-params', body: 'cartograph:api/custom-adapter-write',
    handler: async (request) => {
      const caller = callerOf(request);
      const existing = await load(caller, (request.params as { id: number }).id);
      const body = request.body as CustomAdapterBody;
      if (body.slug !== undefined && body.slug !== existing.slug) throw fieldError('slug', 'A custom adapter keeps its slug: its connections and group grants name it.');
      checkDefinition(body);
      await db.query(
        `update custom_adapters set name = $2, description = $3, categories = $4, entity = $5, file_type = $6, delimiter = $7, fields = $8, updated_at = now() where id = $1`,
        [existing.id, body.name, body.description ?? existing.description, body.categories ?? [customEntities[body.entity]], body.entity, body.file_type ?? existing.file_type,
          body.delimiter ?? existing.delimiter, JSON.stringify(body.fields)],
      );
      return describeCustomAdapter(await load(caller, existing.id));
    },
  });
  routes.add({
    method: 'DELETE', url: '/customs/adapters/:id', name: 'custom_adapters.delete', summary: 'Delete a custom adapter and its connections',
    access: 'customs.delete_data', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const caller = callerOf(request);
      const existing = await load(caller, (request.params as { id: number }).id);
      const removed = await db.transaction(async (transaction) => {
        const connections = await transaction.query<{ config: Record<string, unknown> }>('delete from connections where company_id = $1 and adapter = $2 returning config', [caller.companyId, existing.slug]);
        await transaction.query('delete from custom_adapters where id = $1', [existing.id]);
        return connections;
      });
      // Files uploaded for its connections are read by nothing else (only once the rows are gone for good).
      for (const connection of removed) await removeUpload(context.config.dataDir, connection.config.source);
    },
  });
  registerCustomAdapterUploadRoutes(routes, context, load);
}
