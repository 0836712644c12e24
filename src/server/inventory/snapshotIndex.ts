import { addressValuePattern } from '../../core/query/index.js';
import type { Queryable } from '../db/database.js';
import { allIndexedFields, coveringIndexOf, indexedFieldsOf, inventorySchemas, type IndexedField, type IndexedKind } from './indexedFields.js';

// The typed columns of `snapshot_index` (migration 0013): added from the entity schemas at start-up, filled from
// the assets' documents when a snapshot is published, and kept in step when tags or an analyst's merge change
// published assets. Deriving them in SQL from `fields` keeps one definition of what a column holds, whoever writes.
//
// A list counts and orders every matching asset, so the cost is the bytes each row takes: text fields are one
// `text` each rather than an array (whose header alone outweighs most values). Before/after:
// `{"Hostname": ["WS-1", "ws-1.corp"]}` → `ix_hostname = '\x1fws-1\x1fws-1.corp\x1f'`: every value lower-cased
// between unit separators (0x1f), so "a value equals x" is a substring test for `\x1fx\x1f`; a number or boolean a
// source reported is kept behind 0x01, which no query text can match but which still says the field has a value.

/** Separates the values of a text column (SQL `chr(31)`). */
export const valueSeparator = '\u001f';
/** Marks a value that is not a string in a text column (SQL `chr(1)`). */
export const nonStringMark = '\u0001';

// Columns are nullable with no default: a row fills its own entity's columns (never null: '' or '{}' when the asset
// lacks the field) and leaves every other entity's null, which takes a bit of the row's null bitmap instead of a
// byte per text and 16 per array. A certificate row is 490 bytes rather than 815, and counting 100k of them reads
// a third of the pages.
const columnTypes: Record<IndexedKind, string> = { text: 'text', number: 'double precision[]', date: 'text[]' };

// Numbers as jsonpath's `.double()` reads them (JSON numbers and numeric text), bounded so the cast can never
// overflow: a value outside these bounds is one `.double()` refuses too.
const numericText = '^\\s*[-+]?([0-9]{1,200}(\\.[0-9]{0,100})?|\\.[0-9]{1,100})([eE][-+]?[0-9]{1,2})?\\s*$';

/** Adds the columns and ordering indexes the schemas ask for and the table lacks (under the migrations lock). */
export async function ensureSnapshotIndexColumns(db: Queryable): Promise<void> {
  const columns = await db.query<{ name: string; nullable: string }>("select column_name as name, is_nullable as nullable from information_schema.columns where table_name = 'snapshot_index'");
  const existing = new Set(columns.map((row) => row.name));
  // Databases indexed before the columns became nullable: rows already written keep their values.
  const notNull = columns.filter((row) => row.name.startsWith('ix_') && row.nullable === 'NO');
  if (notNull.length) await db.exec(`alter table snapshot_index ${notNull.map(({ name }) => `alter column ${name} drop not null, alter column ${name} drop default`).join(', ')}`);
  for (const field of allIndexedFields()) {
    if (!existing.has(field.column)) await db.exec(`alter table snapshot_index add column ${field.column} ${columnTypes[field.kind]}`);
    if (field.firstColumn && !existing.has(field.firstColumn)) await db.exec(`alter table snapshot_index add column ${field.firstColumn} ${field.kind === 'number' ? 'double precision' : 'text'}`);
    if (field.addressColumn && !existing.has(field.addressColumn)) await db.exec(`alter table snapshot_index add column ${field.addressColumn} inet[]`);
  }
  // A page of a list ordered by the field is read straight from one of these, in either direction; each holds its
  // entity's rows only.
  for (const entity of Object.keys(inventorySchemas)) {
    for (const { column, firstColumn } of indexedFieldsOf(entity).filter((field) => field.firstColumn)) {
      for (const direction of ['asc', 'desc']) {
        await db.exec(`create index if not exists ${column}_${entity}_${direction} on snapshot_index (discovery_id, ${firstColumn} ${direction} nulls last, asset_id) where entity = '${entity}'`);
      }
    }
    await ensureCoveringIndex(db, entity);
  }
}

/**
 * The entity's covering index (indexedFields.ts), replacing one left by other `x-covered` fields. Its entries hold
 * only the covered columns, so counting a snapshot's matches reads a few narrow entries per page instead of every
 * wide row (which, with every other entity's columns null in it, costs a walk over a hundred columns each).
 */
