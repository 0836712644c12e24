// The cost of package matching (OSV advisories, tests/server/packageMatching.test.ts for its labelled figures) in a
// discovery: the vulnerability stage of a snapshot of 100k Debian 12 servers × 40 packages (deb_packages with their
// source package, drawn from the 9,000 source packages of the generated Debian archive, about twelve versions of
// each across the fleet, some before their advisory's fix and some after), run once with matching off and once
// with it on, after importing a Debian all.zip of real size (45,000 DSA, DLA and DEBIAN-CVE records,
// tests/bench/osvFeeds.ts). Added wall time = on − off, against the AVM matching budget (≤ 60 s added at 100k × 40).
// The archive is written and imported by processes of their own: this one's memory is the stage's.
//   npx tsx tests/bench/packageMatching.ts [--engine pglite|postgresql]   (AVM_BENCH_DEVICES for a small run)
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { avmSettingsKind, defaultAvmSettings } from '../../src/server/avm/avmSettings.js';
import type { Database } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { openPgliteDatabase } from '../../src/server/db/pgliteDatabase.js';
import { openPostgresDatabase } from '../../src/server/db/postgresDatabase.js';
import { seededRandom } from '../../src/server/demo/random.js';
import { saveSettingsDocument } from '../../src/server/settings/settingsStore.js';
import { createScratchPostgres } from '../server/harness.js';
import { deviceLinks, findingsWriteFloor, runStage } from './avmMatching.js';
import { debianRecord, writeArchive } from './osvFeeds.js';

const devices = Number(process.env.AVM_BENCH_DEVICES) || 100_000;
const perDevice = 40;
const packages = 9_000;
const advisories = 45_000;
const engineArgument = process.argv.indexOf('--engine');
const engine = (engineArgument > 0 ? process.argv[engineArgument + 1] : process.env.DATABASE_URL ? 'postgresql' : 'pglite') as 'pglite' | 'postgresql';

/** The servers (Debian 12, as normalization names it) and their packages as an agent's records of one discovery. */
async function seedFleet(db: Database, companyId: number): Promise<number> {
  const [{ id }] = await db.query<{ id: number }>("insert into discoveries (company_id, status, start_time) values ($1, 'running', now()) returning id", [companyId]);
  for (let first = 1; first <= devices; first += 5_000) {
    const last = Math.min(first + 4_999, devices);
    await db.query(
      `insert into snapshot_assets (discovery_id, entity, asset_id, fields, preferred, record_keys, reasons)
       select $1, 'device', 'device-' || d, jsonb_build_object('OS.Distribution', jsonb_build_array('Debian'), 'OS.Version', jsonb_build_array('12.5')), '{}'::jsonb, '{}'::text[], '[]'::jsonb
         from generate_series($2::int, $3::int) as d`,
      [id, first, last],
    );
    // A package's version across the fleet: its own upstream version, four patch levels and three security updates.
    await db.query(
      `insert into snapshot_records (discovery_id, record_key, connection_id, adapter, entity, fields)
       select $1, '1:software:' || d || '.' || k, 1, 'fleetdm', 'software', json_build_object(
         'AgentId', json_build_array('agent-' || d), 'SoftwareName', json_build_array('srcpkg' || p), 'SoftwareSourcePackage', json_build_array('srcpkg' || p),
         'SoftwarePackageType', json_build_array('deb_packages'),
         'SoftwareVersion', json_build_array((1 + p % 9) || '.' || (p % 20) || '.' || (d % 4) || '-1+deb12u' || (1 + (d / 4) % 3)))
         from (select d, k, (d * 7 + k * 131) % ${packages} as p from generate_series($2::int, $3::int) as d, generate_series(0, ${perDevice - 1}) as k) as installed`,
      [id, first, last],
    );
  }
  await db.exec('analyze snapshot_records');
  await db.exec('analyze snapshot_assets');
  return id;
}

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const inProcess = (script: string, ...args: string[]) => run(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(script, import.meta.url)), ...args], { cwd: root, maxBuffer: 1 << 20 });

export async function packageMatchingBench() {
  const folder = mkdtempSync(join(tmpdir(), 'cartograph-package-matching-'));
  const loadAtStart = Number(loadavg()[0].toFixed(1));
  const scratch = engine === 'postgresql' ? await createScratchPostgres() : null;
  try {
    const archive = join(folder, 'Debian-all.zip');
    const target = scratch?.url ?? join(folder, 'pglite');
    await inProcess('./packageMatching.ts', '--write-archive', archive);
    const migrated = scratch ? await openPostgresDatabase(scratch.url, 4) : await openPgliteDatabase(target);
    await migrate(migrated);
    await migrated.close();
    const imported = JSON.parse((await inProcess('./osvImportProcess.ts', target, archive)).stdout.trim().split('\n').at(-1)!) as { records: number; wall_seconds: number };
    const db = scratch ? await openPostgresDatabase(scratch.url, 4) : await openPgliteDatabase(target);
    const [{ id: companyId }] = await db.query<{ id: number }>("insert into companies (name, is_constant) values ('Bench', true) returning id");
    const discoveryId = await seedFleet(db, companyId);
    const links = deviceLinks();
    const rssBefore = Math.round(process.memoryUsage().rss / 1048576);
    await saveSettingsDocument(db, companyId, avmSettingsKind, { ...defaultAvmSettings, software_matching: false });
    const off = await runStage(db, discoveryId, links);
    await saveSettingsDocument(db, companyId, avmSettingsKind, { ...defaultAvmSettings, software_matching: true });
    const on = await runStage(db, discoveryId, links);
    const [{ pairs }] = await db.query<{ pairs: number }>(
      "select count(distinct (fields->'SoftwareName'->>0, fields->'SoftwareVersion'->>0))::int as pairs from snapshot_records where discovery_id = $1", [discoveryId],
    );
    const [{ noted }] = await db.query<{ noted: number }>(
      "select coalesce(sum(jsonb_array_length(fields->'FixedPackages')), 0)::int as noted from snapshot_assets where discovery_id = $1 and entity = 'vulnerability'", [discoveryId],
    );
    // The database's own share: the same finding rows copied within it and loaded as the stage loads them.
    const floor = await findingsWriteFloor(db, companyId, discoveryId);
    await db.close();
    return {
      engine, devices, installations: devices * perDevice, distinct_package_versions: pairs, advisories: imported.records, osv_import_s: imported.wall_seconds, rss_before_stage_mb: rssBefore,
      vulnerability_stage_without_matching: off, vulnerability_stage_with_matching: { ...on, fixed_package_notes: noted }, findings_copied_within_database_s: floor,
      added_wall_s: Number((on.wall_s - off.wall_s).toFixed(1)), goal_added_within_60_s: on.wall_s - off.wall_s <= 60,
      load_average_1m: { start: loadAtStart, end: Number(loadavg()[0].toFixed(1)) },
    };
  } finally {
    await scratch?.drop();
    rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const writing = process.argv.indexOf('--write-archive');
  if (writing > 0) {
    const random = seededRandom(33);
    await writeArchive(process.argv[writing + 1], advisories, (index) => debianRecord(index, random));
  } else console.log(JSON.stringify(await packageMatchingBench(), null, 2));
}
