import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/database.js';
import { searchInventory, type InventorySearch } from '../../inventory/search.js';
import { resolveSnapshot } from '../../inventory/snapshots.js';
import { findingStatusCounts, listFindings, listInstallations, readFinding, setFindingStatus, softwareVersions, type FindingStatus, type LinkFilter } from '../../inventory/softwareLinks.js';
import { notFound } from '../errors.js';
import { pageWindow, paginated, type ListQuery } from '../pagination.js';
import { callerOf, type Access, type RouteCatalogue } from '../routes.js';
import { snapshotConnections } from '../../inventory/snapshotConnections.js';

type LinkQuery = ListQuery & LinkFilter & { index_id?: number };
type AssetRow = { asset_id: string; fields: Record<string, unknown[]> };

const softwareGroupKind = 'cartograph:entities/software-group';

// The two inventories' searches, at the reference API's paths, with the device search's body.
const searches: { path: string; entity: string; name: string; access: Access }[] = [
  { path: '/appinventory/applications', entity: 'software', name: 'applications', access: 'users.view_applications' },
  { path: '/avm/vulnerabilities', entity: 'vulnerability', name: 'vulnerabilities', access: 'users.view_avm_vulnerabilities' },
];

/** One asset of a snapshot by its id, or by its name field (case-insensitive) when no id matches. */
async function readAsset(db: Queryable, discoveryId: number, entity: string, nameField: string, idOrName: string): Promise<AssetRow> {
  const select = 'select asset_id, fields from snapshot_assets where discovery_id = $1 and entity = $2';
  const [asset] = (await db.query<AssetRow>(`${select} and asset_id = $3`, [discoveryId, entity, idOrName])).concat(
    await db.query<AssetRow>(`${select} and lower(fields->$4->>0) = lower($3) order by asset_id limit 1`, [discoveryId, entity, idOrName, nameField]),
  );
  if (!asset) throw notFound();
  return asset;
}

/**
 * The software and vulnerability inventories at the reference API's paths (`/appinventory/applications`,
 * `/avm/vulnerabilities`: the search and scroll bodies of `/devices/devices`), their details, the installations
 * and findings lists the detail pages and device panels read, analysts' finding statuses, and the software a group
 * holds.
 */
