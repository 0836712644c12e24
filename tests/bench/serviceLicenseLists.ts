// The service and license lists at 100k rows each: 100k devices with 5 service instances each (500k instance rows)
// over 100k services, and 100k licenses, published straight into a snapshot by SQL (the discovery that would
// produce them is measured apart), then searched through the API as the console does: a filtered, sorted page of
// 50 with its count, a device's services panel, and devices following their services.
import type { Database } from '../../src/server/db/database.js';
import { buildSnapshotIndex, settleSnapshotTables } from '../../src/server/inventory/snapshotIndex.js';
import { newSnapshot, runAlone, seedAssets, withListBench } from './listBench.js';

const sizes = { devices: 100_000, services: 100_000, perDevice: 5, licenses: 100_000 };

/** Publishes one snapshot of the sizes above for company 1 and answers its discovery id. */
async function seed(db: Database): Promise<number> {
  const id = await newSnapshot(db);
  const asset = (entity: string, idSql: string, fieldsSql: string, series: string) => seedAssets(db, id, entity, idSql, fieldsSql, series);
  // Ids are 20 hex digits, as the API's filters take them: devices start with 0, services with f.
  await asset('device', "'0' || lpad(to_hex(i), 19, '0')", `jsonb_build_object('Hostname', jsonb_build_array('host-' || i), 'OS.Type', jsonb_build_array((array['Windows','Linux','macOS'])[1 + i % 3]), 'Adapters', '["crowdstrike"]'::jsonb, 'AdapterCount', '[1]'::jsonb)`, `generate_series(1, ${sizes.devices}) as i`);
  await asset('service', "'f' || lpad(to_hex(i), 19, '0')", `jsonb_build_object('Name', jsonb_build_array('service-' || i), 'Kinds', jsonb_build_array((array['system','network','cloud'])[1 + i % 3]), 'Ports', jsonb_build_array(i % 65536), 'States', jsonb_build_array((array['running','stopped'])[1 + i % 2]), 'StartTypes', '["automatic"]'::jsonb, 'Accounts', '["LocalSystem"]'::jsonb, 'DeviceCount', jsonb_build_array((i * 7919) % 20000), 'Adapters', '["crowdstrike"]'::jsonb, 'AdapterCount', '[1]'::jsonb)`, `generate_series(1, ${sizes.services}) as i`);
  await asset('license', "'l' || i", `jsonb_build_object('Name', jsonb_build_array('License ' || i), 'Vendor', jsonb_build_array('Vendor ' || (i % 50)), 'SeatsPurchased', jsonb_build_array(i % 1000), 'SeatsUsed', jsonb_build_array((i * 7) % 1100), 'OverUse', jsonb_build_array(greatest((i * 7) % 1100 - i % 1000, 0)), 'OverUsed', jsonb_build_array((i * 7) % 1100 > i % 1000), 'Adapters', '["snipe-it"]'::jsonb, 'AdapterCount', '[1]'::jsonb)`, `generate_series(1, ${sizes.licenses}) as i`);
  for (let first = 1; first <= sizes.devices; first += 20_000) {
    await db.query(
      `insert into snapshot_service_instances (discovery_id, service_asset, device_asset, service_name, state, start_type, account, port, protocol, adapter, connection_id)
       select $1, 'f' || lpad(to_hex(1 + (d * 7 + k * 131) % ${sizes.services}), 19, '0'), '0' || lpad(to_hex(d), 19, '0'), 'service', (array['running','stopped'])[1 + k % 2], 'automatic', 'LocalSystem', 1000 + k, 'tcp', 'crowdstrike', 1
         from generate_series($2::int, $3::int) as d, generate_series(1, ${sizes.perDevice}) as k`,
      [id, first, Math.min(first + 19_999, sizes.devices)],
    );
  }
  await buildSnapshotIndex(db, id);
  await settleSnapshotTables(db);
  await db.exec('analyze snapshot_service_instances');
  return id;
}

/**
 * p50/p95 of each list through the API on one engine, beside the baseline of the same count and page of the
 * unfiltered service list sent as hand-written SQL over the snapshot's JSONB documents.
 */
export function benchServiceLicenseLists(engine: 'pglite' | 'postgresql') {
  let discoveryId = 0;
  return withListBench(engine, async (db) => (discoveryId = await seed(db)), async ({ measure, measureSql }) => ({
    engine, ...sizes,
    service_list: await measure('POST', '/services/services', { query: 'Kinds = network AND DeviceCount >= 100', ordering: [{ field: 'DeviceCount', order: 'desc' }], size: 50 }),
    service_list_unfiltered: await measure('POST', '/services/services', { ordering: [{ field: 'Name', order: 'asc' }], size: 50 }),
    service_list_sql_baseline: await measureSql([
      ["select count(*)::int from snapshot_assets where discovery_id = $1 and entity = 'service'", [discoveryId]],
      ["select asset_id, fields from snapshot_assets where discovery_id = $1 and entity = 'service' order by lower(fields->'Name'->>0), asset_id limit 50", [discoveryId]],
    ]),
    device_services_panel: await measure('GET', `/services/instances?device=0${(4242).toString(16).padStart(19, '0')}&size=50`),
    service_places: await measure('GET', `/services/instances?service=f${(4242).toString(16).padStart(19, '0')}&size=50`),
    devices_running_service: await measure('POST', '/devices/devices', { query: 'Service.Name = "service-42" AND Service.State = running', ordering: [{ field: 'Hostname', order: 'asc' }], size: 50 }),
    license_list_over_used: await measure('POST', '/licenses/licenses', { query: 'OverUse > 0', ordering: [{ field: 'OverUse', order: 'desc' }], size: 50 }),
    license_list_unfiltered: await measure('POST', '/licenses/licenses', { ordering: [{ field: 'Name', order: 'asc' }], size: 50 }),
  }));
}

await runAlone('serviceLicenseLists.ts', benchServiceLicenseLists);
