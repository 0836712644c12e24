import type { Queryable } from '../db/database.js';
import { containsPattern } from '../db/likePatterns.js';
import { fieldError } from '../errors.js';
import { fieldProblem, isOwnField } from '../query/queryFields.js';
import { snapshotIndexedFields } from './snapshotIndex.js';
import { resolveSnapshot } from './snapshots.js';

export type FieldValuesQuery = { field: string; search?: string; index_id?: number };

/** How many values one suggestion list shows: enough to choose from, few enough to read. */
const suggestedValues = 10;

/**
 * The most frequent values of one of an inventory's own fields in a company's snapshot, optionally only those holding
 * the typed text: what the query bar suggests after `Field =`. A field the inventory does not have is a 400 naming
 * the nearest ones, as in a query.
 */
export async function fieldValues(db: Queryable, companyId: number, entity: string, query: FieldValuesQuery) {
  if (!isOwnField(entity, query.field)) throw fieldError('field', fieldProblem(entity, query.field) ?? `Values are suggested for the inventory's own fields, not "${query.field}".`);
  const discoveryId = await resolveSnapshot(db, companyId, query.index_id);
  // Typed text narrows the assets first through the field's lower-cased index column (snapshotIndex.ts), which holds
  // the text of every value that holds it: only those assets' documents are read (ASCII only, where lower() and
  // ilike agree on case).
  const column = query.search && /^[\x20-\x7e]+$/.test(query.search) ? (await snapshotIndexedFields(db, discoveryId, entity)).get(query.field) : undefined;
  const narrowed = column?.kind === 'text'
    ? `and asset_id in (select asset_id from snapshot_index where discovery_id = $1 and entity = $2 and strpos(${column.column}, lower($6)) > 0)`
    : 'and $6::text is null';
  const values = await db.query<{ value: string; count: number }>(
    `select value, count(*)::int as count
       from snapshot_assets, jsonb_array_elements_text(case when jsonb_typeof(fields->$3) = 'array' then fields->$3 else '[]'::jsonb end) as value
      where discovery_id = $1 and entity = $2 and ($4::text is null or value ilike $4) ${narrowed}
      group by value order by count(*) desc, value limit $5`,
    [discoveryId, entity, query.field, query.search ? containsPattern(query.search) : null, suggestedValues, column?.kind === 'text' ? query.search : null],
  );
  return { field: query.field, index_id: discoveryId, values };
}
