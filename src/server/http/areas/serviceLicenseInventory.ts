import type { AppContext } from '../../context.js';
import { exportInventory, type InventoryExport } from '../../inventory/exports.js';
import { searchInventory, type InventorySearch } from '../../inventory/search.js';
import { listLicenseAssignments, listServiceInstances, type ServiceLicenseFilter } from '../../inventory/serviceLicenseLinks.js';
import { resolveSnapshot } from '../../inventory/snapshots.js';
import { connectionNameOf } from '../../../core/connectionNames.js';
import { snapshotConnections } from '../../inventory/snapshotConnections.js';
import { notFound } from '../errors.js';
import { pageWindow, paginated, type ListQuery } from '../pagination.js';
import { callerOf, type Access, type RouteCatalogue } from '../routes.js';

type LinkQuery = ListQuery & ServiceLicenseFilter & { index_id?: number };
type AssetRow = { asset_id: string; fields: Record<string, unknown[]>; record_keys: string[] };

const contentTypes = { csv: 'text/csv; charset=utf-8', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } as const;

// The two inventories: search (the body of `/devices/devices`), detail and export, each under its own path.
const inventories: { path: string; entity: 'service' | 'license'; list: Access; detail: Access }[] = [
  { path: '/services/services', entity: 'service', list: 'users.view_services', detail: 'users.view_service_detail' },
  { path: '/licenses/licenses', entity: 'license', list: 'licenses.view_license', detail: 'licenses.view_license' },
];

/**
 * The service and license inventories: search, detail and export of each, the places each service runs (also a
 * device's services and open ports), and the users each license is assigned to.
 */
export function registerServiceLicenseRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  for (const inventory of inventories) {
    const plural = `${inventory.entity}s`;
    routes.add({
      method: 'POST', url: inventory.path, name: `${plural}.search`, summary: `Search the ${inventory.entity} inventory`, access: inventory.list, body: 'cartograph:api/inventory-search',
      handler: (request) => searchInventory(db, callerOf(request), inventory.entity, request.body as InventorySearch),
    });
    routes.add({
      method: 'POST', url: `${inventory.path}/:id`, name: `${plural}.detail`, summary: `One ${inventory.entity} of a snapshot, by id or name`, access: inventory.detail,
      params: 'cartograph:api/asset-params', body: 'cartograph:api/inventory-detail',
      handler: async (request) => {
        const discoveryId = await resolveSnapshot(db, callerOf(request).companyId, (request.body as { index_id?: number | null } | undefined)?.index_id);
        const id = (request.params as { id: string }).id;
        const select = 'select asset_id, fields, record_keys from snapshot_assets where discovery_id = $1 and entity = $2';
        const [asset] = (await db.query<AssetRow>(`${select} and asset_id = $3`, [discoveryId, inventory.entity, id])).concat(
          await db.query<AssetRow>(`${select} and lower(fields->'Name'->>0) = lower($3) order by asset_id limit 1`, [discoveryId, inventory.entity, id]),
        );
        if (!asset) throw notFound();
        // A license's entitlements as each source holds them (services keep no records: they are counted by place).
        const records = asset.record_keys.length
          ? await db.query<{ record_key: string; adapter: string; connection_id: number; fields: object }>(
            'select record_key, adapter, connection_id, fields from snapshot_records where discovery_id = $1 and record_key = any($2::text[]) order by adapter, connection_id, record_key',
            [discoveryId, asset.record_keys],
          )
          : [];
        const connections = await snapshotConnections(db, discoveryId);
        const sources = records.map((record) => ({ ...record, connection_name: connectionNameOf(connections, record.connection_id) }));
        return { ...asset.fields, PrimaryKey: [asset.asset_id], index_id: discoveryId, connections, ...(inventory.entity === 'license' && { sources }) };
      },
    });
    routes.add({
      method: 'POST', url: `/${plural}/export`, name: `${plural}.export`, summary: `Export the ${inventory.entity} list as CSV or XLSX (query, columns and sort as shown)`,
      access: inventory.list, body: 'cartograph:api/inventory-export',
      handler: async (request, reply) => {
        const body = request.body as InventoryExport;
        const stream = await exportInventory(db, callerOf(request), inventory.entity, body);
        const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
        reply.header('content-type', contentTypes[body.format]);
        reply.header('content-disposition', `attachment; filename="${plural}-${stamp}.${body.format}"`);
        reply.header('cache-control', 'no-store');
        return stream;
      },
    });
  }
  const linkList = (url: string, name: string, summary: string, access: Access, list: (discoveryId: number, query: LinkQuery, limit: number, offset: number) => Promise<{ count: number; rows: object[] }>) =>
    routes.add({
      method: 'GET', url, name, summary, access, query: 'cartograph:api/service-license-link-query',
      handler: async (request) => {
        const query = request.query as LinkQuery;
        const discoveryId = await resolveSnapshot(db, callerOf(request).companyId, query.index_id);
        const { limit, offset } = pageWindow(query);
        const { count, rows } = await list(discoveryId, query, limit, offset);
        return paginated(request, query, count, rows.map((row) => ({ ...row, index_id: discoveryId })));
      },
    });
  linkList('/services/instances', 'service_instances.list', 'Where services run (service, device or host, port) with state, start type and account, each source folded in', 'users.view_services', (discoveryId, query, limit, offset) =>
    listServiceInstances(db, discoveryId, query, limit, offset),
  );
  linkList('/licenses/assignments', 'license_assignments.list', 'Users licenses are assigned to, with the merged user each names', 'licenses.view_license', (discoveryId, query, limit, offset) =>
    listLicenseAssignments(db, discoveryId, query, limit, offset),
  );
}
