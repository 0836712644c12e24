import type { CoreContext } from '../context.js';
import type { Queryable } from '../db/database.js';
import type { Cluster } from '../discovery/correlation/correlate.js';
import { mergeCluster, type MergedAsset, type StoredRecord } from '../discovery/mergeAssets.js';
import { loadDiscoverySettings } from '../discovery/settings.js';
import { deriveRelations, relationFields, type RelatedAsset } from '../discovery/relations.js';
import { writeSnapshotSummary } from '../discovery/snapshotSummaries.js';
import { writeAssets, writeRelations } from '../discovery/snapshotWriter.js';
import { fieldError } from '../errors.js';
import { refreshSnapshotIndex } from './snapshotIndex.js';
import { refreshDeviceTags } from './tags.js';

type AssetRow = { asset_id: string; record_keys: string[]; reasons: Cluster['reasons'] };

async function loadAssets(db: Queryable, discoveryId: number, ids: string[]): Promise<AssetRow[]> {
  const rows = await db.query<AssetRow>("select asset_id, record_keys, reasons from snapshot_assets where discovery_id = $1 and entity = 'device' and asset_id = any($2::text[])", [discoveryId, ids]);
  const missing = ids.find((id) => !rows.some((row) => row.asset_id === id));
  if (missing) throw fieldError('assets', `Invalid pk "${missing}" - object does not exist.`);
  return rows;
}

async function loadRecords(db: Queryable, discoveryId: number, keys: string[]): Promise<Map<string, StoredRecord>> {
  const rows = await db.query<{ record_key: string; connection_id: number; adapter: string; entity: string; fields: StoredRecord['fields'] }>(
    'select record_key, connection_id, adapter, entity, fields from snapshot_records where discovery_id = $1 and record_key = any($2::text[])',
    [discoveryId, keys],
  );
  return new Map(rows.map((row) => [row.record_key, { key: row.record_key, connectionId: row.connection_id, adapter: row.adapter, entity: row.entity, fields: row.fields }]));
}

/**
 * Derives the snapshot's relations again from its assets: a merge or unmerge re-keys devices, and can make a host
 * or account name that named two assets name one (or the reverse), so every relation is recomputed, not patched.
 */
async function refreshRelations(db: Queryable, discoveryId: number): Promise<void> {
  const rows = await db.query<{ entity: string; asset_id: string; fields: RelatedAsset['fields'] }>(
    `select entity, asset_id, (select coalesce(jsonb_object_agg(key, value), '{}') from jsonb_each(fields) where key = any($2::text[])) as fields
       from snapshot_assets where discovery_id = $1 and entity in ('device', 'user')`,
    [discoveryId, [...relationFields, 'Adapters']],
  );
  const related = (entity: string) => rows.filter((row) => row.entity === entity).map((row) => ({ id: row.asset_id, adapters: (row.fields.Adapters ?? []) as string[], fields: row.fields }));
  await db.query('delete from snapshot_relations where discovery_id = $1', [discoveryId]);
  await writeRelations(db, discoveryId, deriveRelations(related('device'), related('user')));
}

/** Replaces assets of the snapshot with re-merged ones, so an analyst's decision shows at once. */
async function replaceAssets(context: CoreContext, companyId: number, discoveryId: number, removed: string[], clusters: Cluster[]): Promise<MergedAsset[]> {
  const byKey = await loadRecords(context.db, discoveryId, clusters.flatMap((cluster) => cluster.records));
  const { ordering } = await loadDiscoverySettings(context.db, companyId, context.adapters.catalogue);
  const assets = clusters.map((cluster) => mergeCluster(cluster, cluster.records.map((key) => byKey.get(key)!), ordering));
  await context.db.transaction(async (connection) => {
    await connection.query("delete from snapshot_assets where discovery_id = $1 and entity = 'device' and asset_id = any($2::text[])", [discoveryId, removed]);
    await connection.query('delete from merge_recommendations where discovery_id = $1 and (left_asset = any($2::text[]) or right_asset = any($2::text[]))', [discoveryId, removed]);
    await writeAssets(connection, discoveryId, 'device', assets);
    await refreshSnapshotIndex(connection, discoveryId, 'device', [...removed, ...assets.map((asset) => asset.id)]);
    await refreshDeviceTags(connection, companyId, discoveryId, assets.map((asset) => asset.id));
    await refreshRelations(connection, discoveryId);
    // A merge changes how many devices the snapshot holds: its summary (the trends' point) follows.
    await writeSnapshotSummary(connection, discoveryId);
  });
  return assets;
}

async function recordDecisions(db: Queryable, companyId: number, userId: number, decision: 'merge' | 'split', pairs: [string, string][]): Promise<void> {
  for (const [left, right] of pairs) {
    await db.query("delete from merge_decisions where company_id = $1 and entity = 'device' and ((left_record = $2 and right_record = $3) or (left_record = $3 and right_record = $2))", [companyId, left, right]);
    await db.query("insert into merge_decisions (company_id, entity, decision, left_record, right_record, decided_by) values ($1, 'device', $2, $3, $4, $5)", [companyId, decision, left, right, userId]);
  }
}

/** Merges devices an analyst says are one machine: in this snapshot now, and in every later discovery. */
export async function mergeDevices(context: CoreContext, companyId: number, userId: number, discoveryId: number, ids: string[]): Promise<MergedAsset> {
  const assets = await loadAssets(context.db, discoveryId, ids);
  const anchors = assets.map((asset) => asset.record_keys[0]);
  await recordDecisions(context.db, companyId, userId, 'merge', anchors.slice(1).map((anchor) => [anchors[0], anchor]));
  const manual = anchors.slice(1).map((anchor) => ({ rule: 'manual', value: 'merged by an analyst', records: [anchors[0], anchor] as [string, string] }));
  const [merged] = await replaceAssets(context, companyId, discoveryId, ids, [{ records: assets.flatMap((asset) => asset.record_keys), reasons: [...assets.flatMap((asset) => asset.reasons), ...manual] }]);
  return merged;
}

/** Takes source records out of a merged device: they form a device of their own now and in every later discovery. */
export async function unmergeDevice(context: CoreContext, companyId: number, userId: number, discoveryId: number, id: string, separated: string[]): Promise<MergedAsset[]> {
  const [asset] = await loadAssets(context.db, discoveryId, [id]);
  const unknown = separated.find((key) => !asset.record_keys.includes(key));
  if (unknown) throw fieldError('records', `Record "${unknown}" is not part of this device.`);
  const remaining = asset.record_keys.filter((key) => !separated.includes(key));
  if (!remaining.length) throw fieldError('records', 'Leave at least one record in the device.');
  await recordDecisions(context.db, companyId, userId, 'split', separated.flatMap((key) => remaining.map((other) => [key, other] as [string, string])));
  const keep = (keys: string[]) => asset.reasons.filter((reason) => keys.includes(reason.records[0]) && keys.includes(reason.records[1]));
  return replaceAssets(context, companyId, discoveryId, [id], [
    { records: remaining, reasons: keep(remaining) },
    { records: separated, reasons: keep(separated) },
  ]);
}
