import type { FetchedRecord } from '../adapters/engine.js';

/** Field → every value it holds, flattened: the shape stored, queried and merged. */
export type FieldValues = Record<string, unknown[]>;

// Bounds on a vendor's raw record, so one odd record cannot blow up a snapshot.
const maximumDepth = 6;
const maximumSpecificFields = 500;

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/**
 * Flattens nested values into dotted fields whose values are lists of scalars.
 * Before: `{InstalledSoftware: [{SoftwareName: "7-Zip"}, {SoftwareName: "Chrome"}], IpAddresses: "10.0.0.1"}`;
 * after: `{"InstalledSoftware.SoftwareName": ["7-Zip", "Chrome"], "IpAddresses": ["10.0.0.1"]}`.
 */
export function flattenFields(source: Record<string, unknown>, prefix = '', into: FieldValues = {}, depth = 0, limit = Number.POSITIVE_INFINITY): FieldValues {
  const add = (field: string, value: unknown) => {
    if (!(field in into) && Object.keys(into).length >= limit) return;
    const values = (into[field] ??= []);
    if (!values.includes(value)) values.push(value);
  };
  const visit = (value: unknown, field: string, level: number) => {
    if (value === null || value === undefined || value === '') return;
    if (isScalar(value)) return add(field, typeof value === 'string' ? value.trim() : value);
    if (value instanceof Date) return add(field, value.toISOString());
    if (level >= maximumDepth) return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, field, level + 1);
      return;
    }
    if (typeof value === 'object') {
      for (const [key, inner] of Object.entries(value as Record<string, unknown>)) visit(inner, field ? `${field}.${key}` : key, level + 1);
    }
  };
  for (const [key, value] of Object.entries(source)) visit(value, prefix ? `${prefix}.${key}` : key, depth);
  for (const field of Object.keys(into)) if (!into[field].length) delete into[field];
  return into;
}

/** A fetched record as stored in a snapshot: its entity fields plus the vendor's record under `Specifics.<slug>`. */
export function normalizeRecord(record: FetchedRecord, adapter: string): FieldValues {
  const fields = flattenFields(record.fields);
  if (record.raw && typeof record.raw === 'object') flattenFields(record.raw as Record<string, unknown>, `Specifics.${adapter}`, fields, 0, Object.keys(fields).length + maximumSpecificFields);
  return fields;
}
