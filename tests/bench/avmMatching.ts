// The cost of Cartograph's own software → CVE matching in a discovery: the vulnerability stage of a snapshot of
// 100k devices × 40 installations (the software bench's fleet: 5k products of 50 vendors, versions 1.0.0–5.6.0),
// run once with matching off and once with it on against a full-size NVD feed (250k CVEs, one in twelve naming a
// product of the fleet with a version range, tests/bench/avmFeeds.ts). The snapshot's records are written by SQL
// (the discovery that fetches them is measured in tests/bench/discovery.ts); the stage reads them back as a
// discovery does. Added wall time = on − off; beside it, the database's floor for writing as many finding rows.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { avmSettingsKind, defaultAvmSettings } from '../../src/server/avm/avmSettings.js';
import type { Database } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { openPgliteDatabase } from '../../src/server/db/pgliteDatabase.js';
import { openPostgresDatabase } from '../../src/server/db/postgresDatabase.js';
import { saveSettingsDocument } from '../../src/server/settings/settingsStore.js';
import { DeviceLinks } from '../../src/server/discovery/software/deviceLinks.js';
import { attachFindingsLoad, createFindingsLoad, dropFindingsPartitions, findingsPartition } from '../../src/server/discovery/software/findingsPartitions.js';
import { ObservationWarnings } from '../../src/server/discovery/software/observations.js';
import { buildVulnerabilityInventory, findingColumns } from '../../src/server/discovery/software/vulnerabilityStage.js';
import { createScratchPostgres } from '../server/harness.js';
import { generateNvd, measureImport } from './avmFeeds.js';

// AVM_BENCH_DEVICES and AVM_BENCH_CVES make a small run to try the bench out.
const sizes = { devices: Number(process.env.AVM_BENCH_DEVICES) || 100_000, perDevice: 40, products: 5_000, cves: Number(process.env.AVM_BENCH_CVES) || 250_000 };

/** The fleet's installed software as the EDR's records of one discovery: agent id, name, vendor, version. */
async function seedSoftwareRecords(db: Database, companyId: number): Promise<number> {
  const [{ id }] = await db.query<{ id: number }>("insert into discoveries (company_id, status, start_time) values ($1, 'running', now()) returning id", [companyId]);
  for (let first = 1; first <= sizes.devices; first += 5_000) {
    await db.query(
      `insert into snapshot_records (discovery_id, record_key, connection_id, adapter, entity, fields)
       select $1, '1:software:' || d || '.' || k, 1, 'crowdstrike', 'software', json_build_object(
         'AgentId', json_build_array('agent-' || d), 'SoftwareName', json_build_array('Product ' || p), 'SoftwareVendor', json_build_array('Vendor ' || (p % 50)),
         'SoftwareVersion', json_build_array((1 + k % 5) || '.' || (d % 7) || '.0'))
         from (select d, k, (d * 7 + k * 131) % ${sizes.products} as p from generate_series($2::int, $3::int) as d, generate_series(0, ${sizes.perDevice - 1}) as k) as installed`,
      [id, first, Math.min(first + 4_999, sizes.devices)],
    );
  }
  await db.exec('analyze snapshot_records');
  return id;
}

/** The merged devices, one EDR record each, as the discovery's correlation hands them to the stage. */
export function deviceLinks(): DeviceLinks {
  const records = Array.from({ length: sizes.devices }, (_, index) => ({ key: `1:device:agent-${index + 1}`, adapter: 'crowdstrike', connectionId: 1, fields: { AgentId: [`agent-${index + 1}`] } }));
  return new DeviceLinks(records, records.map((record) => ({ records: [record.key], reasons: [] })), records.map((_, index) => `device-${index + 1}`));
}

