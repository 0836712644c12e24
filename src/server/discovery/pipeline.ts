import type PgBoss from 'pg-boss';
import type { CoreContext } from '../context.js';
import type { Queryable } from '../db/database.js';
import { withRetries } from '../db/retry.js';
import type { SnapshotPublished } from '../jobs/published.js';
import { inventorySchemas } from '../inventory/indexedFields.js';
import { buildSnapshotIndex, settleSnapshotTables } from '../inventory/snapshotIndex.js';
import { followFindingStatuses } from '../inventory/softwareLinks.js';
import { refreshDeviceTags } from '../inventory/tags.js';
import { pruneSecurityRows, scoreSnapshot } from '../security/scoring.js';
import { writeMergedAssets } from './assetStage.js';
import { correlate, type Cluster, type CorrelationRules, type ManualDecisions, type SourceRecord } from './correlation/correlate.js';
import { deviceCorrelationRules } from './correlation/deviceRules.js';
import { logDiscoveryFailed } from './discoveryEvents.js';
import { deviceMergeRecommendations, type RecommendationPolicy } from './correlation/recommendations.js';
import { userCorrelationRules } from './correlation/userRules.js';
import { connectionRowColumns, fetchConnection, readHeldRecords, type ConnectionRow } from './fetchStage.js';
import type { FieldOrdering } from './mergeAssets.js';
import { begin, finish, newProgress, type DiscoveryProgress } from './progress.js';
import { buildObservationInventories } from './relatedInventories.js';
import { DeviceLinks } from './software/deviceLinks.js';
import { dropFindingsPartitions } from './software/findingsPartitions.js';
import { deriveRelations, type RelatedAsset } from './relations.js';
import { fillDeviceObservationFields } from './deviceObservationFields.js';
import { loadDiscoverySettings, type DiscoverySettings } from './settings.js';
import { writeSnapshotSummary } from './snapshotSummaries.js';
import { deleteMergedRows, deleteSnapshotRows, observationTables, writeRecommendations, writeRelations } from './snapshotWriter.js';
import { advance, claimStep, connectionOfStep, retryStep, type Pace, type StepJob, type StepLease } from './steps.js';

const entitiesCorrelated: Record<string, (records: SourceRecord[]) => CorrelationRules> = {
  device: deviceCorrelationRules,
  user: () => userCorrelationRules(),
};

// A conservative pace of correlation on a slow core (it runs near 20k records a second on the 2-core machine).
const correlatedRecordsPerSecond = 2000;

function correlateEntity(entity: string, records: SourceRecord[], decisions: ManualDecisions): Cluster[] {
  const rules = entitiesCorrelated[entity];
  return rules ? correlate(records, rules(records), decisions) : records.map((record) => ({ records: [record.key], reasons: [] }));
}

/** Tells the publish's subscribers, in the publish's transaction. */
export type Announce = (transaction: Queryable, event: SnapshotPublished) => Promise<void>;

/** A running discovery as its steps read it. */
type RunningDiscovery = { company_id: number; progress: DiscoveryProgress };

async function runningDiscovery(db: Queryable, discoveryId: number): Promise<RunningDiscovery | null> {
  const [discovery] = await db.query<RunningDiscovery>("select company_id, progress from discoveries where id = $1 and status = 'running'", [discoveryId]);
  return discovery ?? null;
}

/** Ends a running discovery as failed and deletes what it wrote; a publish that committed first stays. */
async function failDiscovery(db: Queryable, discoveryId: number, error: unknown, progress?: DiscoveryProgress): Promise<void> {
  const message = (error as Error).message?.slice(0, 2000) || String(error);
  const failed = await withRetries(() =>
    progress
      ? db.query("update discoveries set status = 'error', end_time = now(), error = $2, progress = $3 where id = $1 and status = 'running' returning id", [discoveryId, message, JSON.stringify(progress)])
      : db.query("update discoveries set status = 'error', end_time = now(), error = $2 where id = $1 and status = 'running' returning id", [discoveryId, message]),
  );
  if (!failed.length) return;
  await withRetries(() => deleteSnapshotRows(db, discoveryId));
  await logDiscoveryFailed(db, discoveryId, message);
}

/**
 * A step's attempt that threw: nothing when another attempt owns the step now; otherwise the step is tried again
 * (its worker's database writes failed: a restart, a failover), and after its last attempt the discovery fails.
 */
async function afterThrow(context: CoreContext, queue: PgBoss, lease: StepLease, pace: Pace, error: unknown, progress?: DiscoveryProgress): Promise<void> {
  if (lease.signal.aborted) return;
  const retried = await withRetries(() => context.db.transaction((transaction) => retryStep(transaction, queue, lease, pace)));
  if (!retried) await failDiscovery(context.db, lease.discoveryId, error, progress);
}