async function ensureCoveringIndex(db: Queryable, entity: string): Promise<void> {
  const covering = coveringIndexOf(entity);
  const existing = await db.query<{ name: string }>("select indexname as name from pg_indexes where tablename = 'snapshot_index' and indexname like $1", [`ix_covered_${entity}_%`]);
  for (const { name } of existing.filter((index) => index.name !== covering?.name)) await db.exec(`drop index ${name}`);
  if (covering) {
    await db.exec(`create index if not exists ${covering.name} on snapshot_index (discovery_id, asset_id) include (${covering.columns.join(', ')}) where entity = '${entity}' and ${covering.guard}`);
  }
}

/**
 * Records whether every index row of the entity in the snapshot is in its covering index (`indexed_fields` holds
 * `"<entity>.covered"`: the index's name, or false), which lets counts add the index's guard and read it alone; the
 * name, because another index (other `x-covered` fields) has another guard. Rewriting `assets` can only take it away.
 */
async function recordCoverage(db: Queryable, discoveryId: number, entity: string, assets: string[] | null): Promise<void> {
  const covering = coveringIndexOf(entity);
  if (!covering) return;
  const onlyAssets = assets ? 'and asset_id = any($3::text[])' : '';
  const [{ fits }] = await db.query<{ fits: boolean }>(
    `select not exists (select 1 from snapshot_index where discovery_id = $1 and entity = $2 ${onlyAssets} and not (${covering.guard})) as fits`,
    [discoveryId, entity, ...(assets ? [assets] : [])],
  );
  if (assets && fits) return;
  await db.query('update discoveries set indexed_fields = indexed_fields || jsonb_build_object($2::text, $3::jsonb) where id = $1', [discoveryId, `${entity}.covered`, JSON.stringify(fits && covering.name)]);
}

/** The guard of the entity's covering index when every row of the snapshot is in it (a count may add it), else null. */
export async function snapshotCoverage(db: Queryable, discoveryId: number, entity: string): Promise<string | null> {
  const covering = coveringIndexOf(entity);
  if (!covering) return null;
  const [row] = await db.query<{ covered: string | null }>("select indexed_fields->>($2 || '.covered') as covered from discoveries where id = $1", [discoveryId, entity]);
  return row?.covered === covering.name ? covering.guard : null;
}

/** SQL reading one indexed field's values out of an asset's `fields`, the field's name being `parameter`. */
function valuesSql(field: IndexedField, parameter: string): string {
  const values = `jsonb_array_elements_text(fields->${parameter}) as field_value(value)`;
  if (field.kind === 'number') return `array(select value::float8 from ${values} where value ~ '${numericText}')`;
  if (field.kind === 'date') return `array(select value from ${values} where value is not null)`;
  // Marks and separators inside a string become 0x1e, which no query text holds either.
  const text = "case when jsonb_typeof(value) = 'string' then translate(lower(value #>> '{}'), chr(1) || chr(31), chr(30) || chr(30)) else chr(1) || (value #>> '{}') end";
  return `coalesce((select chr(31) || string_agg(${text}, chr(31)) || chr(31) from jsonb_array_elements(fields->${parameter}) as field_value(value)), '')`;
}

/**
 * Lists order by at most this many leading characters of a text value, on both read paths (search.ts): a B-tree
 * entry holds at most 2,704 bytes, so one source's 6,000-character host name would otherwise fail the whole
 * publish. 512 characters of up to 4 bytes each leave room for the rest of the entry.
 */
export const sortKeyLength = 512;

/**
 * The key a list is ordered by, from a field's preferred (first) value as text (`first`): numbers as numbers (so 10
 * follows 9), the rest lower-cased, so "ws-2" and "WS-1" sort together ("WS-1", "ws-2") rather than every capital
 * first. Both read paths order by it (search.ts), so both answer alike.
 */
export function orderKeySql(kind: IndexedField['kind'] | undefined, first: string): string {
  return kind === 'number' ? `case when ${first} ~ '${numericText}' then (${first})::float8 end` : `left(lower(${first}), ${sortKeyLength})`;
}

/**
 * SQL reading an address field's values that read as IP addresses into its `inet[]` column: the documents' subnet
 * and range conditions (compileQuery.ts) cast exactly these values, behind exactly this pattern, so both read paths
 * see the same addresses. The pattern passes only `inet`'s own syntax: an odd value is left out, never an error.
 */
