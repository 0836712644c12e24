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
