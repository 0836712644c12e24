import type { AppContext } from '../../context.js';
import { notFound } from '../errors.js';
import { pageWindow, paginated, type ListQuery } from '../pagination.js';
import { callerOf, type RouteCatalogue } from '../routes.js';

type ConnectorRow = { id: number; name: string; is_default: boolean; connection_count: number; created_at: Date };

const connectorSelect = `select k.id, k.name, k.is_default, k.created_at,
  (select count(*)::int from connections c where c.connector_id = k.id) as connection_count from connectors k`;

/**
 * Connectors: where a connection's fetches run. Every company has the built-in Default connector, which runs them
 * in the server's own workers.
 */
export function registerConnectorRoutes(routes: RouteCatalogue, context: AppContext): void {
  routes.add({
    method: 'GET', url: '/connectors/connectors', name: 'connectors.list', summary: 'List connectors', access: 'connectors.view_connector', query: 'cartograph:api/list-query',
    handler: async (request) => {
      const query = request.query as ListQuery;
      const { limit, offset } = pageWindow(query);
      const companyId = callerOf(request).companyId;
      const [{ count }] = await context.db.query<{ count: number }>('select count(*)::int as count from connectors where company_id = $1', [companyId]);
      const rows = await context.db.query<ConnectorRow>(`${connectorSelect} where k.company_id = $1 order by k.is_default desc, k.id limit $2 offset $3`, [companyId, limit, offset]);
      return paginated(request, query, count, rows.map((row) => ({ ...row, kind: 'local' })));
    },
  });
  routes.add({
    method: 'GET', url: '/connectors/connectors/:id', name: 'connectors.read', summary: 'Read a connector', access: 'connectors.view_connector', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const [row] = await context.db.query<ConnectorRow>(`${connectorSelect} where k.id = $1 and k.company_id = $2`, [(request.params as { id: number }).id, callerOf(request).companyId]);
      if (!row) throw notFound();
      return { ...row, kind: 'local' };
    },
  });
}