function addressValuesSql(parameter: string): string {
  return `array(select value::inet from jsonb_array_elements_text(fields->${parameter}) as field_value(value) where value ~ '${addressValuePattern.replace(/'/g, "''")}')`;
}

/** SQL reading the preferred (first) value lists are ordered by, into the field's ordering column. */
function firstValueSql(field: IndexedField, parameter: string): string {
  return orderKeySql(field.kind, `fields->${parameter}->>0`);
}

/** The columns of an entity's index rows and the SQL deriving each from its document (field names from `$4` on). */
function indexRowsSql(fields: IndexedField[]): { columns: string[]; values: string[] } {
  return {
    columns: fields.flatMap((field) => [field.column, ...(field.firstColumn ? [field.firstColumn] : []), ...(field.addressColumn ? [field.addressColumn] : [])]),
    values: fields.flatMap((field, index) => [
      valuesSql(field, `$${index + 4}`), ...(field.firstColumn ? [firstValueSql(field, `$${index + 4}`)] : []), ...(field.addressColumn ? [addressValuesSql(`$${index + 4}`)] : []),
    ]),
  };
}

/**
 * Writes the index rows of an entity's assets in a snapshot: all of them, or only `assets` (replacing theirs). Rows
 * go in in primary-key order, so reading a snapshot through the key reads its pages in turn (three times faster at
 * 100k assets than rows in the order the assets were merged).
 */
async function writeIndexRows(db: Queryable, discoveryId: number, entity: string, assets: string[] | null): Promise<void> {
  const fields = indexedFieldsOf(entity);
  if (!fields.length) return;
  const onlyAssets = assets ? 'and asset_id = any($3::text[])' : 'and $3::text[] is null';
  if (assets) await db.query(`delete from snapshot_index where discovery_id = $1 and entity = $2 ${onlyAssets}`, [discoveryId, entity, assets]);
  const { columns, values } = indexRowsSql(fields);
  await db.query(
    `insert into snapshot_index (discovery_id, entity, asset_id, ${columns.join(', ')})
     select discovery_id, entity, asset_id, ${values.join(', ')} from snapshot_assets where discovery_id = $1 and entity = $2 ${onlyAssets}
      order by asset_id`,
    [discoveryId, entity, assets, ...fields.map((field) => field.field)],
  );
}

/**
 * The index rows an entity's assets will have, with the columns of the fields in `only`, in a temporary table
 * `table` dropped at the end of the transaction (no index, no WAL): the security scoring reads the devices there, so
 * that their index rows are written once, scores included, rather than written and then rewritten.
 */
export async function writeTemporaryIndexRows(db: Queryable, table: string, discoveryId: number, entity: string, only: ReadonlySet<string>): Promise<Map<string, IndexedField>> {
  const fields = indexedFieldsOf(entity).filter((field) => only.has(field.field));
  const { columns, values } = indexRowsSql(fields);
  const definitions = fields.flatMap((field) => [
    `${field.column} ${columnTypes[field.kind]}`, ...(field.firstColumn ? [`${field.firstColumn} ${field.kind === 'number' ? 'double precision' : 'text'}`] : []), ...(field.addressColumn ? [`${field.addressColumn} inet[]`] : []),
  ]);
  // No field at all is a real case (every condition of the scoring names a saved query that is gone): the rows then
  // hold the ids alone.
  await db.exec(`drop table if exists ${table}; create temporary table ${table} (${['discovery_id integer not null', 'entity text not null', 'asset_id text not null', ...definitions].join(', ')}) on commit drop`);
  await db.query(
    `insert into ${table} (${['discovery_id', 'entity', 'asset_id', ...columns].join(', ')})
     select ${['discovery_id', 'entity', 'asset_id', ...values].join(', ')} from snapshot_assets where discovery_id = $1 and entity = $2 and $3::text[] is null`,
    [discoveryId, entity, null, ...fields.map((field) => field.field)],
  );
  // Temporary tables are never analyzed by themselves: without statistics the planner guesses a few rows.
  await db.exec(`analyze ${table}`);
  return new Map(fields.map((field) => [field.field, field]));
}

