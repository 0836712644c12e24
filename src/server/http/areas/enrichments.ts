import type { AppContext } from '../../context.js';
import { likePattern, orderByClause, pageWindow, paginated, type ListQuery } from '../pagination.js';
import { type RouteCatalogue } from '../routes.js';

type EnrichmentRow = {
  slug: string; name: string; description: string; status: string; status_detail: string; record_count: number; last_imported_at: Date | null;
};

/**
 * `GET /avm/enrichments`: the public feeds Cartograph's own vulnerability management imports (NVD CVE, CISA KEV,
 * FIRST EPSS), with when each was last imported, how many records it holds and its status (`never_imported` until
 * its first import). The feeds are public data shared by every company.
 */
export function registerEnrichmentRoutes(routes: RouteCatalogue, context: AppContext): void {
  routes.add({
    method: 'GET', url: '/avm/enrichments', name: 'enrichments.list', summary: 'List the vulnerability enrichment feeds and their imports',
    access: 'avm.view_vulnerabilityenrichment', query: 'cartograph:api/list-query',
    handler: async (request) => {
      const query = request.query as ListQuery;
      const { limit, offset } = pageWindow(query);
      const filter = '($1::text is null or name ilike $1 or slug ilike $1)';
      const params = [query.search ? likePattern(query.search) : null];
      const [{ count }] = await context.db.query<{ count: number }>(`select count(*)::int as count from enrichments where ${filter}`, params);
      const order = orderByClause(query.ordering, { slug: 'slug', name: 'lower(name)', status: 'status', last_imported_at: 'last_imported_at', record_count: 'record_count' }, 'position');
      const rows = await context.db.query<EnrichmentRow>(
        `select slug, name, description, status, status_detail, record_count, last_imported_at from enrichments where ${filter} order by ${order} limit $2 offset $3`,
        [...params, limit, offset],
      );
      return paginated(request, query, count, rows);
    },
  });
}
