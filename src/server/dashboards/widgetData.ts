import type { Database, Queryable } from '../db/database.js';
import { widgetStatementTimeoutMs } from './snapshotScope.js';

/** How the console draws a result: bars, a pie, lines over time, big numbers, a table, or a list of facts. */
export type Display = 'bar' | 'pie' | 'line' | 'number' | 'table' | 'info';

/**
 * What a widget or chart answers. Row shapes by display:
 * bar/pie `{label, value, query?}`; line `{date, series, value, index_id}`; number `{label, value, previous?, query?}`;
 * table: one object per row with `columns` as keys; info `{label, value}`.
 * `query` is the inventory query that lists the records behind a row, for click-through.
 * `message` says why a result is empty and what fills it.
 */
export type WidgetData = {
  kind: string;
  display: Display;
  inventory: string;
  index_id: number | null;
  columns?: string[];
  rows: Record<string, unknown>[];
  total?: number;
  message?: string;
};

/** The widget settings computations read (the stored document, with schema defaults). */
export type WidgetSettings = {
  kind: string;
  inventory: string;
  query: string;
  saved_queries: number[];
  field: string;
  days: number;
  limit: number;
};

/** What every computation is given. */
export type WidgetContext = { db: Database; companyId: number; now: Date };

/** Runs a computation's SQL in one read transaction under the widget statement timeout. */
export async function withTimeout<T>(db: Database, work: (connection: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (connection) => {
    await connection.exec(`set local statement_timeout = ${widgetStatementTimeoutMs}`);
    return work(connection);
  });
}

/** An empty result with the sentence that tells the user what fills it. */
export function emptyResult(settings: Pick<WidgetSettings, 'kind' | 'inventory'>, display: Display, message: string, indexId: number | null = null): WidgetData {
  return { kind: settings.kind, display, inventory: settings.inventory, index_id: indexId, rows: [], message };
}

export const noSnapshotMessage = 'No discovery has completed yet: add a connection and run a discovery to fill this widget.';
