import { openSecrets } from '../adapters/secretFields.js';
import type { CoreContext } from '../context.js';
import { correlate, type Cluster, type CorrelationRules } from './correlation/correlate.js';
import { deviceCorrelationRules } from './correlation/deviceRules.js';
import { deviceMergeRecommendations } from './correlation/recommendations.js';
import { userCorrelationRules } from './correlation/userRules.js';
import { mergeCluster, type FieldOrdering, type StoredRecord } from './mergeAssets.js';
import { normalizeRecord } from './normalize.js';
import { addWarning, begin, finish, newProgress, type ConnectionProgress, type DiscoveryProgress } from './progress.js';
import { recordKeyFor } from './recordKeys.js';
import { deriveRelations } from './relations.js';
import { writeAssets, writeRecommendations, writeRecords, writeRelations } from './snapshotWriter.js';
import { refreshDeviceTags } from '../inventory/tags.js';

export type DiscoverySettings = { concurrency: number; connectionTimeoutSeconds: number; snapshotsToKeep: number; ordering: FieldOrdering };

type ConnectionRow = { id: number; name: string; adapter: string; config: Record<string, unknown> };

const entitiesCorrelated: Record<string, (records: StoredRecord[]) => CorrelationRules> = {
  device: deviceCorrelationRules,
  user: () => userCorrelationRules(),
};

/** Runs `work` over items with at most `limit` at a time. */
async function eachWithConcurrency<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  });
  await Promise.all(lanes);
}

/** Fetches one connection into the snapshot; its failure is recorded on its progress and never thrown. */
async function fetchConnection(context: CoreContext, discoveryId: number, connection: ConnectionRow, progress: ConnectionProgress, settings: DiscoverySettings, collected: StoredRecord[]): Promise<void> {
  begin(progress);
  try {
    const adapter = context.adapters.catalogue.get(connection.adapter);
    const engine = adapter && context.adapters.engineFor(adapter);
    if (!adapter || !engine) throw new Error(`No fetch engine for adapter ${connection.adapter}`);
    const config = openSecrets(context.keys.secretsKey, connection.config, adapter.secretFields);
    const signal = AbortSignal.timeout(settings.connectionTimeoutSeconds * 1000);
    let batch: StoredRecord[] = [];
    const seenKeys = new Map<string, number>();
    for await (const fetched of engine.fetch({ adapter: adapter.slug, config, signal, warn: (message) => addWarning(progress, message) })) {
      const baseKey = recordKeyFor(connection.id, fetched, progress.records);
      const duplicates = seenKeys.get(baseKey) ?? 0;
      seenKeys.set(baseKey, duplicates + 1);
      const record: StoredRecord = {
        key: duplicates ? `${baseKey}#${duplicates}` : baseKey, connectionId: connection.id, adapter: adapter.slug, entity: fetched.entity, fields: normalizeRecord(fetched, adapter.slug),
      };
      batch.push(record);
      collected.push(record);
      progress.records += 1;
      progress.by_entity[fetched.entity] = (progress.by_entity[fetched.entity] ?? 0) + 1;
      if (batch.length >= 1000) {
        await writeRecords(context.db, discoveryId, batch);
        batch = [];
      }
    }
    await writeRecords(context.db, discoveryId, batch);
    finish(progress, progress.warning_count ? 'warning' : 'done');
  } catch (error) {
    progress.error = (error as Error).message.slice(0, 1000);
    finish(progress, 'error');
  }
}

function correlateEntity(entity: string, records: StoredRecord[], decisions: { merges: [string, string][]; splits: [string, string][] }): Cluster[] {
  const rules = entitiesCorrelated[entity];
  return rules ? correlate(records, rules(records), decisions) : records.map((record) => ({ records: [record.key], reasons: [] }));
}

