import type { Queryable } from '../../db/database.js';
import { findingsPartition } from './findingsPartitions.js';

// Findings that no source dates (Cartograph's own matches, scanners that give no first-seen date) are dated by the
// discoveries that hold them: last seen is the start of the snapshot's discovery, first seen the start of the first
// discovery whose snapshot held the finding (finding_sightings, migration 0165). Writing the first-seen date into each
// snapshot's rows would rewrite every row of a partition that COPY just loaded; the sightings table gains only the
// findings new to the company, and readers take the date from it where the row has none.

/** The start of a discovery, as findings' dates are written (ISO-8601, UTC). */
export async function snapshotSeenAt(db: Queryable, discoveryId: number): Promise<string> {
  const [row] = await db.query<{ start_time: Date | string }>('select start_time from discoveries where id = $1', [discoveryId]);
  return new Date(row.start_time).toISOString();
}

/** Records the snapshot's undated findings the company had never seen: first seen at the start of this discovery. */
export async function recordFirstSightings(db: Queryable, discoveryId: number, seenAt: string): Promise<void> {
  await db.query(
    `insert into finding_sightings (company_id, finding_id, first_seen, first_discovery_id)
     select d.company_id, f.finding_id, $2, d.id from ${findingsPartition(discoveryId)} f join discoveries d on d.id = $1
      where f.first_seen is null
     on conflict (company_id, finding_id) do nothing`,
    [discoveryId, seenAt],
  );
}

/** SQL of a finding's first-seen date over the row `row` of snapshot_findings, for the company in parameter `company`. */
export const firstSeenSql = (row: string, company: string) =>
  `coalesce(${row}.first_seen, (select s.first_seen from finding_sightings s where s.company_id = ${company} and s.finding_id = ${row}.finding_id))`;
