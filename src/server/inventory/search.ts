import { parseQuery, QuerySyntaxError } from '../../core/query/index.js';
import type { Database, Queryable } from '../db/database.js';
import { Invalid, NotFound } from '../errors.js';
import { compileQuery, type CompiledQuery, type RelationOptions, type SnapshotTable } from '../query/compileQuery.js';
import { relationsOf } from '../query/relationConditions.js';
import { documentSql, fieldColumn } from '../query/fieldColumns.js';
import { resolveQuery } from '../query/queryFields.js';
import { expandSavedQueries } from '../query/savedQueries.js';
import { loadSavedQueryText, type QueryReader } from '../query/savedQueryStore.js';
import { indexedFieldsOf, type IndexedField } from './indexedFields.js';
import { connectionNameOf } from '../../core/connectionNames.js';
import { snapshotConnections } from './snapshotConnections.js';
import { orderKeySql, snapshotCoverage, snapshotIndexedFields } from './snapshotIndex.js';
import { resolveSnapshot, snapshotReadSettings } from './snapshots.js';

export type InventorySearch = {
  query?: string;
  fields?: string[];
  page?: number;
  size?: number;
  index_id?: number | null;
  ordering?: { field: string; order?: 'asc' | 'desc' }[];
  scrollable?: boolean;
  scroll_id?: string;
};

// Every inventory query runs under this statement timeout: a costly regular expression cannot hold the database.
export const statementTimeoutMs = 15_000;

/** Runs inventory reads in one transaction under the statement timeout. */
export function withStatementTimeout<T>(db: Database, work: (connection: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (connection) => {
    await connection.exec(`set local statement_timeout = ${statementTimeoutMs}; ${snapshotReadSettings}`);
    return work(connection);
  });
}

/**
 * A query's SQL condition, with its text errors answered as field errors carrying the position: the one compiler of
 * query text, for lists, exports, actions, reports, policies, profiles and dashboards alike. `Query is <id>` expands
 * the saved queries the reader may read (savedQueryStore.ts). Given the typed columns a snapshot holds (`indexed`),
 * the condition reads them when it can; given `relations`, it follows them to the snapshot's other inventories.
 * Given the inventory (`entity`, by default the relations'), free text searches it and unknown fields are refused.
 */
export async function queryCondition(
  db: Queryable, reader: QueryReader, text: string | undefined, firstParameter: number, indexed?: ReadonlyMap<string, IndexedField>, relations?: RelationOptions, entity = relations?.entity,
): Promise<CompiledQuery> {
  if (!text?.trim()) return { sql: 'true', params: [], table: indexed?.size ? 'snapshot_index' : 'snapshot_assets' };
  try {
    const tree = resolveQuery(await expandSavedQueries(parseQuery(text), (id) => loadSavedQueryText(db, reader, id)), entity ?? null, text);
    return compileQuery(tree, { firstParameter, indexed, relations, entity });
  } catch (error) {
    if (error instanceof QuerySyntaxError) throw new Invalid({ query: [error.message], position: [String(error.position)] });
    throw error;
  }
}

type Ordering = NonNullable<InventorySearch['ordering']>;

/** The `order by` of a list: each key's first value, then the asset id for a stable order. */
function orderingSql(ordering: Ordering, firstParameter: number, table: SnapshotTable, indexed: ReadonlyMap<string, IndexedField>, entity: string): { sql: string; params: string[] } {
  const direction = (key: Ordering[number]) => (key.order === 'desc' ? 'desc' : 'asc');
  if (table === 'snapshot_index') return { sql: [...ordering.map((key) => `${indexed.get(key.field)!.firstColumn} ${direction(key)} nulls last`), 'asset_id'].join(', '), params: [] };
  // Over the documents, field names travel as parameters; keys are made as the index's are.
  const keys = ordering.map((key, index) => `${orderKeySql(indexedFieldsOf(entity).find((field) => field.field === key.field)?.kind, `${fieldColumn(key.field)}->$${firstParameter + index}->>0`)} ${direction(key)} nulls last`);
  return { sql: [...keys, 'asset_id'].join(', '), params: ordering.map((key) => key.field) };
}

