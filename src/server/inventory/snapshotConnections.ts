import type { SnapshotConnection } from '../../core/connectionNames.js';
import type { Queryable } from '../db/database.js';

/**
 * The connections a snapshot was fetched from, as its discovery recorded them, each under its current name (a
 * renamed connection shows its new name at once) or, once deleted, the name it had then. Assets hold connection
 * ids (`Connections`); this is how lists, details and charts name them.
 */
export async function snapshotConnections(db: Queryable, discoveryId: number): Promise<SnapshotConnection[]> {
  return db.query<SnapshotConnection>(
    `select (item->>'id')::int as id, coalesce(current.name, item->>'name') as name, coalesce(current.adapter, item->>'adapter') as adapter
       from discoveries cross join lateral jsonb_array_elements(coalesce(progress->'connections', '[]'::jsonb)) as item
       left join connections current on current.id = (item->>'id')::int and current.company_id = discoveries.company_id
      where discoveries.id = $1
      order by 1`,
    [discoveryId],
  );
}