/**
 * One fetch step: fetches its connection into the snapshot (a failing source is recorded on its progress and never
 * stops the others), ends the step, and moves the discovery on: the next pending fetch, or the publish after the last.
 */
export async function runFetchStep(context: CoreContext, queue: PgBoss, job: StepJob): Promise<void> {
  const { db } = context;
  const lease = await claimStep(db, job);
  if (!lease) return;
  const discovery = await runningDiscovery(db, job.discoveryId);
  if (!discovery) return lease.release();
  const settings = await loadDiscoverySettings(db, discovery.company_id, context.adapters.catalogue);
  const connectionId = connectionOfStep(job.step);
  const position = discovery.progress.connections.findIndex((item) => item.id === connectionId);
  const [connection] = await db.query<ConnectionRow>(
    `select ${connectionRowColumns} from connections c join connectors k on k.id = c.connector_id where c.id = $1 and c.company_id = $2`, [connectionId, discovery.company_id]);
  const progress = newProgress([connection ?? discovery.progress.connections[position]]).connections[0];
  const saveOn = (queryable: Queryable) =>
    queryable.query("update discoveries set progress = jsonb_set(progress, array['connections', $2::text], $3::jsonb) where id = $1", [job.discoveryId, position, JSON.stringify(progress)]);
  const save = () => saveOn(db);
  try {
    if (connection) await fetchConnection(context, job.discoveryId, connection, { progress, save }, settings.connectionTimeoutSeconds, lease);
    else finish(Object.assign(progress, { error: 'The connection was deleted while the discovery ran.' }), 'error');
    await db.transaction(async (transaction) => {
      if (!(await lease.finish(transaction, progress.state as 'done'))) return;
      await saveOn(transaction);
      await advance(transaction, queue, job.discoveryId, settings);
    });
  } catch (error) {
    await afterThrow(context, queue, lease, settings, error);
  } finally {
    lease.release();
  }
}

/**
 * The publish step: correlate devices and users (applying analysts' merges and splits) from the identities the
 * fetches wrote, write the merged assets, and publish the snapshot. Rows are written as they are ready; readers see
 * none of them until the one update that marks the discovery done, which is the atomic publish, and which only the
 * attempt that still owns the step may make.
 */
