import type { CoreContext } from '../context.js';
import { withRetries } from '../db/retry.js';
import { warmDashboards } from '../dashboards/warmDashboards.js';
import { buildSnapshotIndex } from '../inventory/snapshotIndex.js';
import { refreshDeviceTags } from '../inventory/tags.js';
import { writeMergedAssets } from './assetStage.js';
import { correlate, type Cluster, type CorrelationRules, type ManualDecisions, type SourceRecord } from './correlation/correlate.js';
import { deviceCorrelationRules } from './correlation/deviceRules.js';
import { deviceMergeRecommendations } from './correlation/recommendations.js';
import { userCorrelationRules } from './correlation/userRules.js';
import { fetchConnection, type ConnectionRow, type HeldRecords } from './fetchStage.js';
import type { FieldOrdering } from './mergeAssets.js';
import { begin, finish, newProgress, type DiscoveryProgress } from './progress.js';
import { buildObservationInventories, observationTables } from './relatedInventories.js';
import { DeviceLinks } from './software/deviceLinks.js';
import { deriveRelations, type RelatedAsset } from './relations.js';
import { deleteSnapshotRows, writeRecommendations, writeRelations } from './snapshotWriter.js';

export type DiscoverySettings = { concurrency: number; connectionTimeoutSeconds: number; snapshotsToKeep: number; ordering: FieldOrdering };

const entitiesCorrelated: Record<string, (records: SourceRecord[]) => CorrelationRules> = {
  device: deviceCorrelationRules,
  user: () => userCorrelationRules(),
};

// Merge recommendations kept per snapshot, the strongest first.
const keptRecommendations = 5000;

/**
 * Runs `work` over items with at most `limit` at a time. A failure stops new items and is thrown once every lane has
 * stopped, so nothing of the run is still writing when the caller cleans up after it.
 */
async function eachWithConcurrency<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (!failed && next < items.length) {
      await work(items[next++]).catch((error: unknown) => {
        failed = true;
        throw error;
      });
    }
  });
  const outcomes = await Promise.allSettled(lanes);
  const failure = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failure) throw failure.reason;
}

function correlateEntity(entity: string, records: SourceRecord[], decisions: ManualDecisions): Cluster[] {
  const rules = entitiesCorrelated[entity];
  return rules ? correlate(records, rules(records), decisions) : records.map((record) => ({ records: [record.key], reasons: [] }));
}

/**
 * One discovery: fetch every enabled connection (bounded concurrency; a failing one never stops the others),
 * normalize, correlate devices and users (applying analysts' merges and splits), write the merged assets, and
 * publish the snapshot. Rows are written as they are ready; readers see none of them until the one update that
 * marks the discovery done, which is the atomic publish. Progress is saved as each step finishes.
 */
