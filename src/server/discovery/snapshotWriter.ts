import { CopyJson } from '../db/copyText.js';
import type { Queryable } from '../db/database.js';
import type { MergedAsset } from './mergeAssets.js';
import type { RelationRow } from './relations.js';
import { dropFindingsPartitions } from './software/findingsPartitions.js';

const batchSize = 1000;

// Rows a snapshot only appends are written with COPY, a thousand at a time. Source records may meet a record already
// written, which COPY cannot skip: each batch of them travels as one JSON text parameter that the database unpacks
// with json_to_recordset (arrays of JSON documents as array parameters would be escaped character by character on
// the way, which cost more than the rest of the write).
export async function inBatches<T>(rows: T[], write: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += batchSize) await write(rows.slice(start, start + batchSize));
}

/** A source record ready to write: its fields already serialized (the pipeline keeps them so). */
export type SerializedRecord = { key: string; connectionId: number; adapter: string; entity: string; fieldsJson: string; identityJson: string };

/**
 * Writes source records, a thousand rows per statement. A record already written (the same key, by an attempt of the
 * same step that was taken over) is the same record: it is kept as it is.
 */
export function writeRecords(db: Queryable, discoveryId: number, records: SerializedRecord[]): Promise<void> {
  return inBatches(records, (batch) => {
    const rows = batch.map((record) => `{"k":${JSON.stringify(record.key)},"c":${record.connectionId},"a":${JSON.stringify(record.adapter)},"e":${JSON.stringify(record.entity)},"f":${record.fieldsJson},"i":${record.identityJson}}`);
    return db.query(
      `insert into snapshot_records (discovery_id, record_key, connection_id, adapter, entity, fields, identity)
       select $1, k, c, a, e, f, i from json_to_recordset($2::json) as batch(k text, c int, a text, e text, f json, i json)
       on conflict do nothing`,
      [discoveryId, `[${rows.join(',')}]`],
    );
  });
}

/** Writes merged assets, a thousand rows per statement. */
export function writeAssets(db: Queryable, discoveryId: number, entity: string, assets: MergedAsset[]): Promise<void> {
  return inBatches(assets, (batch) => db.copyRows(
    'snapshot_assets', ['discovery_id', 'entity', 'asset_id', 'fields', 'specifics', 'preferred', 'record_keys', 'reasons'],
    batch.map((asset) => [discoveryId, entity, asset.id, asset.fields, asset.specifics, asset.preferred, asset.recordKeys, new CopyJson(asset.reasons)]),
  ));
}

/** Writes the relations of a snapshot, a thousand rows per statement. */
export function writeRelations(db: Queryable, discoveryId: number, relations: RelationRow[]): Promise<void> {
  return inBatches(relations, (batch) => db.copyRows(
    'snapshot_relations', ['discovery_id', 'kind', 'relation', 'device_asset', 'related_asset', 'related_name', 'adapters', 'port', 'vlan'],
    batch.map((row) => [discoveryId, row.kind, row.relation, row.deviceAsset, row.relatedAsset, row.relatedName, row.adapters, row.port ?? null, row.vlan ?? null]),
  ));
}

/** Writes merge recommendations, a thousand rows per statement. */
export function writeRecommendations(db: Queryable, discoveryId: number, entity: string, recommendations: { left: string; right: string; score: number; reasons: string[] }[]): Promise<void> {
  return inBatches(recommendations, (batch) => db.copyRows(
    'merge_recommendations', ['discovery_id', 'entity', 'left_asset', 'right_asset', 'score', 'reasons'],
    batch.map((row) => [discoveryId, entity, row.left, row.right, row.score, new CopyJson(row.reasons)]),
  ));
}

/**
 * Sends writes while the caller prepares the next batch: at most `depth` writes in flight (on PostgreSQL each on a
 * connection of its own, so the server parses batches on several cores), a failure surfacing at the next push or
 * at drain.
 */
export function writeBehind(depth = 1) {
  const inFlight = new Set<Promise<unknown>>();
  let failure: unknown = null;
  const rethrow = () => {
    if (failure) throw failure;
  };
  return {
    async push(write: () => Promise<unknown>): Promise<void> {
      while (inFlight.size >= depth) await Promise.race(inFlight);
      rethrow();
      const pending: Promise<unknown> = write().then(
        () => inFlight.delete(pending),
        (error: unknown) => {
          failure ??= error;
          inFlight.delete(pending);
        },
      );
      inFlight.add(pending);
    },
    async drain(): Promise<void> {
      await Promise.all(inFlight);
      rethrow();
    },
  };
}

/** The tables the inventory stages after merging write (deleted with a failed discovery, pruned with old snapshots). */
export const observationTables = ['snapshot_installations', 'snapshot_findings', 'snapshot_service_instances', 'snapshot_license_assignments', 'snapshot_certificate_places', 'snapshot_software_vulnerabilities'];
const mergedTables = ['snapshot_assets', 'snapshot_index', 'snapshot_relations', 'merge_recommendations', ...observationTables];

/** Deletes what merging wrote of a snapshot, keeping its source records (a publish taken over starts again). */
export async function deleteMergedRows(db: Queryable, discoveryId: number): Promise<void> {
  await dropFindingsPartitions(db, [discoveryId]);
  for (const table of mergedTables) await db.query(`delete from ${table} where discovery_id = $1`, [discoveryId]);
}

/** Deletes every row of a snapshot (a failed or interrupted discovery leaves nothing behind). */
export async function deleteSnapshotRows(db: Queryable, discoveryId: number): Promise<void> {
  await db.query('delete from snapshot_records where discovery_id = $1', [discoveryId]);
  await deleteMergedRows(db, discoveryId);
}
