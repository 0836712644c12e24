import type { Queryable } from '../db/database.js';
import type { MergedAsset, StoredRecord } from './mergeAssets.js';
import type { RelationRow } from './relations.js';

const batchSize = 1000;

/** Writes source records in batches of a thousand rows (one statement each, all values as parameters). */
export async function writeRecords(db: Queryable, discoveryId: number, records: StoredRecord[]): Promise<void> {
  for (let start = 0; start < records.length; start += batchSize) {
    const batch = records.slice(start, start + batchSize);
    await db.query(
      `insert into snapshot_records (discovery_id, record_key, connection_id, adapter, entity, fields)
       select $1, * from unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::jsonb[])`,
      [discoveryId, batch.map((record) => record.key), batch.map((record) => record.connectionId), batch.map((record) => record.adapter), batch.map((record) => record.entity), batch.map((record) => JSON.stringify(record.fields))],
    );
  }
}

/** Writes merged assets in batches. */
export async function writeAssets(db: Queryable, discoveryId: number, entity: string, assets: MergedAsset[]): Promise<void> {
  for (let start = 0; start < assets.length; start += batchSize) {
    const batch = assets.slice(start, start + batchSize);
    await db.query(
      `insert into snapshot_assets (discovery_id, entity, asset_id, fields, preferred, record_keys, reasons)
       select $1, $2, asset_id, fields, preferred, array(select jsonb_array_elements_text(record_keys)), reasons
         from unnest($3::text[], $4::jsonb[], $5::jsonb[], $6::jsonb[], $7::jsonb[]) as batch(asset_id, fields, preferred, record_keys, reasons)`,
      [discoveryId, entity, batch.map((asset) => asset.id), batch.map((asset) => JSON.stringify(asset.fields)), batch.map((asset) => JSON.stringify(asset.preferred)), batch.map((asset) => JSON.stringify(asset.recordKeys)), batch.map((asset) => JSON.stringify(asset.reasons))],
    );
  }
}

/** Writes the relations of a snapshot in batches. */
export async function writeRelations(db: Queryable, discoveryId: number, relations: RelationRow[]): Promise<void> {
  for (let start = 0; start < relations.length; start += batchSize) {
    const batch = relations.slice(start, start + batchSize);
    await db.query(
      `insert into snapshot_relations (discovery_id, kind, relation, device_asset, related_asset, related_name, adapters)
       select $1, kind, relation, device_asset, related_asset, related_name, array(select jsonb_array_elements_text(adapters))
         from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[]) as batch(kind, relation, device_asset, related_asset, related_name, adapters)`,
      [discoveryId, batch.map((row) => row.kind), batch.map((row) => row.relation), batch.map((row) => row.deviceAsset), batch.map((row) => row.relatedAsset), batch.map((row) => row.relatedName), batch.map((row) => JSON.stringify(row.adapters))],
    );
  }
}

/** Writes merge recommendations in batches (one statement per thousand). */
export async function writeRecommendations(db: Queryable, discoveryId: number, entity: string, rows: { left: string; right: string; score: number; reasons: string[] }[]): Promise<void> {
  for (let start = 0; start < rows.length; start += batchSize) {
    const batch = rows.slice(start, start + batchSize);
    await db.query(
      `insert into merge_recommendations (discovery_id, entity, left_asset, right_asset, score, reasons)
       select $1, $2, * from unnest($3::text[], $4::text[], $5::real[], $6::jsonb[])`,
      [discoveryId, entity, batch.map((row) => row.left), batch.map((row) => row.right), batch.map((row) => row.score), batch.map((row) => JSON.stringify(row.reasons))],
    );
  }
}
