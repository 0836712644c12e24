import type { Queryable } from '../db/database.js';
import { notFound } from '../http/errors.js';
import { planSnapshotQuery, withStatementTimeout } from '../inventory/search.js';
import { typedCell, type Cell } from './cells.js';
import type { ReportScope } from './sections.js';

const chunkSize = 1000;

/** The company's published snapshot just before `discoveryId`, or null. */
export async function previousSnapshot(db: Queryable, companyId: number, discoveryId: number): Promise<number | null> {
  const [row] = await db.query<{ id: number }>("select id from discoveries where company_id = $1 and status = 'done' and id < $2 order by id desc limit 1", [companyId, discoveryId]);
  return row?.id ?? null;
}

async function matchingIds(scope: ReportScope, discoveryId: number, entity: string, query: string): Promise<Set<string>> {
  return withStatementTimeout(scope.db, async (connection) => {
    const plan = await planSnapshotQuery(connection, scope.companyId, discoveryId, entity, query);
    const rows = await connection.query<{ asset_id: string }>(`select asset_id from ${plan.table} where ${plan.where} order by asset_id`, plan.params);
    return new Set(rows.map((row) => row.asset_id));
  });
}

async function fieldsOf(db: Queryable, discoveryId: number, entity: string, ids: string[]): Promise<Map<string, Record<string, unknown[]>>> {
  const rows = await db.query<{ asset_id: string; fields: Record<string, unknown[]> }>(
    'select asset_id, fields from snapshot_assets where discovery_id = $1 and entity = $2 and asset_id = any($3::text[])', [discoveryId, entity, ids],
  );
  return new Map(rows.map((row) => [row.asset_id, row.fields]));
}

/**
 * What appeared, disappeared and changed (in the chosen fields) among the records a query matches between an earlier
 * snapshot and the report's. Only the two sets of matching ids are held; fields are read a chunk at a time.
 */
export async function comparisonRows(scope: ReportScope, entity: string, query: string, earlierId: number, fields: string[], limit: number) {
  const [{ company_id: owner } = { company_id: -1 }] = await scope.db.query<{ company_id: number }>("select company_id from discoveries where id = $1 and status = 'done'", [earlierId]);
  if (owner !== scope.companyId) throw notFound();
  const before = await matchingIds(scope, earlierId, entity, query);
  const after = await matchingIds(scope, scope.snapshot.id, entity, query);
  const appeared = [...after].filter((id) => !before.has(id));
  const disappeared = [...before].filter((id) => !after.has(id));
  const kept = [...after].filter((id) => before.has(id));
  const cellsOf = (change: string, id: string, values: Record<string, unknown[]> | undefined): Cell[] =>
    [change, ...fields.map((field) => typedCell(field === 'PrimaryKey' ? [id] : values?.[field]))];
  const same = (left: Record<string, unknown[]> | undefined, right: Record<string, unknown[]> | undefined) =>
    fields.every((field) => JSON.stringify(left?.[field] ?? []) === JSON.stringify(right?.[field] ?? []));
  async function* rows(): AsyncGenerator<Cell[]> {
    let written = 0;
    const groups: [string, string[], number][] = [['Appeared', appeared, scope.snapshot.id], ['Disappeared', disappeared, earlierId]];
    for (const [change, ids, snapshot] of groups) {
      for (let start = 0; start < ids.length && written < limit; start += chunkSize) {
        const chunk = ids.slice(start, start + chunkSize);
        const values = await fieldsOf(scope.db, snapshot, entity, chunk);
        for (const id of chunk) if (written < limit) { written += 1; yield cellsOf(change, id, values.get(id)); }
      }
    }
    for (let start = 0; start < kept.length; start += chunkSize) {
      const chunk = kept.slice(start, start + chunkSize);
      const [earlier, later] = [await fieldsOf(scope.db, earlierId, entity, chunk), await fieldsOf(scope.db, scope.snapshot.id, entity, chunk)];
      for (const id of chunk) {
        if (same(earlier.get(id), later.get(id))) continue;
        if (written < limit) { written += 1; yield cellsOf('Changed', id, later.get(id)); }
      }
    }
  }
  return { rows };
}