/**
 * A list's query over one entity of a snapshot: the table it reads, its `where` (parameters `$1` discovery and `$2`
 * entity first) and its `order by`. It reads the snapshot's typed index when the condition and every sort key can
 * be answered there, and the assets' documents otherwise.
 */
export async function planSnapshotQuery(db: Queryable, reader: QueryReader, discoveryId: number, entity: string, text: string | undefined, ordering: Ordering = []) {
  const available = await snapshotIndexedFields(db, discoveryId, entity);
  const indexed = ordering.every((key) => available.get(key.field)?.firstColumn) ? available : undefined;
  const condition = await queryCondition(db, reader, text, 3, indexed, text?.trim() ? await relationOptions(db, reader.companyId, discoveryId, entity) : undefined);
  const order = orderingSql(ordering, 3 + condition.params.length, condition.table, available, entity);
  const where = `discovery_id = $1 and entity = $2 and ${condition.sql}`;
  // Every row of a covered snapshot meets its covering index's guard: saying so lets a count read that index alone.
  const guard = condition.table === 'snapshot_index' ? await snapshotCoverage(db, discoveryId, entity) : null;
  return { table: condition.table, where, countWhere: guard ? `${where} and ${guard}` : where, params: [discoveryId, entity, ...condition.params, ...order.params], orderSql: order.sql };
}

/**
 * What a query of `entity` needs to follow its relations to other inventories of the snapshot: by default `$1` holds
 * its id. A query over several snapshots at once (a history widget) names instead the SQL of the snapshot of the row
 * (`snapshot_assets.discovery_id`) and no snapshot (`discoveryId` null): the related inventories are then read from
 * their documents, whose fields every snapshot has.
 */
export async function relationOptions(db: Queryable, companyId: number, discoveryId: number | null, entity: string, discovery = '$1'): Promise<RelationOptions> {
  const related = [...new Set(relationsOf(entity).flatMap((relation) => (relation.related ? [relation.related.entity] : [])))];
  // One after the other: `db` may be a transaction's single connection, which cannot run two statements at once.
  const indexed = new Map<string, Awaited<ReturnType<typeof snapshotIndexedFields>>>();
  if (discoveryId !== null) for (const other of related) indexed.set(other, await snapshotIndexedFields(db, discoveryId, other));
  return { entity, discovery, companyId, indexed };
}

function project(assetId: string, fields: Record<string, unknown[]>, wanted: string[] | undefined): Record<string, unknown> {
  const picked = wanted ? Object.fromEntries(wanted.map((field) => [field, fields[field] ?? []])) : fields;
  return { ...picked, PrimaryKey: [assetId] };
}

/**
 * Searches one entity of a snapshot: every answered field is a list (one value per source, de-duplicated), as in
 * the reference API. Paged answers carry the count and the snapshot's connections (id, name, adapter: what the
 * ids of `Connections` stand for); scrolling answers a scroll_id until results come back empty.
 */
