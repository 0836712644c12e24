import type { Queryable } from '../db/database.js';

// A snapshot's summary (migration 0116): the size of each of its inventories. Written with the publish, in its
// transaction, and kept after the snapshot's rows are pruned, so history and trend widgets have a point for every
// discovery however few snapshots are kept.

/** One inventory's size in one snapshot. */
export type SnapshotCount = { discovery_id: number; entity: string; assets: number };

/** Counts each inventory of the snapshot into its summary (at the publish, and again when an analyst's merge changes it). */
export async function writeSnapshotSummary(db: Queryable, discoveryId: number): Promise<void> {
  await db.query('delete from snapshot_summaries where discovery_id = $1', [discoveryId]);
  await db.query(
    `insert into snapshot_summaries (discovery_id, company_id, entity, assets)
     select a.discovery_id, d.company_id, a.entity, count(*)::int
       from snapshot_assets a join discoveries d on d.id = a.discovery_id
      where a.discovery_id = $1 group by a.discovery_id, d.company_id, a.entity`,
    [discoveryId],
  );
}

/** The size of each inventory (or of the named ones) in each of the snapshots; an inventory a snapshot did not hold has no row. */
export function snapshotCounts(db: Queryable, discoveryIds: number[], entities: readonly string[] | null = null): Promise<SnapshotCount[]> {
  return db.query<SnapshotCount>(
    'select discovery_id, entity, assets from snapshot_summaries where discovery_id = any($1::int[]) and ($2::text[] is null or entity = any($2::text[])) order by discovery_id, entity',
    [discoveryIds, entities],
  );
}

/** The count of `entity` in `discoveryId` among `counts`, 0 when the snapshot held none. */
export function countOf(counts: SnapshotCount[], discoveryId: number, entity: string): number {
  return counts.find((row) => row.discovery_id === discoveryId && row.entity === entity)?.assets ?? 0;
}
