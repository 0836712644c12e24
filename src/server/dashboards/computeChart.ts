import { documentSql, fieldColumn } from '../query/fieldColumns.js';
import { widgetCondition, widgetSnapshot, andQueries } from './snapshotScope.js';
import { equalsQuery, missingQuery, segmentQuery } from './segmentQueries.js';
import { namedSegments } from './sourceSegments.js';
import { emptyResult, noSnapshotMessage, withTimeout, type WidgetContext, type WidgetData } from './widgetData.js';

/** A chart's settings as stored (with schema defaults). */
export type ChartSettings = {
  kind: 'score' | 'number' | 'table';
  inventory: string;
  query: string;
  group_by_query: number | null;
  group_by_data: string;
  fields: string[];
  limit: number;
};

/** The chart's whole query: its saved query (as `Query is <id>`) and its query text, joined with AND. */
export function chartQueryText(chart: Pick<ChartSettings, 'query' | 'group_by_query'>): string {
  return andQueries(chart.group_by_query ? `Query is ${chart.group_by_query}` : '', chart.query);
}

/**
 * Computes a chart over the latest snapshot. Score: the percentage of the inventory the query matches; number:
 * how many records match; table: the matching records' chosen fields, or their counts per value of a field.
 */
export async function computeChart(context: WidgetContext, chart: ChartSettings): Promise<WidgetData> {
  const header = { kind: chart.kind, inventory: chart.inventory };
  const snapshot = await widgetSnapshot(context);
  if (!snapshot) return emptyResult(header, chart.kind === 'table' ? 'table' : 'number', noSnapshotMessage);
  const text = chartQueryText(chart);
  const condition = await widgetCondition(context, text, 3, { entity: chart.inventory, snapshotId: snapshot.id });
  const base = [snapshot.id, chart.inventory, ...condition.params];
  const where = `discovery_id = $1 and entity = $2 and ${condition.sql}`;
  const next = base.length + 1;
  return withTimeout(context.db, async (connection) => {
    if (chart.kind !== 'table') {
      const [counts] = await connection.query<{ matched: number; total: number }>(
        `select count(*) filter (where ${condition.sql})::int as matched, count(*)::int as total from snapshot_assets where discovery_id = $1 and entity = $2`,
        base,
      );
      const score = counts.total ? Math.round((counts.matched / counts.total) * 1000) / 10 : null;
      const row = chart.kind === 'score'
        ? { label: 'Score', value: score, matched: counts.matched, total: counts.total, query: text }
        : { label: 'Records', value: counts.matched, total: counts.total, query: text };
      const message = counts.total ? undefined : `The latest snapshot holds no ${chart.inventory} record.`;
      return { ...header, display: 'number', index_id: snapshot.id, rows: [row], total: counts.total, ...(message && { message }) };
    }
    if (chart.group_by_data) {
      const field = chart.group_by_data;
      const rows = await connection.query<{ label: string | null; value: number }>(
        `select value as label, count(*)::int as value from snapshot_assets
           left join lateral jsonb_array_elements_text(coalesce(${fieldColumn(field)}->$${next}, '[]'::jsonb)) as value on true
          where ${where} group by value order by 2 desc, 1 nulls last limit $${next + 1}`,
        [...base, field, chart.limit],
      );
      const valued = await namedSegments(connection, snapshot.id, field, rows.filter((row): row is { label: string; value: number } => row.label !== null));
      const segments = [...valued, ...rows.filter((row) => row.label === null).map((row) => ({ label: 'No value', value: row.value, condition: missingQuery(field) }))];
      return {
        ...header, display: 'table', index_id: snapshot.id, columns: [field, 'Count'],
        rows: segments.map((row) => ({ [field]: row.label, Count: row.value, query: segmentQuery(text, row.condition) })),
      };
    }
    const records = await connection.query<{ asset_id: string; fields: Record<string, unknown[]> }>(
      `select asset_id, ${documentSql(chart.fields)} as fields from snapshot_assets where ${where} order by asset_id limit $${next}`,
      [...base, chart.limit],
    );
    return {
      ...header, display: 'table', index_id: snapshot.id, columns: chart.fields,
      rows: records.map((record) => ({ ...Object.fromEntries(chart.fields.map((field) => [field, record.fields[field] ?? []])), query: equalsQuery('PrimaryKey', record.asset_id) })),
    };
  });
}
