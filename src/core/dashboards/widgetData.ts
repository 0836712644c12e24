// The answer of a widget or chart computation: computed by the server, drawn by the console.

/** How the console draws a result: bars, a pie, lines over time, big numbers, a table, or a list of facts. */
export type WidgetDisplay = 'bar' | 'pie' | 'line' | 'number' | 'table' | 'info';

/**
 * What a widget or chart answers. Row shapes by display:
 * bar/pie `{label, value, query?}`; line `{date, series, value, index_id}`; number `{label, value, previous?, query?}`;
 * table: one object per row with `columns` as keys; info `{label, value}`.
 * `query` is the inventory query that lists the records behind a row, for click-through.
 * `message` says why a result is empty and what fills it.
 */
export type WidgetDataResponse = {
  kind: string;
  display: WidgetDisplay;
  inventory: string;
  index_id: number | null;
  columns?: string[];
  rows: Record<string, unknown>[];
  total?: number;
  message?: string;
};