export async function runStage(db: Database, discoveryId: number, links: DeviceLinks) {
  await db.query("delete from snapshot_assets where discovery_id = $1 and entity = 'vulnerability'", [discoveryId]);
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage().rss); }, 50);
  const started = performance.now();
  const { count } = await buildVulnerabilityInventory(db, discoveryId, links, new ObservationWarnings());
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const [{ findings }] = await db.query<{ findings: number }>('select count(*)::int as findings from snapshot_findings where discovery_id = $1', [discoveryId]);
  // What a finding takes on disk: the snapshot's partition with its indexes, over the findings.
  const [{ bytes }] = await db.query<{ bytes: string }>('select pg_total_relation_size($1::regclass) as bytes', [findingsPartition(discoveryId)]);
  return {
    wall_s: Number(seconds.toFixed(1)), peak_rss_mb: Math.round(peakRss / 1048576), vulnerabilities: count, findings, findings_per_device: Number((findings / sizes.devices).toFixed(1)),
    ...(findings && { bytes_per_finding: Math.round(Number(bytes) / findings) }),
  };
}

/**
 * The database's own share: the findings just written copied within it to another snapshot, loaded and attached as
 * the stage does (a bare table, then its indexes and key), with no reading, matching or JavaScript. What writing that
 * many finding rows costs on this machine at the least.
 */
export async function findingsWriteFloor(db: Database, companyId: number, discoveryId: number): Promise<number> {
  const [{ id }] = await db.query<{ id: number }>("insert into discoveries (company_id, status, start_time) values ($1, 'done', now()) returning id", [companyId]);
  const columns = findingColumns.filter((column) => column !== 'discovery_id').join(', ');
  const started = performance.now();
  const table = await createFindingsLoad(db, id);
  await db.query(`insert into ${table} (discovery_id, ${columns}) select $2, ${columns} from snapshot_findings where discovery_id = $1`, [discoveryId, id]);
  await attachFindingsLoad(db, id);
  const seconds = (performance.now() - started) / 1000;
  await dropFindingsPartitions(db, [id]);
  await db.query('delete from discoveries where id = $1', [id]);
  return Number(seconds.toFixed(1));
}

export async function avmMatchingBench(engine: 'pglite' | 'postgresql' = process.env.DATABASE_URL ? 'postgresql' : 'pglite') {
  const folder = mkdtempSync(join(tmpdir(), 'cartograph-avm-matching-'));
  // The machine's load (1-minute average) at the start and the end: the 2 cores are shared, and the figures with them.
  const loadAtStart = Number(loadavg()[0].toFixed(1));
  const scratch = engine === 'postgresql' ? await createScratchPostgres() : null;
  try {
    const nvdPath = join(folder, 'nvdcve-2.0-generated.json.gz');
    await generateNvd(nvdPath, sizes.cves, sizes.products);
    const db = scratch ? await openPostgresDatabase(scratch.url, 4) : await openPgliteDatabase(join(folder, 'pglite'));
    await migrate(db);
    const [{ id: companyId }] = await db.query<{ id: number }>("insert into companies (name, is_constant) values ('Bench', true) returning id");
    const nvdImport = await measureImport(db, 'nvd-cve', nvdPath);
    const discoveryId = await seedSoftwareRecords(db, companyId);
    const links = deviceLinks();
    await saveSettingsDocument(db, companyId, avmSettingsKind, { ...defaultAvmSettings, software_matching: false });
    const off = await runStage(db, discoveryId, links);
    await saveSettingsDocument(db, companyId, avmSettingsKind, { ...defaultAvmSettings, software_matching: true });
    const on = await runStage(db, discoveryId, links);
    const floor = await findingsWriteFloor(db, companyId, discoveryId);
    await db.close();
    return {
      engine, devices: sizes.devices, installations: sizes.devices * sizes.perDevice, cves: sizes.cves, nvd_import: nvdImport,
      vulnerability_stage_without_matching: off, vulnerability_stage_with_matching: on, findings_copied_within_database_s: floor,
      added_wall_s: Number((on.wall_s - off.wall_s).toFixed(1)), goal_added_within_60_s: on.wall_s - off.wall_s <= 60,
      load_average_1m: { start: loadAtStart, end: Number(loadavg()[0].toFixed(1)) },
    };
  } finally {
    await scratch?.drop();
    rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await avmMatchingBench(), null, 2));
