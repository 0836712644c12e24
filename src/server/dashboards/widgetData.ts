import type { Database, Queryable } from '../db/database.js';
import type { Snapshot } from '../inventory/snapshots.js';
import { widgetStatementTimeoutMs } from './snapshotScope.js';
import { snapshotReadSettings } from '../inventory/snapshots.js';
import type { WidgetDataResponse, WidgetDisplay } from '../../core/dashboards/widgetData.js';
import type { SourceGrouping } from './sourceSegments.js';


// The shared answer shape (src/core/dashboards/widgetData.ts) under the names the computations use.
export type Display = WidgetDisplay;
export type WidgetData = WidgetDataResponse;

/** The widget settings computations read (the stored document, with schema defaults). */
export type WidgetSettings = {
  kind: string;
  inventory: string;
  query: string;
  saved_queries: number[];
  field: string;
  days: number;
  limit: number;
  /** Source-grouped widgets (device discovery, vulnerability by source): per connection or per adapter. */
  sources: SourceGrouping;
};

/**
 * What every computation is given. `snapshot` is read as the latest (a report run against an older snapshot); the
 * company's newest published one when absent, as on dashboards. `userId` is whose saved queries `Query is <id>` may
 * expand (savedQueryStore.ts): the caller who asks, or the owner of the dashboard or report computed in the background.
 */
export type WidgetContext = { db: Database; companyId: number; userId: number | null; now: Date; snapshot?: Snapshot };

/** Runs a computation's SQL in one read transaction under the widget statement timeout. */
export async function withTimeout<T>(db: Database, work: (connection: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (connection) => {
    await connection.exec(`set local statement_timeout = ${widgetStatementTimeoutMs}; ${snapshotReadSettings}`);
    return work(connection);
  });
}

/** An empty result with the sentence that tells the user what fills it. */
export function emptyResult(settings: Pick<WidgetSettings, 'kind' | 'inventory'>, display: Display, message: string, indexId: number | null = null): WidgetData {
  return { kind: settings.kind, display, inventory: settings.inventory, index_id: indexId, rows: [], message };
}

export const noSnapshotMessage = 'No discovery has completed yet: add a connection and run a discovery to fill this widget.';