export async function searchInventory(db: Database, reader: QueryReader, entity: string, search: InventorySearch) {
  const companyId = reader.companyId;
  const discoveryId = await resolveSnapshot(db, companyId, search.index_id);
  const size = search.size ?? 50;
  const offset = ((search.page ?? 1) - 1) * size;
  return withStatementTimeout(db, async (connection) => {
    const plan = await planSnapshotQuery(connection, reader, discoveryId, entity, search.query, search.scrollable ? [] : search.ordering);
    const next = plan.params.length + 1;
    const readDocuments = async (ids: string[]) =>
      new Map(
        (await connection.query<{ asset_id: string; fields: Record<string, unknown[]> }>(
          `select asset_id, ${documentSql(search.fields)} as fields from snapshot_assets where discovery_id = $1 and entity = $2 and asset_id = any($3::text[])`,
          [discoveryId, entity, ids],
        )).map((row) => [row.asset_id, row.fields]),
      );
    if (search.scrollable) {
      const after = search.scroll_id ?? '';
      const ids = (await connection.query<{ asset_id: string }>(`select asset_id from ${plan.table} where ${plan.where} and asset_id > $${next} order by asset_id limit $${next + 1}`, [...plan.params, after, size])).map((row) => row.asset_id);
      const documents = await readDocuments(ids);
      return { results: ids.map((id) => project(id, documents.get(id) ?? {}, search.fields)), scroll_id: ids.at(-1) ?? after, index_id: discoveryId };
    }
    const countSql = `select count(*)::int as count from ${plan.table} where ${plan.countWhere}`;
    let page: { asset_id: string }[];
    let count: number;
    if (plan.table === 'snapshot_index') {
      // Narrow typed rows: the count is one quick pass, and the page is read in order (often straight from an
      // ordering index) without sorting every match.
      page = await connection.query(`select asset_id from snapshot_index where ${plan.where} order by ${plan.orderSql} limit $${next} offset $${next + 1}`, [...plan.params, size, offset]);
      count = (await connection.query<{ count: number }>(countSql, plan.params))[0].count;
    } else {
      // Over the documents, one pass finds the page and the count: only ids and sort keys go through the sort (the
      // documents would spill it to disk at 100k assets), then the page's documents are read by primary key.
      const rows = await connection.query<{ asset_id: string; total: number }>(
        `select asset_id, count(*) over ()::int as total from snapshot_assets where ${plan.where} order by ${plan.orderSql} limit $${next} offset $${next + 1}`,
        [...plan.params, size, offset],
      );
      page = rows;
      count = rows[0]?.total ?? (offset === 0 ? 0 : (await connection.query<{ count: number }>(countSql, plan.params))[0].count);
    }
    const documents = await readDocuments(page.map((row) => row.asset_id));
    const connections = await snapshotConnections(connection, discoveryId);
    return { count, results: page.map((row) => project(row.asset_id, documents.get(row.asset_id) ?? {}, search.fields)), index_id: discoveryId, connections };
  });
}

/**
 * One asset of a snapshot with every field, the preferred value per field, each source's record (with its
 * connection's name) and the merge reasons.
 */
export async function inventoryDetail(db: Database, companyId: number, entity: string, idOrName: string, requestedSnapshot: number | null | undefined) {
  const discoveryId = await resolveSnapshot(db, companyId, requestedSnapshot);
  type AssetRow = { asset_id: string; fields: Record<string, unknown[]>; specifics: Record<string, unknown[]>; preferred: Record<string, string>; record_keys: string[]; reasons: object[] };
  const select = 'select asset_id, fields, specifics, preferred, record_keys, reasons from snapshot_assets where discovery_id = $1 and entity = $2';
  // By id through the primary key; only a name (which no key holds) reads the snapshot's documents.
  const byId = await db.query<AssetRow>(`${select} and asset_id = $3`, [discoveryId, entity, idOrName]);
  const [asset] = byId.length
    ? byId
    : await db.query<AssetRow>(`${select} and (lower(fields->'Hostname'->>0) = lower($3) or lower(fields->'Username'->>0) = lower($3)) order by asset_id limit 1`, [discoveryId, entity, idOrName]);
  if (!asset) throw new NotFound({ detail: 'Not found.' });
  const records = await db.query<{ record_key: string; adapter: string; connection_id: number; fields: object }>(
    'select record_key, adapter, connection_id, fields from snapshot_records where discovery_id = $1 and record_key = any($2::text[]) order by adapter, connection_id, record_key',
    [discoveryId, asset.record_keys],
  );
  const connections = await snapshotConnections(db, discoveryId);
  const sources = records.map((record) => ({ ...record, connection_name: connectionNameOf(connections, record.connection_id) }));
  const relations = await db.query<{ kind: string; relation: string; device_asset: string; related_asset: string | null; related_name: string }>(
    `select kind, relation, device_asset, related_asset, related_name from snapshot_relations
      where discovery_id = $1 and (device_asset = $2 or related_asset = $2) order by kind, related_name limit 500`,
    [discoveryId, asset.asset_id],
  );
  // Stored is the adapter per field; the preferred value is the field's first.
  const preferred = Object.fromEntries(Object.entries(asset.preferred).map(([field, adapter]) => [field, { value: asset.fields[field]?.[0], adapter }]));
  // The snapshot's connections name every id of `Connections`, also those of records that are not this asset's own
  // (software and findings are reported through devices' records).
  return { ...asset.fields, ...asset.specifics, PrimaryKey: [asset.asset_id], index_id: discoveryId, preferred, sources, connections, merge_reasons: asset.reasons, relations };
}
