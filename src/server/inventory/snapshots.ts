import type { Queryable } from '../db/database.js';
import { notFound, snapshotPruned } from '../errors.js';

/**
 * The published snapshot to read: the one named (if it is the company's and published) or the latest. A named
 * snapshot whose rows were pruned answers a 404 that says so.
 */
export async function resolveSnapshot(db: Queryable, companyId: number, requested: number | null | undefined): Promise<number> {
  const [row] = await db.query<{ id: number; pruned: boolean }>(
    `select id, pruned_at is not null as pruned from discoveries
      where company_id = $1 and status = 'done' and ($2::int is null and pruned_at is null or id = $2) order by id desc limit 1`,
    [companyId, requested ?? null],
  );
  if (!row) throw notFound();
  if (row.pruned) throw snapshotPruned();
  return row.id;
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
