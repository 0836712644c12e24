// The software and vulnerability lists at 100k devices with 40 installations each (4M installation rows, 5k
// software, 20k vulnerabilities, 300k findings), published straight into a snapshot by SQL (the discovery that would
// produce them is measured apart), then searched through the API as the console does: a filtered, sorted page of
// 50 with its count, and device lists following relations to software and vulnerabilities; and the four
// vulnerability widgets computed from scratch (no stored result), as after a new snapshot.
import type { Database } from '../../src/server/db/database.js';
import { computeWidget, widgetDefaults } from '../../src/server/dashboards/computeWidget.js';
import { buildSnapshotIndex, settleSnapshotTables } from '../../src/server/inventory/snapshotIndex.js';
import { listRuns, newSnapshot, runAlone, seedAssets, withListBench } from './listBench.js';
import { percentiles, time } from './measure.js';

const sizes = { devices: 100_000, perDevice: 40, software: 5_000, vulnerabilities: 20_000, findingsPerDevice: 3 };
const severities = "(array['Info','Low','Medium','High','Critical'])";

/** Publishes one snapshot of the sizes above for company 1 and answers its discovery id. */
async function seed(db: Database): Promise<number> {
  const id = await newSnapshot(db);
  const asset = (entity: string, idSql: string, fieldsSql: string, series: string) => seedAssets(db, id, entity, idSql, fieldsSql, series);
  await asset('device', "'d' || i", `jsonb_build_object('Hostname', jsonb_build_array('host-' || i), 'OS.Type', jsonb_build_array((array['Windows','Linux','macOS'])[1 + i % 3]), 'Adapters', '["crowdstrike"]'::jsonb, 'AdapterCount', '[1]'::jsonb)`, `generate_series(1, ${sizes.devices}) as i`);
  await asset('software', "'s' || i", `jsonb_build_object('Name', jsonb_build_array('Product ' || i), 'Vendor', jsonb_build_array('Vendor ' || (i % 50)), 'InstallCount', jsonb_build_array((i * 7919) % 20000), 'VersionCount', '[3]'::jsonb, 'Adapters', '["crowdstrike"]'::jsonb)`, `generate_series(1, ${sizes.software}) as i`);
  await asset('vulnerability', "'v' || i", `jsonb_build_object('CveId', jsonb_build_array('CVE-2024-' || lpad(i::text, 5, '0')), 'Severity', jsonb_build_array(${severities}[1 + i % 5]), 'SeverityLevel', jsonb_build_array(i % 5), 'Score', jsonb_build_array(((i * 37) % 100) / 10.0), 'AffectedDeviceCount', jsonb_build_array(i % 300), 'Adapters', '["qualys"]'::jsonb)`, `generate_series(1, ${sizes.vulnerabilities}) as i`);
  for (let first = 1; first <= sizes.devices; first += 10_000) {
    await db.query(
      `insert into snapshot_installations (discovery_id, device_asset, software_asset, software_name, vendor, version, adapter, connection_id)
       select $1, 'd' || d, 's' || (1 + (d * 7 + k * 131) % ${sizes.software}), 'Product', 'Vendor', (100 + k % 30) || '.0.' || (d % 7), 'crowdstrike', 1
         from generate_series($2::int, $3::int) as d, generate_series(1, ${sizes.perDevice}) as k`,
      [id, first, Math.min(first + 9_999, sizes.devices)],
    );
  }
  await db.query(
    `insert into snapshot_findings (discovery_id, finding_id, device_asset, vulnerability_asset, severity, severity_level, score, source_status, adapters, sources)
     select $1, 'v' || v || '.d' || d, 'd' || d, 'v' || v, ${severities}[1 + v % 5], v % 5, ((v * 37) % 100) / 10.0, 'open', '{qualys}', '[]'
       from (select d, 1 + (d * 13 + k * 977) % ${sizes.vulnerabilities} as v from generate_series(1, ${sizes.devices}) as d, generate_series(1, ${sizes.findingsPerDevice}) as k) as pairs
     on conflict do nothing`,
    [id],
  );
  await buildSnapshotIndex(db, id);
  await settleSnapshotTables(db);
  await db.exec('analyze snapshot_installations, snapshot_findings');
  return id;
}

/** p50/p95 of each list through the API on one engine. */
export function benchSoftwareLists(engine: 'pglite' | 'postgresql') {
  return withListBench(engine, seed, async ({ db, measure }) => {
    const list = (url: string, body: object) => measure('POST', url, body);
    const widget = async (kind: string) => {
      const compute = () => computeWidget({ db, companyId: 1, userId: null, now: new Date() }, { ...widgetDefaults, kind });
      return { rows: (await compute()).rows?.length ?? 0, ...percentiles(await time(listRuns, compute)) };
    };
    return {
      engine, ...sizes,
      software_list: await list('/appinventory/applications', { query: 'Vendor = "Vendor 1*" AND InstallCount >= 100', ordering: [{ field: 'InstallCount', order: 'desc' }], size: 50 }),
      vulnerability_list: await list('/avm/vulnerabilities', { query: 'Severity = Critical AND Score >= 5', ordering: [{ field: 'Score', order: 'desc' }], size: 50 }),
      devices_with_critical_vulnerability: await list('/devices/devices', { query: 'Vulnerability.Severity = Critical AND OS.Type = Windows', ordering: [{ field: 'Hostname', order: 'asc' }], size: 50 }),
      devices_with_software_version: await list('/devices/devices', { query: 'Software.Name = "Product 42" AND Software.Version = 12*', ordering: [{ field: 'Hostname', order: 'asc' }], size: 50 }),
      vulnerability_widgets_from_scratch: {
        by_os: await widget('vulnerability_by_os'),
        by_severity: await widget('vulnerability_by_severity'),
        by_software: await widget('vulnerability_by_software'),
        by_source: await widget('vulnerability_by_source'),
      },
    };
  });
}

await runAlone('softwareLists.ts', benchSoftwareLists);
