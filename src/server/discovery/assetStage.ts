import type { Queryable } from '../db/database.js';
import type { Cluster } from './correlation/correlate.js';
import type { HeldRecord } from './fetchStage.js';
import { mergeCluster, type FieldOrdering, type MergedAsset } from './mergeAssets.js';
import type { FieldValues } from './normalize.js';
import { relatedAsset, type RelatedAsset } from './relations.js';
import { writeAssets, writeBehind } from './snapshotWriter.js';

const assetsPerWrite = 1000;
// Asset batches in flight at once: two keep a two-core database server busy while the next batch is merged.
const assetWritesInFlight = 2;

/**
 * Merges each cluster into its asset and writes the assets as they are built, batches in flight while the next
 * ones are merged; only each asset's id and the part relations read are kept. A record's fields are parsed from
 * their text here, once, when its cluster is merged.
 */
export async function writeMergedAssets(db: Queryable, discoveryId: number, entity: string, clusters: Cluster[], byKey: Map<string, HeldRecord>, ordering: FieldOrdering): Promise<{ ids: string[]; related: RelatedAsset[] }> {
  const ids: string[] = [];
  const related: RelatedAsset[] = [];
  const writer = writeBehind(assetWritesInFlight);
  let batch: MergedAsset[] = [];
  for (const cluster of clusters) {
    const records = cluster.records.map((key) => {
      const record = byKey.get(key)!;
      return { ...record, fields: JSON.parse(record.fieldsJson) as FieldValues };
    });
    const asset = mergeCluster(cluster, records, ordering);
    ids.push(asset.id);
    related.push(relatedAsset(asset));
    batch.push(asset);
    if (batch.length >= assetsPerWrite) {
      const full = batch;
      batch = [];
      await writer.push(() => writeAssets(db, discoveryId, entity, full));
    }
  }
  await writer.push(() => writeAssets(db, discoveryId, entity, batch));
  await writer.drain();
  return { ids, related };
}
