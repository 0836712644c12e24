import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../src/server/db/database.js';
import { loadMigrations, migrate } from '../../src/server/db/migrate.js';
import { deleteSnapshotRows } from '../../src/server/discovery/snapshotWriter.js';
import { attachFindingsLoad, createFindingsLoad, dropCompanyFindings } from '../../src/server/discovery/software/findingsPartitions.js';
import { runDiscoveryAndWait } from './discoveryFleet.js';
import { engines, openScratchDatabase, startTestServer, type TestServer } from './harness.js';
import { addSoftwareConnections } from './softwareFixtures.js';

// Each snapshot's findings are a partition of snapshot_findings (migration 0112), loaded bare and indexed once full.

/** The partitions of snapshot_findings, by name. */
const partitions = async (db: Queryable) => (await db.query<{ name: string }>(
  "select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'snapshot_findings'::regclass",
)).map((row) => row.name).sort();

const tableExists = async (db: Queryable, name: string) => (await db.query('select 1 from pg_class where relname = $1', [name])).length > 0;

const finding = (discoveryId: number, id: string) => [discoveryId, id, `device-${id}`, `vulnerability-${id}`, 'open', '{cartograph-avm}', '[{"adapter": "cartograph-avm"}]'];
const insertFindings = (db: Queryable, table: string, rows: unknown[][]) => Promise.all(rows.map((row) => db.query(
  `insert into ${table} (discovery_id, finding_id, device_asset, vulnerability_asset, source_status, adapters, sources) values ($1, $2, $3, $4, $5, $6, $7)`, row,
)));

async function newDiscovery(db: Queryable, companyId: number): Promise<number> {
  const [{ id }] = await db.query<{ id: number }>("insert into discoveries (company_id, status, start_time) values ($1, 'done', now()) returning id", [companyId]);
  return id;
}

describe.each(engines)('findings partitioned by snapshot on %s', (engine) => {
  it('moves the findings of snapshots taken before the partitions into a partition each, every row kept', async () => {
    const { db, close } = await openScratchDatabase(engine);
    try {
      await migrate(db, loadMigrations().filter((migration) => migration.version < 112));
      const [{ id: companyId }] = await db.query<{ id: number }>("insert into companies (name) values ('Before') returning id");
      const [first, second] = [await newDiscovery(db, companyId), await newDiscovery(db, companyId)];
      await insertFindings(db, 'snapshot_findings', [finding(first, 'a'), finding(first, 'b'), finding(second, 'c')]);
      await migrate(db);
      expect(await partitions(db)).toEqual([`snapshot_findings_${first}`, `snapshot_findings_${second}`, 'snapshot_findings_default'].sort());
      const rows = await db.query<{ finding_id: string; partition: string }>('select finding_id, tableoid::regclass::text as partition from snapshot_findings order by finding_id');
      expect(rows).toEqual([
        { finding_id: 'a', partition: `snapshot_findings_${first}` }, { finding_id: 'b', partition: `snapshot_findings_${first}` }, { finding_id: 'c', partition: `snapshot_findings_${second}` },
      ]);
      // The key holds across the partitions as it held on the table.
      await expect(insertFindings(db, 'snapshot_findings', [finding(first, 'a')])).rejects.toThrow(/duplicate key/);
    } finally {
      await close();
    }
  });

  it('drops a load that never finished with the snapshot, and the partitions of snapshots deleted with their company', async () => {
    const { db, close } = await openScratchDatabase(engine);
    try {
      await migrate(db);
      const [{ id: companyId }] = await db.query<{ id: number }>("insert into companies (name) values ('Gone') returning id");
      const failed = await newDiscovery(db, companyId);
      const table = await createFindingsLoad(db, failed);
      await insertFindings(db, table, [finding(failed, 'a')]);
      await deleteSnapshotRows(db, failed);
      expect(await tableExists(db, table)).toBe(false);

      const published = await newDiscovery(db, companyId);
      await insertFindings(db, await createFindingsLoad(db, published), [finding(published, 'a'), finding(published, 'b')]);
      await attachFindingsLoad(db, published);
      expect(await db.query('select finding_id from snapshot_findings where discovery_id = $1 order by 1', [published])).toEqual([{ finding_id: 'a' }, { finding_id: 'b' }]);
      // A load that does not belong to its snapshot is refused, not attached.
      await expect(insertFindings(db, await createFindingsLoad(db, published + 1), [finding(published, 'c')])).rejects.toThrow(/check constraint/);
      await dropCompanyFindings(db, companyId);
      await db.query('delete from companies where id = $1', [companyId]);
      expect(await partitions(db)).toEqual(['snapshot_findings_default']);
    } finally {
      await close();
    }
  });
});

describe.each(engines)('a discovery\'s findings partition on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
    await addSoftwareConnections(server.context.db);
  });
  afterAll(() => server.stop());

  it('loads the snapshot\'s findings into a partition of its own with the indexes, and drops it when the snapshot is pruned', async () => {
    const db = server.context.db;
    const first = await runDiscoveryAndWait(server);
    const indexes = await db.query<{ indexdef: string }>('select indexdef from pg_indexes where tablename = $1', [`snapshot_findings_${first.id}`]);
    expect(indexes.map((index) => index.indexdef.replace(/^.* USING btree /, '')).sort()).toEqual(['(discovery_id, device_asset)', '(discovery_id, finding_id)', '(discovery_id, vulnerability_asset)']);
    expect(await db.query('select count(*)::int as count from snapshot_findings_default')).toEqual([{ count: 0 }]);
    expect((await db.query<{ count: number }>('select count(*)::int as count from snapshot_findings where discovery_id = $1', [first.id]))[0].count).toBe(4);

    const saved = await server.request('PUT', '/configurations/discovery-settings', { token: server.adminToken, body: { concurrency: 4, connection_timeout_minutes: 30, snapshots_to_keep: 1 } });
    expect(saved.status).toBe(200);
    const second = await runDiscoveryAndWait(server);
    // Older snapshots are pruned right after the publish that made them old.
    for (let waited = 0; waited < 10_000 && (await partitions(db)).includes(`snapshot_findings_${first.id}`); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await partitions(db)).toEqual([`snapshot_findings_${second.id}`, 'snapshot_findings_default'].sort());
  });
});
