import type { AppContext } from '../context.js';
import { DomainError } from '../errors.js';
import type { Caller } from '../identity/callers.js';
import { chartKind, widgetKind, type StoredRow } from './dashboardStore.js';
import { cachedCompute, chartItems, widgetItems } from './itemRoutes.js';
import { dataFingerprint } from './widgetCache.js';
import type { WidgetData } from './widgetData.js';

// How many tiles one dashboard request computes at once on PostgreSQL (the pool holds more connections).
const parallelTiles = 4;

type Tile = { item: string; id: number; type: 'chart' | 'widget'; name: string; data?: WidgetData; error?: unknown };

/**
 * The error a tile shows for a failure of its own (settings the data no longer fits, a query the statement
 * timeout stopped); any other failure is thrown on.
 */
export function tileError(error: unknown): unknown {
  if (error instanceof DomainError) return error.body;
  if ((error as { code?: string }).code === '57014') return { detail: 'This tile took longer than the statement timeout allows: narrow its query.' };
  throw error;
}

/**
 * Every chart and widget of a dashboard with its data, in one answer. One tile that cannot be computed (a saved
 * query deleted since, a query the timeout stops) carries its error; the others still answer.
 */
export async function computeDashboard(context: AppContext, caller: Caller, dashboard: StoredRow): Promise<{ id: number; computed_at: string; tiles: Tile[] }> {
  const rows = await context.db.query<StoredRow & { kind: string }>(
    "select id, kind, document, created_at, updated_at from resources where kind = any($1::text[]) and company_id = $2 and (document->>'dashboard')::int = $3 order by id",
    [[chartKind, widgetKind], caller.companyId, dashboard.id],
  );
  const viewCharts = caller.permissions.has('dashboards.view_chart');
  const fingerprint = await dataFingerprint(context.db, caller.companyId);
  const computable = rows.filter((row) => row.kind !== chartKind || viewCharts);
  const tiles: Tile[] = new Array(computable.length);
  const computeTile = async (index: number) => {
    const row = computable[index];
    const type = row.kind === chartKind ? 'chart' : 'widget';
    const tile: Tile = { item: `${type}:${row.id}`, id: row.id, type, name: String(row.document.name) };
    try {
      tile.data = await cachedCompute(type === 'chart' ? chartItems : widgetItems, context, caller, row.document, fingerprint);
    } catch (error) {
      tile.error = tileError(error);
    }
    tiles[index] = tile;
  };
  // PostgreSQL computes several tiles at once on separate pool connections; PGlite has one connection anyway.
  const lanes = context.db.engine === 'postgresql' ? parallelTiles : 1;
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(lanes, computable.length) }, async () => {
    while (next < computable.length) await computeTile(next++);
  }));
  return { id: dashboard.id, computed_at: new Date().toISOString(), tiles };
}