export async function runDiscovery(context: CoreContext, discoveryId: number, settings: DiscoverySettings): Promise<void> {
  const { db } = context;
  const [discovery] = await db.query<{ company_id: number }>("select company_id from discoveries where id = $1 and status = 'running'", [discoveryId]);
  if (!discovery) return;
  const connections = await db.query<ConnectionRow>('select id, name, adapter, config from connections where company_id = $1 and enabled order by id', [discovery.company_id]);
  const progress: DiscoveryProgress = newProgress(connections);
  const save = () => db.query('update discoveries set progress = $2 where id = $1', [discoveryId, JSON.stringify(progress)]);
  try {
    begin(progress.stages.fetch);
    await save();
    const held: HeldRecords = new Map();
    await eachWithConcurrency(connections, settings.concurrency, async (connection) => {
      await fetchConnection(context, discoveryId, connection, progress.connections.find((item) => item.id === connection.id)!, settings.connectionTimeoutSeconds, held);
      await save();
    });
    const failed = progress.connections.filter((connection) => connection.state === 'error').length;
    const fetched = progress.connections.reduce((sum, connection) => sum + connection.records, 0);
    finish(progress.stages.fetch, failed ? 'warning' : 'done');
    progress.stages.fetch.detail = `${fetched} records from ${connections.length - failed} of ${connections.length} connections`;

    begin(progress.stages.correlate);
    await save();
    // Merging reads the records back by key: statistics that know how many were just written let the planner use
    // the key instead of scanning them all for every batch.
    await db.exec('analyze snapshot_records');
    const decisionRows = await db.query<{ entity: string; decision: string; left_record: string; right_record: string }>(
      'select entity, decision, left_record, right_record from merge_decisions where company_id = $1 order by id', [discovery.company_id],
    );
    const related: Record<string, RelatedAsset[]> = {};
    let devices: DeviceLinks | null = null;
    for (const [entity, records] of held) {
      const decisionsFor = (kind: string) => decisionRows.filter((row) => row.entity === entity && row.decision === kind).map((row) => [row.left_record, row.right_record] as [string, string]);
      const decisions = { merges: decisionsFor('merge'), splits: decisionsFor('split') };
      const clusters = correlateEntity(entity, records, decisions);
      const recommendations = entity === 'device' ? deviceMergeRecommendations(clusters, records, decisions.splits).slice(0, keptRecommendations) : [];
      const written = await writeMergedAssets(db, discoveryId, entity, clusters, settings.ordering);
      await writeRecommendations(db, discoveryId, entity, recommendations.map((recommendation) => ({
        left: written.ids[recommendation.clusters[0]], right: written.ids[recommendation.clusters[1]], score: recommendation.score, reasons: recommendation.reasons,
      })));
      related[entity] = written.related;
      if (entity === 'device') devices = new DeviceLinks(records, clusters, written.ids);
      progress.assets[entity] = clusters.length;
      // The entity's records are in the snapshot and merged into its assets: let them go before the next entity.
      held.delete(entity);
    }
    // Installed software and vulnerability findings, linked to the merged devices.
    await buildObservationInventories(db, discoveryId, devices, progress);
    devices = null;
    finish(progress.stages.correlate, 'done');
    progress.stages.correlate.detail = Object.entries(progress.assets).map(([entity, count]) => `${count} ${entity} assets`).join(', ');

    begin(progress.stages.publish);
    await save();
    await writeRelations(db, discoveryId, deriveRelations(related.device ?? [], related.user ?? []));
    await db.transaction(async (connection) => {
      await refreshDeviceTags(connection, discovery.company_id, discoveryId, null);
      // After the tags, so the index holds the documents as published.
      await buildSnapshotIndex(connection, discoveryId);
      for (const item of progress.connections) {
        const status = { done: 1, warning: 2, error: 3 }[item.state as 'done'] ?? 4;
        await connection.query('update connections set status = $2, status_detail = $3, last_checked_at = now() where id = $1', [item.id, status, item.error || item.warnings[0] || '']);
      }
      finish(progress.stages.publish, 'done');
      // The publish itself: from this update on, readers see the new snapshot.
      await connection.query("update discoveries set status = 'done', end_time = now(), progress = $2 where id = $1", [discoveryId, JSON.stringify(progress)]);
    });
  } catch (error) {
    // Recorded and cleaned up even when the error was the database dropping its connections. A publish whose commit
    // landed before its connection went is live: it stays.
    const failed = await withRetries(() =>
      db.query("update discoveries set status = 'error', end_time = now(), error = $2, progress = $3 where id = $1 and status = 'running' returning id", [discoveryId, (error as Error).message.slice(0, 2000) || String(error), JSON.stringify(progress)]),
    );
    if (failed.length) {
      await withRetries(() => deleteSnapshotRows(db, discoveryId));
      return;
    }
  }
  await pruneSnapshots(context, discovery.company_id, settings.snapshotsToKeep);
  // Statistics that know the new snapshot, so lists and charts get plans made for its size (PGlite has no autovacuum).
  await db.exec('analyze snapshot_assets, snapshot_index');
  // The company's dashboards computed now, in the background, so the first one opened is already answered.
  void warmDashboards(context, discovery.company_id);
}

/** Keeps the newest published snapshots of a company and deletes the rows of older ones (their summaries stay). */
export async function pruneSnapshots(context: CoreContext, companyId: number, keep: number): Promise<void> {
  const stale = `select id from discoveries where company_id = $1 and status = 'done' order by id desc offset $2`;
  await context.db.query(`delete from snapshot_records where discovery_id in (${stale})`, [companyId, keep]);
  await context.db.query(`delete from snapshot_assets where discovery_id in (${stale})`, [companyId, keep]);
  await context.db.query(`delete from snapshot_relations where discovery_id in (${stale})`, [companyId, keep]);
  await context.db.query(`delete from snapshot_index where discovery_id in (${stale})`, [companyId, keep]);
  for (const table of observationTables) await context.db.query(`delete from ${table} where discovery_id in (${stale})`, [companyId, keep]);
}
