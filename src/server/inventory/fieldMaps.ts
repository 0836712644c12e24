import type { Queryable } from '../db/database.js';
import { schemaById } from '../http/validators.js';

export type FieldType = 'text' | 'long' | 'double' | 'date' | 'ip' | 'boolean';
/** `value_titles`: the display names of the field's coded values (the schema's `x-enum-titles`), which lists show instead. */
export type FieldMapEntry = { value_type: FieldType; has_keyword?: true; label: string; adapter: string; image?: string; value_titles?: Record<string, string> };
export type FieldMap = Record<string, FieldMapEntry>;

type PropertySchema = { type?: string; format?: string; title?: string; items?: PropertySchema; 'x-enum-titles'?: Record<string, string> };

/** A label from a field key, as spec §3 derives it: `OS.FullOsString` → `OS FullOsString`, `last_seen` → `Last Seen`. */
export function labelFor(key: string): string {
  return key
    .split(/[._]/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join(' ');
}

function valueTypeOf(property: PropertySchema): FieldType {
  const item = property.type === 'array' && property.items ? property.items : property;
  if (item.type === 'integer') return 'long';
  if (item.type === 'number') return 'double';
  if (item.type === 'boolean') return 'boolean';
  if (item.format === 'date-time' || item.format === 'date') return 'date';
  if (item.format === 'ipv4' || item.format === 'ipv6') return 'ip';
  return 'text';
}

function valueTypeOfSample(sample: unknown): FieldType {
  if (typeof sample === 'number') return Number.isInteger(sample) ? 'long' : 'double';
  if (typeof sample === 'boolean') return 'boolean';
  if (typeof sample === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(sample)) return 'date';
  return 'text';
}

/** A field's label: its schema property's `title`, else the label spec §3 derives from the key. */
export function fieldLabelOf(schemaId: string | undefined, key: string): string {
  const property = schemaId ? ((schemaById(schemaId).properties ?? {}) as Record<string, PropertySchema>)[key] : undefined;
  return property?.title ?? labelFor(key);
}

/** Cartograph's own fields of an entity, from its schema (adapter `cartograph`), labelled by the property's `title` where the schema gives one. */
export function entityFieldMap(schemaId: string, productSlug: string): FieldMap {
  const properties = (schemaById(schemaId).properties ?? {}) as Record<string, PropertySchema>;
  return Object.fromEntries(
    Object.entries(properties).map(([key, property]) => {
      const valueType = valueTypeOf(property);
      const valueTitles = property['x-enum-titles'] ?? property.items?.['x-enum-titles'];
      return [key, { value_type: valueType, ...(valueType === 'text' && { has_keyword: true as const }), label: property.title ?? labelFor(key), adapter: productSlug, ...(valueTitles && { value_titles: valueTitles }) }];
    }),
  );
}

/**
 * The `Specifics.<adapter>.<field>` keys a snapshot holds for an entity, typed from a sample value; each carries
 * its adapter and the adapter's icon path.
 */
export async function specificFieldMap(db: Queryable, discoveryId: number | null, entity: string): Promise<FieldMap> {
  if (discoveryId === null) return {};
  const rows = await db.query<{ key: string; sample: unknown }>(
    `select field.key, min(field.value->>0) as sample from snapshot_assets, jsonb_each(specifics) as field
      where discovery_id = $1 and entity = $2 group by field.key order by field.key limit 5000`,
    [discoveryId, entity],
  );
  return Object.fromEntries(
    rows.map(({ key, sample }) => {
      const [, adapter, ...rest] = key.split('.');
      const valueType = valueTypeOfSample(typeof sample === 'string' && /^-?\d+$/.test(sample) ? Number(sample) : sample);
      return [key, { value_type: valueType, ...(valueType === 'text' && { has_keyword: true as const }), label: labelFor(rest.join('.')), adapter, image: `/images/adapters/${adapter}.svg` }];
    }),
  );
}

/** A field map of a related inventory under its prefix: `Severity` → `Vulnerability.Severity`, labelled "Vulnerability Severity". */
export function prefixedFieldMap(prefix: string, map: FieldMap): FieldMap {
  return Object.fromEntries(Object.entries(map).map(([key, entry]) => [`${prefix}${key}`, { ...entry, label: labelFor(`${prefix}${key}`) }]));
}
