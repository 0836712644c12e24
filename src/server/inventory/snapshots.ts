import type { Queryable } from '../db/database.js';
import { notFound, snapshotPruned } from '../errors.js';

/** A published snapshot: the discovery that wrote it and when it started. */
export type Snapshot = { id: number; start_time: Date };
/** A snapshot, and whether its rows were pruned (then only its summary is left). */
export type PeriodSnapshot = Snapshot & { pruned: boolean };

/** The company's published snapshot named (pruned or not), or its newest with rows when none is named. */
async function publishedSnapshot(db: Queryable, companyId: number, requested: number | null | undefined): Promise<PeriodSnapshot | null> {
  const [row] = await db.query<PeriodSnapshot>(
    `select id, start_time, pruned_at is not null as pruned from discoveries
      where company_id = $1 and status = 'done' and ($2::int is null and pruned_at is null or id = $2) order by id desc limit 1`,
    [companyId, requested ?? null],
  );
  return row ?? null;
}

/**
 * The published snapshot to read: the one named (if it is the company's and published) or the latest. A named
 * snapshot whose rows were pruned answers a 404 that says so.
 */
export async function resolveSnapshot(db: Queryable, companyId: number, requested: number | null | undefined): Promise<number> {
  const snapshot = await publishedSnapshot(db, companyId, requested);
  if (!snapshot) throw notFound();
  if (snapshot.pruned) throw snapshotPruned();
  return snapshot.id;
}

/** The snapshot named, or else the newest, when its rows can be read; null when there is none or it was pruned. */
export async function readableSnapshot(db: Queryable, companyId: number, requested: number | null = null): Promise<Snapshot | null> {
  const snapshot = await publishedSnapshot(db, companyId, requested);
  return snapshot && !snapshot.pruned ? { id: snapshot.id, start_time: snapshot.start_time } : null;
}

/** Whether the company published the snapshot and its rows were pruned since. */
export async function isPrunedSnapshot(db: Queryable, companyId: number, discoveryId: number): Promise<boolean> {
  const rows = await db.query("select 1 from discoveries where id = $1 and company_id = $2 and status = 'done' and pruned_at is not null", [discoveryId, companyId]);
  return rows.length > 0;
}

// Planner settings for statements that read snapshots (lists, exports, widgets), set per transaction:
// - a snapshot's rows are written together, so reading one through the primary key touches its own pages only;
//   the default random_page_cost (4, priced for spinning disks) makes a table scan of every snapshot kept look
//   cheaper than that once a company keeps a few snapshots (PostgreSQL's documentation suggests 1.1 for SSDs);
// - such a statement runs for a fraction of a second, which JIT compilation costs more than it saves.
export const snapshotReadSettings = 'set local random_page_cost = 1.1; set local jit = off';
