import type { AppContext } from '../../context.js';
import { likePattern, orderByClause, pageWindow, paginated, type ListQuery } from '../pagination.js';
import { callerOf, type RouteCatalogue } from '../routes.js';
import { adapterStatus } from './adapters.js';

type CustomAdapterRow = { id: number; slug: string; name: string; description: string; categories: string[]; created_at: Date; updated_at: Date };

/**
 * `GET /customs/adapters`: the company's custom adapters (sources defined from a CSV or XLSX sample), shaped like the
 * catalogue's adapters and marked `custom` with status done (spec §3), so the console lists them beside the catalogue.
 */
export function registerCustomAdapterRoutes(routes: RouteCatalogue, context: AppContext): void {
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
      const params = [caller.companyId, query.search ? likePattern(query.search) : null, allowed];
      const [{ count }] = await context.db.query<{ count: number }>(`select count(*)::int as count from custom_adapters where ${filter}`, params);
      const order = orderByClause(query.ordering, { id: 'id', slug: 'slug', name: 'lower(name)' }, 'id');
      const rows = await context.db.query<CustomAdapterRow>(
        `select id, slug, name, description, categories, created_at, updated_at from custom_adapters where ${filter} order by ${order} limit $4 offset $5`,
        [...params, limit, offset],
      );
      return paginated(request, query, count, rows.map((row) => ({
        id: row.id, name: row.name, slug: row.slug, description: row.description, groups: [], beta: false, custom: true,
        status: adapterStatus.done, categories: row.categories, created_at: row.created_at, updated_at: row.updated_at,
      })));
    },
  });
}