export async function runPublishStep(context: CoreContext, queue: PgBoss, job: StepJob, announce: Announce): Promise<void> {
  const { db } = context;
  const lease = await claimStep(db, job);
  if (!lease) return;
  const discovery = await runningDiscovery(db, job.discoveryId);
  if (!discovery) return lease.release();
  const discoveryId = job.discoveryId;
  const settings = await loadDiscoverySettings(db, discovery.company_id, context.adapters.catalogue);
  const { progress } = discovery;
  const save = () => db.query('update discoveries set progress = $2 where id = $1', [discoveryId, JSON.stringify(progress)]);
  try {
    // An attempt taken over from a worker that died wrote part of these: start from none.
    await deleteMergedRows(db, discoveryId);
    const failed = progress.connections.filter((connection) => connection.state === 'error').length;
    const fetched = progress.connections.reduce((sum, connection) => sum + connection.records, 0);
    finish(progress.stages.fetch, failed ? 'warning' : 'done');
    progress.stages.fetch.detail = `${fetched} records from ${progress.connections.length - failed} of ${progress.connections.length} connections`;

    begin(progress.stages.correlate);
    await save();
    // Merging reads the records back by key: statistics that know how many were just written let the planner use
    // the key instead of scanning them all for every batch.
    await db.exec('analyze snapshot_records');
    const held = await readHeldRecords(db, discoveryId);
    const decisionRows = await db.query<{ entity: string; decision: string; left_record: string; right_record: string }>(
      'select entity, decision, left_record, right_record from merge_decisions where company_id = $1 order by id', [discovery.company_id],
    );
    const related: Record<string, RelatedAsset[]> = {};
    let devices: DeviceLinks | null = null;
    for (const [entity, records] of held) {
      lease.throwIfSuperseded();
      // Correlation runs without yielding: no heartbeat can be sent meanwhile, so the attempt says beforehand how
      // long it will be busy.
      await lease.holdFor(Math.ceil(records.length / correlatedRecordsPerSecond));
      const decisionsFor = (kind: string) => decisionRows.filter((row) => row.entity === entity && row.decision === kind).map((row) => [row.left_record, row.right_record] as [string, string]);
      const decisions = { merges: decisionsFor('merge'), splits: decisionsFor('split') };
      const clusters = correlateEntity(entity, records, decisions);
      const recommendations = entity === 'device' ? deviceMergeRecommendations(clusters, records, decisions.splits, settings.recommendations.policy).slice(0, settings.recommendations.kept) : [];
      const written = await writeMergedAssets(db, discoveryId, entity, clusters, settings.ordering);
      await writeRecommendations(db, discoveryId, entity, recommendations.map((recommendation) => ({
        left: written.ids[recommendation.clusters[0]], right: written.ids[recommendation.clusters[1]], score: recommendation.score, reasons: recommendation.reasons,
      })));
      related[entity] = written.related;
      if (entity === 'device') devices = new DeviceLinks(records, clusters, written.ids);
      progress.assets[entity] = clusters.length;
      // Heartbeats again from here: a worker dying from now on is noticed at once.
      await lease.holdFor(0);
      // The entity's records are in the snapshot and merged into its assets: let them go before the next entity.
      held.delete(entity);
    }
    // Installed software and vulnerability findings, linked to the merged devices.
    await buildObservationInventories(db, discoveryId, devices, progress);
    await fillDeviceObservationFields(db, discoveryId);
    devices = null;
    finish(progress.stages.correlate, 'done');
    progress.stages.correlate.detail = Object.entries(progress.assets).map(([entity, count]) => `${count} ${entity} assets`).join(', ');

    begin(progress.stages.publish);
    await save();
    await writeRelations(db, discoveryId, deriveRelations(related.device ?? [], related.user ?? []));
    await db.transaction(async (connection) => {
      if (!(await lease.finish(connection, 'done'))) lease.throwIfSuperseded();
      await refreshDeviceTags(connection, discovery.company_id, discoveryId, null);
      await followFindingStatuses(connection, discovery.company_id, discoveryId);
      // After the tags, so the index holds the documents as published. The devices' last: the security scoring reads
      // the other inventories' index and writes the scores into the devices' documents, which their index rows hold.
      await buildSnapshotIndex(connection, discoveryId, Object.keys(inventorySchemas).filter((entity) => entity !== 'device'));
      await scoreSnapshot(connection, discovery.company_id, discoveryId);
      await buildSnapshotIndex(connection, discoveryId, ['device']);
      await writeSnapshotSummary(connection, discoveryId);
      for (const item of progress.connections) {
        const status = { done: 1, warning: 2, error: 3 }[item.state as 'done'] ?? 4;
        await connection.query('update connections set status = $2, status_detail = $3, last_checked_at = now() where id = $1', [item.id, status, item.error || item.warnings[0] || '']);
      }
      finish(progress.stages.publish, 'done');
      // The publish itself: from this update on, readers see the new snapshot.
      await connection.query("update discoveries set status = 'done', end_time = now(), progress = $2 where id = $1 and status = 'running'", [discoveryId, JSON.stringify(progress)]);
      await announce(connection, { companyId: discovery.company_id, discoveryId });
    });
  } catch (error) {
    await afterThrow(context, queue, lease, settings, error, progress);
    return;
  } finally {
    lease.release();
  }
  await pruneSnapshots(context, discovery.company_id, settings.snapshotsToKeep);
  await settleSnapshotTables(db);
}

/**
 * Keeps the newest published snapshots of a company and deletes the rows of older ones. Their discovery rows stay,
 * marked pruned first (so a reader meeting a half-deleted snapshot is told it was pruned), and so do their summaries.
 */
export async function pruneSnapshots(context: CoreContext, companyId: number, keep: number): Promise<void> {
  const stale = `select id from discoveries where company_id = $1 and status = 'done' order by id desc offset $2`;
  await context.db.query(`update discoveries set pruned_at = now() where id in (${stale}) and pruned_at is null`, [companyId, keep]);
  await dropFindingsPartitions(context.db, (await context.db.query<{ id: number }>(stale, [companyId, keep])).map((row) => row.id));
  await context.db.query(`delete from snapshot_records where discovery_id in (${stale})`, [companyId, keep]);
  await context.db.query(`delete from snapshot_assets where discovery_id in (${stale})`, [companyId, keep]);
  await context.db.query(`delete from snapshot_relations where discovery_id in (${stale})`, [companyId, keep]);
  await context.db.query(`delete from snapshot_index where discovery_id in (${stale})`, [companyId, keep]);
  for (const table of observationTables) await context.db.query(`delete from ${table} where discovery_id in (${stale})`, [companyId, keep]);
  await pruneSecurityRows(context.db, stale, [companyId, keep]);
}