/**
 * Builds a snapshot's index from its assets and records which fields it holds (part of the publish): every
 * entity's, or only `entities`' (the publish builds the devices' last, once their documents hold their scores).
 */
export async function buildSnapshotIndex(db: Queryable, discoveryId: number, entities: string[] = Object.keys(inventorySchemas)): Promise<void> {
  const held: Record<string, string[]> = {};
  for (const entity of entities) {
    await writeIndexRows(db, discoveryId, entity, null);
    await recordCoverage(db, discoveryId, entity, null);
    held[entity] = indexedFieldsOf(entity).map((field) => field.field);
    // Which address fields have their `inet` column filled: a snapshot indexed before those columns has none.
    held[addressesKey(entity)] = indexedFieldsOf(entity).filter((field) => field.addressColumn).map((field) => field.field);
  }
  await db.query('update discoveries set indexed_fields = indexed_fields || $2::jsonb where id = $1', [discoveryId, JSON.stringify(held)]);
}

/** Re-derives the index rows of assets whose documents changed (or that were removed) in a published snapshot. */
export async function refreshSnapshotIndex(db: Queryable, discoveryId: number, entity: string, assets: string[]): Promise<void> {
  const [snapshot] = await db.query<{ indexed: boolean }>('select indexed_fields ? $2 as indexed from discoveries where id = $1', [discoveryId, entity]);
  // A snapshot still being published gets its whole index at the publish; an older one has none to keep.
  if (snapshot?.indexed && assets.length) {
    await writeIndexRows(db, discoveryId, entity, assets);
    await recordCoverage(db, discoveryId, entity, assets);
  }
}

const addressesKey = (entity: string) => `${entity}.addresses`;

/** The indexed fields a snapshot holds for an entity, by field name: what its queries may read from the index. */
export async function snapshotIndexedFields(db: Queryable, discoveryId: number, entity: string): Promise<Map<string, IndexedField>> {
  const [row] = await db.query<{ fields: string[] | null; addresses: string[] | null }>(
    'select indexed_fields->$2 as fields, indexed_fields->$3 as addresses from discoveries where id = $1', [discoveryId, entity, addressesKey(entity)],
  );
  const held = new Set(row?.fields ?? []);
  const addresses = new Set(row?.addresses ?? []);
  return new Map(indexedFieldsOf(entity).filter((field) => held.has(field.field)).map((field) => [field.field, addresses.has(field.field) ? field : { ...field, addressColumn: null }]));
}

/**
 * Re-derives some indexed columns of an entity's rows after their documents gained those fields in the snapshot
 * being published (the security scores): an update of those columns, not a rewrite of every row.
 */
export async function refreshIndexedColumns(db: Queryable, discoveryId: number, entity: string, fieldNames: string[]): Promise<void> {
  const fields = indexedFieldsOf(entity).filter((field) => fieldNames.includes(field.field));
  const [snapshot] = await db.query<{ indexed: boolean }>('select indexed_fields ? $2 as indexed from discoveries where id = $1', [discoveryId, entity]);
  // A snapshot whose index is not built yet gets these columns with the rest when it is.
  if (!fields.length || !snapshot?.indexed) return;
  const assignments = fields.flatMap((field, index) => [
    `${field.column} = ${valuesSql(field, `$${index + 3}`)}`,
    ...(field.firstColumn ? [`${field.firstColumn} = ${firstValueSql(field, `$${index + 3}`)}`] : []),
    ...(field.addressColumn ? [`${field.addressColumn} = ${addressValuesSql(`$${index + 3}`)}`] : []),
  ]);
  await db.query(
    `update snapshot_index i set ${assignments.join(', ')} from snapshot_assets a
      where i.discovery_id = $1 and i.entity = $2 and a.discovery_id = $1 and a.entity = $2 and a.asset_id = i.asset_id`,
    [discoveryId, entity, ...fields.map((field) => field.field)],
  );
  if (fields.some((field) => field.covered)) await recordCoverage(db, discoveryId, entity, null);
}

/**
 * Statistics that know the new snapshot, so lists and charts get plans made for its size (PGlite has no autovacuum);
 * the vacuum marks the snapshot's index pages all-visible, so counts read its covering indexes without the rows.
 */
export async function settleSnapshotTables(db: Queryable): Promise<void> {
  await db.exec('vacuum (analyze) snapshot_index');
  await db.exec('analyze snapshot_assets');
}
