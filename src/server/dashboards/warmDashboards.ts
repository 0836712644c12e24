import { logSystemEvent } from '../activities/activityLog.js';
import type { CoreContext } from '../context.js';
import { chartKind, dashboardKind, widgetKind, type StoredRow } from './dashboardStore.js';
import { tileError } from './dashboardData.js';
import { cachedCompute, chartItems, widgetItems } from './itemRoutes.js';
import { dataFingerprint, pruneStoredResults } from './widgetCache.js';

// The most tiles one warming computes: a company with many dashboards gets its default dashboard and the first
// ones of the menu ready, and a discovery never leaves a long tail of work behind it.
const maximumWarmedTiles = 60;

/**
 * Computes the company's dashboard tiles into the widget cache (this process's memory and the stored results every
 * process reads), one after the other, after deleting the stored results of older data, so the first dashboard
 * opened after a discovery published its snapshot, here or in another process, is answered from the cache (tiles
 * that move with the clock are computed again once the minute has passed). Run in the background right after the
 * publish: it never throws, a tile that cannot be computed is left to the request that shows its error, and
 * anything else that stops it is written to the system log.
 */
export async function warmDashboards(context: CoreContext, companyId: number): Promise<void> {
  try {
    const tiles = await context.db.query<StoredRow & { kind: string; owner_id: number | null }>(
      `select tile.id, tile.kind, tile.document, (dashboard.document->>'created_by')::int as owner_id from resources tile
         join resources dashboard on dashboard.kind = $2 and dashboard.company_id = tile.company_id and dashboard.id = (tile.document->>'dashboard')::int
        where tile.kind = any($1::text[]) and tile.company_id = $3
        order by (dashboard.document->>'is_default')::boolean is true desc, (dashboard.document->>'position')::int nulls last, dashboard.id, tile.id
        limit $4`,
      [[chartKind, widgetKind], dashboardKind, companyId, maximumWarmedTiles],
    );
    const fingerprint = await dataFingerprint(context.db, companyId);
    await pruneStoredResults(context.db, companyId, fingerprint);
    for (const tile of tiles) {
      // A tile's own error is shown by the request that asks for it; anything else stops the warming. No one asks
      // here: the tile expands the saved queries its dashboard's owner may read (the built-in dashboard has no owner,
      // so only public ones), and a tile whose queries are someone's private ones is computed when they ask.
      const reader = { companyId, userId: tile.owner_id };
      await cachedCompute(tile.kind === chartKind ? chartItems : widgetItems, context, reader, tile.document, fingerprint).catch(tileError);
    }
  } catch (error) {
    const message = `The dashboards of company ${companyId} were not computed ahead: ${(error as Error).message}`;
    await logSystemEvent(context.db, 'warning', 'dashboard_warming_failed', message).catch(() => undefined);
  }
}
