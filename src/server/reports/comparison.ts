import type { Queryable } from '../db/database.js';
import { Invalid, notFound } from '../errors.js';
import { planSnapshotQuery, withStatementTimeout } from '../inventory/search.js';
import { fieldCell, type Cell } from './cells.js';
import type { ReportScope } from './reportScope.js';

const chunkSize = 1000;

/** The company's kept (not pruned) published snapshot just before `discoveryId`, or null. */
export async function previousSnapshot(db: Queryable, companyId: number, discoveryId: number): Promise<number | null> {
  const [row] = await db.query<{ id: number }>("select id from discoveries where company_id = $1 and status = 'done' and pruned_at is null and id < $2 order by id desc limit 1", [companyId, discoveryId]);
  return row?.id ?? null;
}

async function matchingIds(scope: ReportScope, discoveryId: number, entity: string, query: string): Promise<Set<string>> {
  return withStatementTimeout(scope.db, async (connection) => {
    const plan = await planSnapshotQuery(connection, scope, discoveryId, entity, query);
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
 * snapshot and the report's. Only the two sets of matching ids are held; fields are read a chunk at a time. `rows`
 * yields at most `limit` changes; `count` is every change (appeared and disappeared are known, changed ones are read).
 */
export async function comparisonRows(scope: ReportScope, entity: string, query: string, earlierId: number, fields: string[]) {
  const [{ company_id: owner, pruned } = { company_id: -1, pruned: false }] = await scope.db.query<{ company_id: number; pruned: boolean }>(
    "select company_id, pruned_at is not null as pruned from discoveries where id = $1 and status = 'done'", [earlierId],
  );
  if (owner !== scope.companyId) throw notFound();
  if (pruned) throw new Invalid({ compare_to: [`Snapshot ${earlierId}'s data was pruned: compare with a snapshot that is kept.`] });
  const before = await matchingIds(scope, earlierId, entity, query);
  const after = await matchingIds(scope, scope.snapshot.id, entity, query);
  const appeared = [...after].filter((id) => !before.has(id));
  const disappeared = [...before].filter((id) => !after.has(id));
  const kept = [...after].filter((id) => before.has(id));
  const cellsOf = (change: string, id: string, values: Record<string, unknown[]> | undefined): Cell[] =>
    [change, ...fields.map((field) => fieldCell(field, id, values?.[field]))];
  const same = (left: Record<string, unknown[]> | undefined, right: Record<string, unknown[]> | undefined) =>
    fields.every((field) => JSON.stringify(left?.[field] ?? []) === JSON.stringify(right?.[field] ?? []));
  /** The kept records whose chosen fields differ, with their later values. */
  async function* changed(): AsyncGenerator<[string, Record<string, unknown[]> | undefined]> {
    for (let start = 0; start < kept.length; start += chunkSize) {
      const chunk = kept.slice(start, start + chunkSize);
      const [earlier, later] = [await fieldsOf(scope.db, earlierId, entity, chunk), await fieldsOf(scope.db, scope.snapshot.id, entity, chunk)];
      for (const id of chunk) if (!same(earlier.get(id), later.get(id))) yield [id, later.get(id)];
    }
  }
  async function* rows(limit: number): AsyncGenerator<Cell[]> {
    let written = 0;
    const groups: [string, string[], number][] = [['Appeared', appeared, scope.snapshot.id], ['Disappeared', disappeared, earlierId]];
    for (const [change, ids, snapshot] of groups) {
      for (let start = 0; start < ids.length && written < limit; start += chunkSize) {
        const chunk = ids.slice(start, Math.min(start + chunkSize, start + limit - written));
        const values = await fieldsOf(scope.db, snapshot, entity, chunk);
        for (const id of chunk) {
          written += 1;
          yield cellsOf(change, id, values.get(id));
        }
      }
    }
    if (written >= limit) return;
    for await (const [id, values] of changed()) {
      yield cellsOf('Changed', id, values);
      written += 1;
      if (written >= limit) return;
    }
  }
  const count = async () => {
    let changes = appeared.length + disappeared.length;
    for await (const _change of changed()) changes += 1;
    return changes;
  };
  return { rows, count };
}
