import { normalizeDeviceFields, type NormalizationContext } from '../../core/normalization/index.js';
import type { FetchedRecord } from '../adapters/engine.js';

/** Field → every value it holds, flattened: the shape stored, queried and merged. */
export type FieldValues = Record<string, unknown[]>;

// Bounds on a vendor's raw record, so one odd record cannot blow up a snapshot.
const maximumDepth = 6;
const maximumSpecificFields = 500;

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** What one flattening pass writes into, and how many distinct fields it may hold. */
type Flattening = { into: FieldValues; fields: number; limit: number };

function add(target: Flattening, field: string, value: unknown): void {
  let values = target.into[field];
  if (!values) {
    if (target.fields >= target.limit) return;
    values = target.into[field] = [];
    target.fields += 1;
  }
  if (!values.includes(value)) values.push(value);
}

function visit(target: Flattening, value: unknown, field: string, level: number): void {
  if (value === null || value === undefined || value === '') return;
  if (isScalar(value)) return add(target, field, typeof value === 'string' ? value.trim() : value);
  if (value instanceof Date) return add(target, field, value.toISOString());
  if (level >= maximumDepth) return;
  if (Array.isArray(value)) {
    for (const item of value) visit(target, item, field, level + 1);
    return;
  }
  if (typeof value === 'object') {
    for (const key in value as Record<string, unknown>) visit(target, (value as Record<string, unknown>)[key], field ? `${field}.${key}` : key, level + 1);
  }
}

/**
 * Flattens nested values into dotted fields whose values are lists of scalars.
 * Before: `{InstalledSoftware: [{SoftwareName: "7-Zip"}, {SoftwareName: "Chrome"}], IpAddresses: "10.0.0.1"}`;
 * after: `{"InstalledSoftware.SoftwareName": ["7-Zip", "Chrome"], "IpAddresses": ["10.0.0.1"]}`.
 * (Plain functions rather than closures: this runs for every record of a discovery.)
 */
export function flattenFields(source: Record<string, unknown>, prefix = '', into: FieldValues = {}, limit = Number.POSITIVE_INFINITY): FieldValues {
  const target: Flattening = { into, fields: Object.keys(into).length, limit };
  for (const key in source) visit(target, source[key], prefix ? `${prefix}.${key}` : key, 0);
  return into;
}

/**
 * A fetched record as stored in a snapshot: its entity fields (a device's normalized by the rules of
 * schemas/normalization and given its OS lifecycle from the context's feed, with the provenance of each value it
 * changed under `Normalization`) plus the vendor's raw record under `Specifics.<slug>`, which queries reach as the
 * source wrote it.
 */
export function normalizeRecord(record: FetchedRecord, adapter: string, context: NormalizationContext = {}): FieldValues {
  const fields = flattenFields(record.fields);
  if (record.entity === 'device') normalizeDeviceFields(fields, context);
  if (record.raw && typeof record.raw === 'object') flattenFields(record.raw as Record<string, unknown>, `Specifics.${adapter}`, fields, Object.keys(fields).length + maximumSpecificFields);
  return fields;
}
