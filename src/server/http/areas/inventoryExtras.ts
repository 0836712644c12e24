import type { AppContext } from '../../context.js';
import { dependencyMap } from '../../inventory/dependencyMap.js';
import { exportInventory, type InventoryExport } from '../../inventory/exports.js';
import { fieldValues, type FieldValuesQuery } from '../../inventory/fieldValues.js';
import { resolveSnapshot } from '../../inventory/snapshots.js';
import { pageWindow, paginated, type ListQuery } from '../pagination.js';
import { callerOf, type Access, type RouteCatalogue } from '../routes.js';
import { containsPattern } from '../../db/likePatterns.js';

type RelationQuery = ListQuery & { device?: string; kind?: 'device-user' | 'device-device'; index_id?: number };
type RelationRow = { id: string; kind: string; relation: string; device_asset: string; device_name: string | null; related_asset: string | null; related_name: string; related_label: string | null; adapters: string[]; port: string | null; vlan: string | null };

const exportsOf: { path: string; entity: string; name: string; access: Access }[] = [
  { path: '/devices/export', entity: 'device', name: 'devices.export', access: 'users.view_devices' },
  { path: '/userinventory/export', entity: 'user', name: 'user_inventory.export', access: 'users.view_user_inventory' },
  { path: '/appinventory/export', entity: 'software', name: 'applications.export', access: 'users.view_applications' },
  { path: '/avm/export', entity: 'vulnerability', name: 'vulnerabilities.export', access: 'users.view_avm_vulnerabilities' },
];

const valuesOf: { path: string; entity: string; name: string; access: Access }[] = [
  { path: '/devices/values', entity: 'device', name: 'devices.values', access: 'users.view_devices' },
  { path: '/userinventory/values', entity: 'user', name: 'user_inventory.values', access: 'users.view_user_inventory' },
];

const contentTypes = { csv: 'text/csv; charset=utf-8', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } as const;

/** Exports of the inventories (CSV and XLSX of exactly a list's view), the device relations list and a device's dependency map. */
export function registerInventoryExtraRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  for (const target of exportsOf) {
    routes.add({
      method: 'POST', url: target.path, name: target.name, summary: `Export the ${target.entity} list as CSV or XLSX (query, columns and sort as shown)`,
      access: target.access, body: 'cartograph:api/inventory-export',
      handler: async (request, reply) => {
        const body = request.body as InventoryExport;
        const stream = await exportInventory(db, callerOf(request), target.entity, body);
        const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
        reply.header('content-type', contentTypes[body.format]);
        reply.header('content-disposition', `attachment; filename="${target.entity === 'vulnerability' ? 'vulnerabilities' : `${target.entity}s`}-${stamp}.${body.format}"`);
        reply.header('cache-control', 'no-store');
        return stream;
      },
    });
  }
  for (const target of valuesOf) {
    routes.add({
      method: 'GET', url: target.path, name: target.name, summary: `The most frequent values of a ${target.entity} field, for the query bar's suggestions`,
      access: target.access, query: 'cartograph:api/field-values-query',
      handler: (request) => fieldValues(db, callerOf(request).companyId, target.entity, request.query as FieldValuesQuery),
    });
  }
  routes.add({
    method: 'GET', url: '/devices/relations', name: 'device_relations.list', summary: 'Device–user and device–device relations as sources report them',
    access: 'devices.view_devicerelation', query: 'cartograph:api/relation-list-query',
    handler: async (request) => {
      const query = request.query as RelationQuery;
      const discoveryId = await resolveSnapshot(db, callerOf(request).companyId, query.index_id);
      const { limit, offset } = pageWindow(query);
      const filter = `r.discovery_id = $1 and ($2::text is null or r.device_asset = $2) and ($3::text is null or r.kind = $3)
        and ($4::text is null or r.related_name ilike $4 or d.fields->'Hostname'->>0 ilike $4)`;
      const search = query.search ? containsPattern(query.search) : null;
      const params = [discoveryId, query.device ?? null, query.kind ?? null, search];
      const from = `from snapshot_relations r left join snapshot_assets d on d.discovery_id = r.discovery_id and d.entity = 'device' and d.asset_id = r.device_asset`;
      const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count ${from} where ${filter}`, params);
      const rows = await db.query<RelationRow>(
        `select r.id::text, r.kind, r.relation, r.device_asset, d.fields->'Hostname'->>0 as device_name, r.related_asset, r.related_name,
                coalesce(u.fields->'Hostname'->>0, u.fields->'Username'->>0, u.fields->'Email'->>0) as related_label, r.adapters, r.port, r.vlan
           ${from}
           left join snapshot_assets u on u.discovery_id = r.discovery_id and u.entity = case when r.kind = 'device-user' then 'user' else 'device' end and u.asset_id = r.related_asset
          where ${filter} order by lower(d.fields->'Hostname'->>0), r.id limit $5 offset $6`,
        [...params, limit, offset],
      );
      return paginated(request, query, count, rows.map((row) => ({
        id: Number(row.id), kind: row.kind, relation: row.relation, index_id: discoveryId, adapters: row.adapters, port: row.port, vlan: row.vlan,
        device: { id: row.device_asset, name: row.device_name },
        related: { id: row.related_asset, name: row.related_label ?? row.related_name, reported_as: row.related_name, entity: row.kind === 'device-user' ? 'user' : 'device' },
      })));
    },
  });
  routes.add({
    method: 'GET', url: '/devices/dependency-map', name: 'device_dependency_map.get', summary: "A device's dependency map: its neighbours (switch, access point, host, clients), its users and its software",
    access: 'devices.view_devicerelation', query: 'cartograph:api/dependency-map-query',
    handler: async (request) => {
      const query = request.query as { device: string; index_id?: number };
      return dependencyMap(db, await resolveSnapshot(db, callerOf(request).companyId, query.index_id), query.device);
    },
  });
}
