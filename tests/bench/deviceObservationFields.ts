// The publish cost of filling the devices' "Installed software", "CVE IDs" and "Open ports" fields from the other
// inventories (fillDeviceObservationFields): one snapshot of N devices (default 20k), each with 10 installations,
// 4 findings and 3 service instances, filled as the publish does. Printed as JSON beside a baseline measured in the
// same run over the same rows: building the devices' index, which the publish does anyway.
// Run: `npx tsx tests/bench/deviceObservationFields.ts [devices] [pglite|postgresql]` (PostgreSQL from DATABASE_URL).
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Database } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { openPgliteDatabase } from '../../src/server/db/pgliteDatabase.js';
import { openPostgresDatabase } from '../../src/server/db/postgresDatabase.js';
import { seededRandom } from '../../src/server/demo/random.js';
import { fillDeviceObservationFields } from '../../src/server/discovery/deviceObservationFields.js';
import { buildSnapshotIndex } from '../../src/server/inventory/snapshotIndex.js';
import { createScratchPostgres } from '../server/harness.js';

const products = 500;

async function writeSnapshot(db: Database, devices: number): Promise<number> {
  const random = seededRandom(11);
  await db.query("insert into companies (id, name) values (1, 'Bench') on conflict do nothing");
  const [{ id }] = await db.query<{ id: number }>("insert into discoveries (company_id, status, start_time) values (1, 'running', now()) returning id");
  await db.query(
    `insert into snapshot_assets (discovery_id, entity, asset_id, fields, preferred, record_keys, reasons)
     select $1, 'software', 'software-' || n, jsonb_build_object('Name', jsonb_build_array('Product ' || n)), '{}'::jsonb, '{}'::text[], '[]'::jsonb from generate_series(0, $2 - 1) as n`,
    [id, products],
  );
  for (let start = 0; start < devices; start += 5000) {
    const assets: string[] = [];
    const installs: [string, string][] = [];
    const findings: [string, string, string][] = [];
    const services: [string, number][] = [];
    for (let index = start; index < Math.min(devices, start + 5000); index += 1) {
      const asset = `device-${index}`;
      assets.push(asset);
      for (let install = 0; install < 10; install += 1) installs.push([asset, `software-${random.integer(products)}`]);
      for (let finding = 0; finding < 4; finding += 1) findings.push([`${asset}:${finding}`, asset, `CVE-2024-${random.integer(2000)}`]);
      for (let service = 0; service < 3; service += 1) services.push([asset, random.pick([22, 80, 443, 3389, 5432, 8080])]);
    }
    await db.query(
      `insert into snapshot_assets (discovery_id, entity, asset_id, fields, preferred, record_keys, reasons)
       select $1, 'device', asset, jsonb_build_object('PrimaryKey', jsonb_build_array(asset), 'Hostname', jsonb_build_array('ws-' || asset)), '{}'::jsonb, '{}'::text[], '[]'::jsonb
         from unnest($2::text[]) as batch(asset)`,
      [id, assets],
    );
    await db.query(
      `insert into snapshot_installations (discovery_id, device_asset, software_asset, software_name, adapter, connection_id)
       select $1, d, s, s, 'crowdstrike', 1 from unnest($2::text[], $3::text[]) as batch(d, s)`,
      [id, installs.map((row) => row[0]), installs.map((row) => row[1])],
    );
    await db.query(
      `insert into snapshot_findings (discovery_id, finding_id, device_asset, vulnerability_asset, cve_id, source_status, adapters, sources)
       select $1, f, d, c, c, 'open', '{qualys}', '[]'::jsonb from unnest($2::text[], $3::text[], $4::text[]) as batch(f, d, c)`,
      [id, ...[0, 1, 2].map((column) => findings.map((row) => row[column]))],
    );
    await db.query(
      `insert into snapshot_service_instances (discovery_id, service_asset, device_asset, service_name, port, adapter, connection_id)
       select $1, 'service-' || p, d, 'service ' || p, p, 'qualys', 1 from unnest($2::text[], $3::int[]) as batch(d, p)`,
      [id, services.map((row) => row[0]), services.map((row) => row[1])],
    );
  }
  await db.exec('analyze snapshot_assets; analyze snapshot_installations; analyze snapshot_findings; analyze snapshot_service_instances');
  return id;
}

async function main() {
  const devices = Number(process.argv[2] ?? 20_000);
  const engine = process.argv[3] ?? 'pglite';
  const scratch = engine === 'postgresql' ? await createScratchPostgres() : null;
  const db = scratch ? await openPostgresDatabase(scratch.url, 2) : await openPgliteDatabase(null);
  try {
    await migrate(db);
    const discoveryId = await writeSnapshot(db, devices);
    const seconds = (from: number) => Number(((performance.now() - from) / 1000).toFixed(2));
    const filling = performance.now();
    await fillDeviceObservationFields(db, discoveryId);
    const fill = seconds(filling);
    const indexing = performance.now();
    await buildSnapshotIndex(db, discoveryId, ['device']);
    const deviceIndex = seconds(indexing);
    const [sample] = await db.query<{ fields: Record<string, unknown[]> }>("select fields from snapshot_assets where discovery_id = $1 and entity = 'device' limit 1", [discoveryId]);
    console.log(JSON.stringify({
      bench: 'device-observation-fields', engine, devices, installations: devices * 10, findings: devices * 4, service_instances: devices * 3,
      load_average: loadavg().map((value) => value.toFixed(2)).join(' '), fill_s: fill, baseline: { device_index_build_s: deviceIndex },
      sample: { software: sample.fields['InstalledSoftware.SoftwareName']?.length, cves: sample.fields['VulnerableSoftware.CveId']?.length, ports: sample.fields['OpenPorts.PortNumber']?.length },
    }));
  } finally {
    await db.close();
    await scratch?.drop();
  }
}

await main();
