import type { Database, Queryable } from '../db/database.js';
import { widgetDefaults } from './computeWidget.js';
import { dashboardKind, insertDocument, updateDocument, widgetKind, type Document } from './dashboardStore.js';

type Tile = { widget: Document; w: number; h: number };

// What a newcomer sees on `/`: the inventory's size and sources, its make-up, the state of discoveries and
// connections, and the security widgets (which say what fills them while their data is missing).
const defaultTiles: Tile[] = [
  // Half the width and five rows for the latest discovery: it lists a dozen facts (a count per inventory), all of
  // which must show at 1280 pixels.
  { widget: { name: 'Devices and users', kind: 'totals', days: 7 }, w: 3, h: 5 },
  { widget: { name: 'Latest discovery', kind: 'discovery_info' }, w: 6, h: 5 },
  { widget: { name: 'Next discoveries', kind: 'next_discoveries', limit: 3 }, w: 3, h: 5 },
  // Per connection: two tenants of one vendor, or four CSV exports, are four sources.
  { widget: { name: 'Devices per source', kind: 'device_discovery', sources: 'connection' }, w: 6, h: 4 },
  { widget: { name: 'Devices by operating system', kind: 'group_by', field: 'OS.Type' }, w: 6, h: 4 },
  { widget: { name: 'Inventory trend', kind: 'trend', days: 30 }, w: 6, h: 4 },
  { widget: { name: 'Connection statuses', kind: 'connection_statuses' }, w: 6, h: 4 },
  { widget: { name: 'Vulnerabilities by severity', kind: 'vulnerability_by_severity' }, w: 6, h: 4 },
  { widget: { name: 'Certificate expiry', kind: 'certificate_expiry' }, w: 6, h: 4 },
];


/** Creates the default dashboard of a company, with its widgets laid out two or three to a row. */
export async function createDefaultDashboard(db: Queryable, companyId: number): Promise<number> {
  const dashboard = await insertDocument(db, dashboardKind, companyId, {
    name: 'Overview', description: 'The inventory at a glance: created for every company at first start.', is_public: true, groups: [], is_default: true, position: 0, layout: [], created_by: null,
  });
  const layout: Document[] = [];
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  for (const tile of defaultTiles) {
    const widget = await insertDocument(db, widgetKind, companyId, { ...widgetDefaults, ...tile.widget, dashboard: dashboard.id });
    if (x + tile.w > 12) [x, y, rowHeight] = [0, y + rowHeight, 0];
    layout.push({ item: `widget:${widget.id}`, x, y, w: tile.w, h: tile.h });
    x += tile.w;
    rowHeight = Math.max(rowHeight, tile.h);
  }
  await updateDocument(db, dashboard.id, { ...dashboard.document, layout });
  return dashboard.id;
}

/**
 * Gives every company without a dashboard its default one: run at every start (for the first company and for
 * companies that existed before dashboards did) and when a company's dashboard list is first read. Serialized by
 * a transaction-level advisory lock so two processes starting together create one each, not two.
 */
export async function ensureDefaultDashboards(db: Database, companyId: number | null = null): Promise<void> {
  await db.transaction(async (connection) => {
    await connection.query("select pg_advisory_xact_lock(hashtext('cartograph.default-dashboards'))");
    const companies = await connection.query<{ id: number }>(
      'select c.id from companies c where ($1::int is null or c.id = $1) and not exists (select 1 from resources r where r.kind = $2 and r.company_id = c.id) order by c.id',
      [companyId, dashboardKind],
    );
    for (const company of companies) await createDefaultDashboard(connection, company.id);
  });
}
