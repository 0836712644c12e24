import type { Queryable } from '../db/database.js';
import { notFound } from '../http/errors.js';

/** The published snapshot to read: the one named (if it is the company's and published) or the latest. */
export async function resolveSnapshot(db: Queryable, companyId: number, requested: number | null | undefined): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    "select id from discoveries where company_id = $1 and status = 'done' and ($2::int is null or id = $2) order by id desc limit 1",
    [companyId, requested ?? null],
  );
  if (!row) throw notFound();
  return row.id;
}

// Planner settings for statements that read snapshots (lists, exports, widgets), set per transaction:
// - a snapshot's rows are written together, so reading one through the primary key touches its own pages only;
//   the default random_page_cost (4, priced for spinning disks) makes a table scan of every snapshot kept look
//   cheaper than that once a company keeps a few snapshots (PostgreSQL's documentation suggests 1.1 for SSDs);
// - such a statement runs for a fraction of a second, which JIT compilation costs more than it saves.
export const snapshotReadSettings = 'set local random_page_cost = 1.1; set local jit = off';
