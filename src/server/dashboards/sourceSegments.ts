import type { Queryable } from '../db/database.js';
import { connectionNameOf } from '../../core/connectionNames.js';
import { snapshotConnections } from '../inventory/snapshotConnections.js';
import { compareQuery, equalsQuery } from './segmentQueries.js';

/** Whether a source-grouped widget counts per connection (each tenant, domain or export apart) or per adapter. */
export type SourceGrouping = 'connection' | 'adapter';

/** The asset field that names a record's sources at the chosen grain. */
export const sourceFieldOf = (grouping: SourceGrouping): 'Connections' | 'Adapters' => (grouping === 'connection' ? 'Connections' : 'Adapters');

/**
 * Segments counted per value of `field`, each with the query condition that lists its records. Values of
 * `Connections` are connection ids: each is shown under its connection's name and queried as the number it is.
 * Before: `{label: "3", value: 40}` of `Connections`; after: `{label: "EDR hosts", value: 40, condition: "Connections = 3"}`.
 */
export async function namedSegments<Row extends { label: string; value: number }>(db: Queryable, snapshotId: number, field: string, rows: Row[]): Promise<(Row & { condition: string })[]> {
  if (field !== 'Connections') return rows.map((row) => ({ ...row, condition: equalsQuery(field, row.label) }));
  const connections = await snapshotConnections(db, snapshotId);
  const named = rows.map((row) => ({ ...row, label: connectionNameOf(connections, Number(row.label)), condition: compareQuery(field, '=', Number(row.label)) }));
  // Counted as ids, shown as names: equal counts read in the names' order.
  return named.sort((left, right) => right.value - left.value || left.label.localeCompare(right.label));
}
