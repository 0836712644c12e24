import type { Queryable } from '../db/database.js';
import type { Cluster } from './correlation/correlate.js';
import { mergeCluster, type FieldOrdering, type StoredRecord } from './mergeAssets.js';
import type { FieldValues } from './normalize.js';
import { relatedAsset, type RelatedAsset } from './relations.js';
import { writeAssets, writeBehind } from './snapshotWriter.js';

const assetsPerWrite = 1000;
// Asset batches in flight at once: two keep a two-core database server busy while the next batch is merged.
const assetWritesInFlight = 2;

/** The snapshot's source records of one batch of clusters, read back whole (they were written as fetched). */
async function readRecords(db: Queryable, discoveryId: number, clusters: Cluster[]): Promise<Map<string, StoredRecord>> {
  const rows = await db.query<{ record_key: string; connection_id: number; adapter: string; entity: string; fields: FieldValues }>(
    'select record_key, connection_id, adapter, entity, fields from snapshot_records where discovery_id = $1 and record_key = any($2::text[])',
    [discoveryId, clusters.flatMap((cluster) => cluster.records)],
  );
  return new Map(rows.map((row) => [row.record_key, { key: row.record_key, connectionId: row.connection_id, adapter: row.adapter, entity: row.entity, fields: row.fields }]));
}

/**
 * Merges each cluster into its asset and writes the assets as they are built: the clusters' records are read back
 * from the snapshot a thousand assets at a time, the next batch read while the last one is written; only each
 * asset's id and the part relations read are kept.
 */
export async function writeMergedAssets(db: Queryable, discoveryId: number, entity: string, clusters: Cluster[], ordering: FieldOrdering): Promise<{ ids: string[]; related: RelatedAsset[] }> {
  const ids: string[] = [];
  const related: RelatedAsset[] = [];
  const writer = writeBehind(assetWritesInFlight);
  for (let start = 0; start < clusters.length; start += assetsPerWrite) {
    const batch = clusters.slice(start, start + assetsPerWrite);
    const records = await readRecords(db, discoveryId, batch);
    const assets = batch.map((cluster) => mergeCluster(cluster, cluster.records.map((key) => records.get(key)!), ordering));
    for (const asset of assets) {
      ids.push(asset.id);
      related.push(relatedAsset(asset));
    }
    await writer.push(() => writeAssets(db, discoveryId, entity, assets));
  }
  await writer.drain();
  return { ids, related };
}