export function registerSoftwareInventoryRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  for (const inventory of searches) {
    routes.add({
      method: 'POST', url: inventory.path, name: `${inventory.name}.search`, summary: `Search the ${inventory.entity} inventory`, access: inventory.access, body: 'cartograph:api/inventory-search',
      handler: (request) => searchInventory(db, callerOf(request), inventory.entity, request.body as InventorySearch),
    });
  }
  // The installations and findings of a snapshot, filtered and paged the same way.
  const linkList = (url: string, name: string, summary: string, access: Access, list: (companyId: number, discoveryId: number, query: LinkQuery, limit: number, offset: number) => Promise<{ count: number; rows: object[] }>) =>
    routes.add({
      method: 'GET', url, name, summary, access, query: 'cartograph:api/link-list-query',
      handler: async (request) => {
        const caller = callerOf(request);
        const query = request.query as LinkQuery;
        const discoveryId = await resolveSnapshot(db, caller.companyId, query.index_id);
        const { limit, offset } = pageWindow(query);
        const { count, rows } = await list(caller.companyId, discoveryId, query, limit, offset);
        return paginated(request, query, count, rows.map((row) => ({ ...row, index_id: discoveryId })));
      },
    });
  routes.add({
    method: 'POST', url: '/appinventory/applications/:id', name: 'applications.detail', summary: 'One software with its versions and how many devices have each', access: 'users.view_application_detail',
    params: 'cartograph:api/asset-params', body: 'cartograph:api/inventory-detail',
    handler: async (request) => {
      const discoveryId = await resolveSnapshot(db, callerOf(request).companyId, (request.body as { index_id?: number | null } | undefined)?.index_id);
      const asset = await readAsset(db, discoveryId, 'software', 'Name', (request.params as { id: string }).id);
      // The links the publish wrote, which the software's VulnerabilityCount counts.
      const vulnerabilities = await db.query<{ id: string; cve_id: string | null; title: string | null; severity: string | null; score: number | null }>(
        `select v.asset_id as id, v.fields->'CveId'->>0 as cve_id, v.fields->'Title'->>0 as title, v.fields->'Severity'->>0 as severity, (v.fields->'Score'->>0)::float8 as score
           from snapshot_software_vulnerabilities l
           join snapshot_assets v on v.discovery_id = l.discovery_id and v.entity = 'vulnerability' and v.asset_id = l.vulnerability_asset
          where l.discovery_id = $1 and l.software_asset = $2
          order by (v.fields->'SeverityLevel'->>0)::int desc nulls last, v.asset_id limit 500`,
        [discoveryId, asset.asset_id],
      );
      return { ...asset.fields, PrimaryKey: [asset.asset_id], index_id: discoveryId, connections: await snapshotConnections(db, discoveryId), versions: await softwareVersions(db, discoveryId, asset.asset_id), vulnerabilities };
    },
  });
  linkList('/appinventory/installations', 'installations.list', 'Installations (device, software, version) of a snapshot, each source folded in', 'users.view_applications', (_, discoveryId, query, limit, offset) =>
    listInstallations(db, discoveryId, query, limit, offset),
  );
  routes.add({
    method: 'POST', url: '/appinventory/groups/:id/applications', name: 'software_group.applications', summary: 'Search the software a group holds (its query, or picked by hand)', access: 'appinventory.view_group',
    params: 'cartograph:api/id-params', body: 'cartograph:api/inventory-search',
    handler: async (request) => {
      const caller = callerOf(request);
      const [group] = await db.query<{ document: { query?: string; software?: string[] } }>('select document from resources where kind = $1 and company_id = $2 and id = $3', [softwareGroupKind, caller.companyId, (request.params as { id: number }).id]);
      if (!group) throw notFound();
      const members = [group.document.query?.trim() ? `(${group.document.query})` : '', ...(group.document.software ?? []).map((id) => `PrimaryKey = "${id}"`)].filter(Boolean);
      const search = request.body as InventorySearch;
      const held = members.length ? members.join(' OR ') : 'PrimaryKey = none';
      return searchInventory(db, caller, 'software', { ...search, query: search.query?.trim() ? `(${held}) AND (${search.query})` : held });
    },
  });

  routes.add({
    method: 'POST', url: '/avm/vulnerabilities/:id', name: 'vulnerabilities.detail', summary: 'One vulnerability with its scores, sources and how many findings have each status', access: 'users.view_avm_vulnerabilities',
    params: 'cartograph:api/asset-params', body: 'cartograph:api/inventory-detail',
    handler: async (request) => {
      const caller = callerOf(request);
      const discoveryId = await resolveSnapshot(db, caller.companyId, (request.body as { index_id?: number | null } | undefined)?.index_id);
      const asset = await readAsset(db, discoveryId, 'vulnerability', 'CveId', (request.params as { id: string }).id);
      return { ...asset.fields, PrimaryKey: [asset.asset_id], index_id: discoveryId, connections: await snapshotConnections(db, discoveryId), finding_statuses: await findingStatusCounts(db, caller.companyId, discoveryId, asset.asset_id) };
    },
  });
  linkList('/avm/findings', 'findings.list', 'Vulnerability findings (device, vulnerability) with their status, the most severe first', 'users.view_avm_vulnerabilities', (companyId, discoveryId, query, limit, offset) =>
    listFindings(db, companyId, discoveryId, query, limit, offset),
  );
  routes.add({
    method: 'POST', url: '/avm/findings/:id/status', name: 'findings.set_status', summary: 'Set a finding open, fixed, false positive or risk accepted, with the reason', access: 'avm.add_vulnerabilityfalsepositive',
    params: 'cartograph:api/finding-params', body: 'cartograph:api/finding-status',
    handler: async (request) => {
      const caller = callerOf(request);
      const findingId = (request.params as { id: string }).id;
      const discoveryId = await resolveSnapshot(db, caller.companyId, null);
      if (!(await readFinding(db, caller.companyId, discoveryId, findingId))) throw notFound();
      const body = request.body as { status: FindingStatus; reason: string };
      await setFindingStatus(db, caller.companyId, discoveryId, findingId, body.status, body.reason, { id: caller.userId, name: caller.username });
      return { ...(await readFinding(db, caller.companyId, discoveryId, findingId)), index_id: discoveryId };
    },
  });
}