/**
 * One discovery: fetch every enabled connection (bounded concurrency; a failing one never stops the others),
 * normalize, correlate devices and users (applying analysts' merges and splits), and publish the snapshot
 * atomically. Progress is saved as each step finishes so the console can follow it.
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
    const collected: StoredRecord[] = [];
    await eachWithConcurrency(connections, settings.concurrency, async (connection) => {
      await fetchConnection(context, discoveryId, connection, progress.connections.find((item) => item.id === connection.id)!, settings, collected);
      await save();
    });
    const failed = progress.connections.filter((connection) => connection.state === 'error').length;
    finish(progress.stages.fetch, failed ? 'warning' : 'done');
    progress.stages.fetch.detail = `${collected.length} records from ${connections.length - failed} of ${connections.length} connections`;

    begin(progress.stages.correlate);
    await save();
    const decisionRows = await db.query<{ entity: string; decision: string; left_record: string; right_record: string }>(
      'select entity, decision, left_record, right_record from merge_decisions where company_id = $1 order by id', [discovery.company_id],
    );
    const byKey = new Map(collected.map((record) => [record.key, record]));
    const entities = [...new Set(collected.map((record) => record.entity))];
    const published: { entity: string; assets: ReturnType<typeof mergeCluster>[]; recommendations: ReturnType<typeof deviceMergeRecommendations> }[] = [];
    for (const entity of entities) {
      const records = collected.filter((record) => record.entity === entity);
      const decisionsFor = (kind: string) => decisionRows.filter((row) => row.entity === entity && row.decision === kind).map((row) => [row.left_record, row.right_record] as [string, string]);
      const decisions = { merges: decisionsFor('merge'), splits: decisionsFor('split') };
      const clusters = correlateEntity(entity, records, decisions);
      const assets = clusters.map((cluster) => mergeCluster(cluster, byKey, settings.ordering));
      const recommendations = entity === 'device' ? deviceMergeRecommendations(clusters, records, decisions.splits) : [];
      published.push({ entity, assets, recommendations });
      progress.assets[entity] = assets.length;
    }
    // The source records are in the database and merged into the assets: let them go before publishing.
    collected.length = 0;
    byKey.clear();
    finish(progress.stages.correlate, 'done');
    progress.stages.correlate.detail = Object.entries(progress.assets).map(([entity, count]) => `${count} ${entity} assets`).join(', ');

    begin(progress.stages.publish);
    await save();
    await db.transaction(async (connection) => {
      for (const { entity, assets, recommendations } of published) {
        await writeAssets(connection, discoveryId, entity, assets);
        await writeRecommendations(connection, discoveryId, entity, recommendations.slice(0, 5000).map((recommendation) => ({
          left: assets[recommendation.clusters[0]].id, right: assets[recommendation.clusters[1]].id, score: recommendation.score, reasons: recommendation.reasons,
        })));
      }
      const assetsOf = (entity: string) => published.find((item) => item.entity === entity)?.assets ?? [];
      await writeRelations(connection, discoveryId, deriveRelations(assetsOf('device'), assetsOf('user')));
      await refreshDeviceTags(connection, discovery.company_id, discoveryId, null);
      for (const item of progress.connections) {
        const status = { done: 1, warning: 2, error: 3 }[item.state as 'done'] ?? 4;
        await connection.query('update connections set status = $2, status_detail = $3, last_checked_at = now() where id = $1', [item.id, status, item.error || item.warnings[0] || '']);
      }
      finish(progress.stages.publish, 'done');
      // The publish itself: from this update on, readers see the new snapshot.
      await connection.query("update discoveries set status = 'done', end_time = now(), progress = $2 where id = $1", [discoveryId, JSON.stringify(progress)]);
    });
    await pruneSnapshots(context, discovery.company_id, settings.snapshotsToKeep);
  } catch (error) {
    await db.query("update discoveries set status = 'error', end_time = now(), error = $2, progress = $3 where id = $1", [discoveryId, (error as Error).message.slice(0, 2000), JSON.stringify(progress)]);
  }
}

/** Keeps the newest published snapshots of a company and deletes the rows of older ones (their summaries stay). */
export async function pruneSnapshots(context: CoreContext, companyId: number, keep: number): Promise<void> {
  const stale = `select id from discoveries where company_id = $1 and status = 'done' order by id desc offset $2`;
  await context.db.query(`delete from snapshot_records where discovery_id in (${stale})`, [companyId, keep]);
  await context.db.query(`delete from snapshot_assets where discovery_id in (${stale})`, [companyId, keep]);
  await context.db.query(`delete from snapshot_relations where discovery_id in (${stale})`, [companyId, keep]);
}
