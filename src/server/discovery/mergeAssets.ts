import { createHash } from 'node:crypto';
import type { Cluster, SourceRecord } from './correlation/correlate.js';
import type { FieldValues } from './normalize.js';

/** A normalized source record of a snapshot. */
export type StoredRecord = SourceRecord & { entity: string; fields: FieldValues };
export type PreferredValue = { value: unknown; adapter: string };

export type MergedAsset = {
  id: string;
  fields: FieldValues;
  preferred: Record<string, PreferredValue>;
  recordKeys: string[];
  adapters: string[];
  reasons: Cluster['reasons'];
};

/** Source precedence per field (the discovery configuration's `ordering`), with a default for unlisted fields. */
export type FieldOrdering = { byField: Record<string, string[]>; fallback: string[] };

/** A stable id for the asset: derived from its first source record, so it survives later discoveries. */
export function assetIdFor(recordKeys: string[]): string {
  return createHash('sha256').update([...recordKeys].sort()[0]).digest('hex').slice(0, 20);
}

function rank(order: string[], adapter: string): number {
  const position = order.indexOf(adapter);
  return position === -1 ? order.length : position;
}

/**
 * Builds the merged asset of a cluster: every source's values kept (de-duplicated, preferred source first), the
 * preferred value of each field with the adapter that supplied it, and the computed fields Adapters, AdapterCount,
 * Connections and PrimaryKey.
 */
export function mergeCluster(cluster: Cluster, byKey: Map<string, StoredRecord>, ordering: FieldOrdering): MergedAsset {
  const records = cluster.records.map((key) => byKey.get(key)!);
  const fields: FieldValues = {};
  const preferred: Record<string, PreferredValue> = {};
  const fieldNames = new Set(records.flatMap((record) => Object.keys(record.fields)));
  for (const field of fieldNames) {
    const order = ordering.byField[field] ?? ordering.fallback;
    const sources = records.filter((record) => record.fields[field]?.length).sort((left, right) => rank(order, left.adapter) - rank(order, right.adapter));
    const values: unknown[] = [];
    for (const source of sources) for (const value of source.fields[field]) if (!values.includes(value)) values.push(value);
    fields[field] = values;
    preferred[field] = { value: sources[0].fields[field][0], adapter: sources[0].adapter };
  }
  // Analysts' tags are added to Tags when the snapshot is published; the sources' own tags are kept apart so
  // taking an analyst's tag off never removes one a source reported.
  if (fields.Tags) fields.SourceTags = fields.Tags;
  const adapters = [...new Set(records.map((record) => record.adapter))].sort();
  const id = assetIdFor(cluster.records);
  Object.assign(fields, {
    Adapters: adapters,
    AdapterCount: [adapters.length],
    Connections: [...new Set(records.map((record) => record.connectionId))],
    PrimaryKey: [id],
  });
  return { id, fields, preferred, recordKeys: [...cluster.records].sort(), adapters, reasons: cluster.reasons };
}
