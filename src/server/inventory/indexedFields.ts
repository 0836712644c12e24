import { createHash } from 'node:crypto';
import { schemaById } from '../http/validators.js';

// The fields of each inventory entity that a snapshot also keeps as typed columns of `snapshot_index`, read from
// the entity schemas' `x-indexed` marks (schemas/README.md). Every column name and type comes from the schemas,
// never from a request.

/** How an indexed field's values are stored: lower-cased text, numbers, or ISO-8601 text compared as written. */
export type IndexedKind = 'text' | 'number' | 'date';

/**
 * One indexed field and its columns (snapshotIndex.ts): `column` (`ix_os_type`) holds every value of the field;
 * `firstColumn` (`ix_os_type_first`), for the fields marked `"sorted"` only, holds the preferred (first) value as
 * written, which lists are ordered by; `addressColumn` (`ix_ip_addresses_inet`), for address fields (`x-ip`) only,
 * holds the values that read as IP addresses as `inet`, which subnets and ranges are answered from (null for a
 * snapshot indexed before it existed: its subnets read the documents).
 */
export type IndexedField = { field: string; kind: IndexedKind; column: string; firstColumn: string | null; addressColumn: string | null; covered: boolean };

/** The entity schema of each inventory a discovery writes (the snapshot's `entity` → schema id). */
export const inventorySchemas: Record<string, string> = {
  device: 'cartograph:entities/device',
  user: 'cartograph:entities/inventory-user',
  software: 'cartograph:entities/software',
  vulnerability: 'cartograph:entities/vulnerability',
  service: 'cartograph:entities/service',
  license: 'cartograph:entities/license',
  certificate: 'cartograph:entities/certificate',
};

type PropertySchema = { type?: string; format?: string; items?: PropertySchema; 'x-indexed'?: true | 'sorted'; 'x-covered'?: true; 'x-ip'?: true };

function kindOf(property: PropertySchema): IndexedKind {
  const item = property.items ?? property;
  if (item.type === 'integer' || item.type === 'number') return 'number';
  if (item.format === 'date-time' || item.format === 'date') return 'date';
  return 'text';
}

/** `OS.Type` → `ix_os_type`, `IpAddresses` → `ix_ip_addresses`. */
export function columnFor(field: string): string {
  return `ix_${field.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().replace(/[^a-z0-9]+/g, '_')}`;
}

const cache = new Map<string, IndexedField[]>();

/** The indexed fields of an entity, in schema order (none for an entity without a schema). */
export function indexedFieldsOf(entity: string): IndexedField[] {
  const known = cache.get(entity);
  if (known) return known;
  const schemaId = inventorySchemas[entity];
  const properties = (schemaId ? schemaById(schemaId).properties : {}) as Record<string, PropertySchema>;
  const fields = Object.entries(properties)
    .filter(([, property]) => property['x-indexed'])
    .map(([field, property]) => ({
      field, kind: kindOf(property), column: columnFor(field), firstColumn: property['x-indexed'] === 'sorted' ? `${columnFor(field)}_first` : null,
      addressColumn: property['x-ip'] ? `${columnFor(field)}_inet` : null, covered: property['x-covered'] === true,
    }));
  const covered = fields.filter((field) => field.covered);
  // A covering index entry must fit a B-tree page's third (coveringIndexOf); dates are arrays of any text.
  if (covered.length > 8 || covered.some((field) => field.kind === 'date')) throw new Error(`${entity}: x-covered takes at most 8 number or text fields`);
  const stray = Object.entries(properties).find(([, property]) => property['x-covered'] && !property['x-indexed']);
  if (stray) throw new Error(`${entity}: ${stray[0]} is x-covered without x-indexed`);
  cache.set(entity, fields);
  return fields;
}

/**
 * Every indexed column of every inventory, once: entities share `snapshot_index`, so a column that two entities
 * index (`ix_domain`) must have one kind; a schema that gave it two would break the table and fails here.
 */
export function allIndexedFields(): IndexedField[] {
  const byColumn = new Map<string, IndexedField>();
  for (const field of Object.keys(inventorySchemas).flatMap(indexedFieldsOf)) {
    const other = byColumn.get(field.column);
    if (other && other.kind !== field.kind) throw new Error(`Indexed column ${field.column} is ${other.kind} for ${other.field} and ${field.kind} for ${field.field}`);
    // One entity may order by the column and another read addresses from it: the table holds both extra columns.
    byColumn.set(field.column, other ? { ...field, firstColumn: field.firstColumn ?? other.firstColumn, addressColumn: field.addressColumn ?? other.addressColumn } : field);
  }
  return [...byColumn.values()];
}

/**
 * The covering index of an entity's `x-covered` fields, or null: its name (which changes with its columns, so a
 * schema change replaces it), its columns, and the guard every row in it meets — text of at most 256 bytes, at
 * most 16 numbers — which keeps each entry far below a B-tree's 2,704 bytes whatever a source reported.
 */
export function coveringIndexOf(entity: string): { name: string; columns: string[]; guard: string } | null {
  const covered = indexedFieldsOf(entity).filter((field) => field.covered);
  if (!covered.length) return null;
  const columns = covered.map((field) => field.column);
  const name = `ix_covered_${entity}_${createHash('sha256').update(columns.join(',')).digest('hex').slice(0, 8)}`;
  const guard = covered.map((field) => (field.kind === 'text' ? `octet_length(${field.column}) <= 256` : `cardinality(${field.column}) <= 16`)).join(' and ');
  return { name, columns, guard };
}
