import { createHash } from 'node:crypto';
import { displayHostname, mostSpecificCategory, provenanceField } from '../../core/normalization/index.js';
import { isSpecificField } from '../query/fieldColumns.js';
import type { Cluster, SourceRecord } from './correlation/correlate.js';
import type { FieldValues } from './normalize.js';

/** A normalized source record of a snapshot. */
export type StoredRecord = SourceRecord & { entity: string; fields: FieldValues };

export type MergedAsset = {
  id: string;
  /** Entity fields: every source's values, de-duplicated, the preferred source's first. */
  fields: FieldValues;
  /** The vendors' raw fields (`Specifics.<adapter>.<name>`), each from its one adapter. */
  specifics: FieldValues;
  /** Entity field → the adapter whose value comes first (the preferred value is always the field's first value). */
  preferred: Record<string, string>;
  recordKeys: string[];
  adapters: string[];
  reasons: Cluster['reasons'];
};

/**
 * Source precedence per field (the discovery configuration's `ordering`), with a default for unlisted fields. A
 * source is named by its adapter's slug (`crowdstrike`: every connection of the adapter) or by one connection
 * (`connection:7`), so two tenants of one vendor can be ranked apart.
 */
export type FieldOrdering = { byField: Record<string, string[]>; fallback: string[] };

/** How a precedence list names one connection: `connection:7`. */
export const connectionSourcePrefix = 'connection:';
export const connectionSource = (connectionId: number): string => `${connectionSourcePrefix}${connectionId}`;

/** A stable id for the asset: derived from its first source record, so it survives later discoveries. */
export function assetIdFor(recordKeys: string[]): string {
  return createHash('sha256').update([...recordKeys].sort()[0]).digest('hex').slice(0, 20);
}

/** A record's place in a precedence list: its connection's entry or its adapter's, whichever comes first. */
function rank(order: string[], record: StoredRecord): number {
  const positions = [order.indexOf(connectionSource(record.connectionId)), order.indexOf(record.adapter)].filter((position) => position >= 0);
  return positions.length ? Math.min(...positions) : order.length;
}

function addValues(into: unknown[], values: unknown[]): void {
  for (const value of values) if (!into.includes(value)) into.push(value);
}

type DisplayRule = (fields: FieldValues, preferred: Record<string, string>, sources: StoredRecord[]) => void;

/** Puts `value` first among a field's values, with the adapter of the first source that gave it as the preferred one. */
function putFirst(fields: FieldValues, preferred: Record<string, string>, sources: StoredRecord[], field: string, value: unknown, keepOthers: boolean): void {
  const values = fields[field];
  fields[field] = keepOthers ? [value, ...values.filter((other) => other !== value)] : [value];
  preferred[field] = sources.find((source) => source.fields[field]?.includes(value))?.adapter ?? preferred[field];
}

/**
 * Fields whose first (displayed) value is chosen across the sources rather than by precedence alone. Host name: the
 * spelling most sources give, ties to the preferred source, so the name does not flip case as sources come and go;
 * every spelling stays for queries. Category: the one that says the most (a virtual machine a CMDB calls a server).
 */
const displayRules: Record<string, DisplayRule> = {
  Hostname: (fields, preferred, sources) => {
    const spellings = sources.map((source) => source.fields.Hostname?.[0]).filter((value): value is string => typeof value === 'string');
    const display = displayHostname(spellings);
    if (display !== undefined) putFirst(fields, preferred, sources, 'Hostname', display, true);
  },
  Category: (fields, preferred, sources) => putFirst(fields, preferred, sources, 'Category', mostSpecificCategory(fields.Category), false),
};

/**
 * Builds the merged asset of a cluster from its records: every source's values kept (de-duplicated, preferred
 * source first), the adapter preferred for each entity field, the raw fields apart, and the computed fields
 * Adapters and AdapterCount (the vendors, as the reference API counts them), Connections and ConnectionCount (the
 * sources: two tenants of one vendor are two) and PrimaryKey.
 */
export function mergeCluster(cluster: Cluster, records: StoredRecord[], ordering: FieldOrdering): MergedAsset {
  const fields: FieldValues = {};
  const specifics: FieldValues = {};
  const preferred: Record<string, string> = {};
  const fieldNames = new Set<string>();
  for (const record of records) for (const field in record.fields) fieldNames.add(field);
  for (const field of fieldNames) {
    // The provenance of normalized values belongs to its source record (the source tab shows it), not to the asset.
    if (field === provenanceField) continue;
    if (isSpecificField(field)) {
      for (const record of records) if (record.fields[field]) addValues((specifics[field] ??= []), record.fields[field]);
      continue;
    }
    const order = ordering.byField[field] ?? ordering.fallback;
    // Sources the field's list leaves out follow in the default order.
    const sources = records.length === 1 ? records : records.filter((record) => record.fields[field]?.length).sort((left, right) => rank(order, left) - rank(order, right) || rank(ordering.fallback, left) - rank(ordering.fallback, right));
    const values: unknown[] = [];
    for (const source of sources) addValues(values, source.fields[field]);
    if (!values.length) continue;
    fields[field] = values;
    preferred[field] = sources[0].adapter;
    if (field in displayRules) displayRules[field](fields, preferred, sources);
  }
  // Analysts' tags are added to Tags when the snapshot is published; the sources' own tags are kept apart so
  // taking an analyst's tag off never removes one a source reported.
  if (fields.Tags) fields.SourceTags = fields.Tags;
  const adapters = [...new Set(records.map((record) => record.adapter))].sort();
  const id = assetIdFor(cluster.records);
  const connections = [...new Set(records.map((record) => record.connectionId))].sort((left, right) => left - right);
  Object.assign(fields, {
    Adapters: adapters,
    AdapterCount: [adapters.length],
    Connections: connections,
    ConnectionCount: [connections.length],
    PrimaryKey: [id],
  });
  return { id, fields, specifics, preferred, recordKeys: [...cluster.records].sort(), adapters, reasons: cluster.reasons };
}
