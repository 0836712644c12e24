import type { Queryable } from '../../db/database.js';

// Each snapshot's findings are a partition of snapshot_findings (migration 0112). The vulnerability stage loads them
// into a bare table of their own: no index to keep up and no foreign key to check row by row while millions of rows
// arrive. Once they are all in, the table gets the partitioned table's indexes and key, each built in one pass, and is
// attached; the indexes and the key are the partitioned table's own, so attaching adopts them without building them
// again. Until then no reader sees the snapshot's findings (none reads a snapshot before it is published).

/** The table of one snapshot's findings. */
export const findingsPartition = (discoveryId: number) => `snapshot_findings_${Math.trunc(discoveryId)}`;

/** Starts the snapshot's findings afresh: an empty bare table shaped like snapshot_findings, which COPY appends to. */
export async function createFindingsLoad(db: Queryable, discoveryId: number): Promise<string> {
  const table = findingsPartition(discoveryId);
  await dropFindingsPartitions(db, [discoveryId]);
  // The check lets attaching skip the scan that would prove every row belongs to the snapshot.
  await db.exec(`create table ${table} (like snapshot_findings including defaults including constraints, check (discovery_id = ${Math.trunc(discoveryId)}))`);
  return table;
}

/** Indexes the loaded findings and attaches them as the snapshot's partition. */
export async function attachFindingsLoad(db: Queryable, discoveryId: number): Promise<void> {
  const table = findingsPartition(discoveryId);
  await db.exec(`
    alter table ${table} add primary key (discovery_id, finding_id);
    create index on ${table} (discovery_id, device_asset);
    create index on ${table} (discovery_id, vulnerability_asset);
    alter table ${table} add foreign key (discovery_id) references discoveries (id) on delete cascade;
    alter table snapshot_findings attach partition ${table} for values in (${Math.trunc(discoveryId)});
    analyze ${table};
  `);
}

/** Drops the findings of these snapshots, attached or still loading. */
export async function dropFindingsPartitions(db: Queryable, discoveryIds: readonly number[]): Promise<void> {
  for (const id of discoveryIds) await db.exec(`drop table if exists ${findingsPartition(id)}`);
}

/**
 * Drops the findings of a company's snapshots, before the company is deleted: its discoveries' rows leave with it (the
 * foreign keys cascade), not the tables that hold their findings.
 */
export async function dropCompanyFindings(db: Queryable, companyId: number): Promise<void> {
  const snapshots = await db.query<{ id: number }>('select id from discoveries where company_id = $1', [companyId]);
  await dropFindingsPartitions(db, snapshots.map((snapshot) => snapshot.id));
}
