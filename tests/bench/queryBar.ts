// The query bar at 100k devices: what it asks as you type — a field's value suggestions (`/devices/values`, the most
// frequent values, then those holding the typed text) and the live count of the typed query (the list's own search,
// one row asked) — beside the device list it runs (a filtered, sorted page of 50 with its count). The snapshot is
// published straight by SQL (the discovery that would produce it is measured apart), with its typed index built.
// `tsx tests/bench/queryBar.ts [pglite|postgresql] [devices]`.
import type { Database } from '../../src/server/db/database.js';
import { buildSnapshotIndex, settleSnapshotTables } from '../../src/server/inventory/snapshotIndex.js';
import { newSnapshot, runAlone, seedAssets, withListBench } from './listBench.js';

const defaultDevices = 100_000;

/** Publishes one snapshot of `devices` devices for company 1: laptops and servers over 64 /16 subnets of 10/8. */
async function seed(db: Database, devices: number): Promise<void> {
  const id = await newSnapshot(db);
  await seedAssets(
    db, id, 'device', "lpad(to_hex(i), 20, '0')",
    `jsonb_build_object('Hostname', jsonb_build_array((array['lt','ws','srv','vm'])[1 + i % 4] || '-' || lpad(i::text, 6, '0')),
      'OS.Type', jsonb_build_array((array['Windows','Windows','Linux','macOS'])[1 + i % 4]), 'AdapterCount', jsonb_build_array(1 + i % 4),
      'Adapters', (array['["crowdstrike"]','["crowdstrike","intune"]','["qualys","servicenow","intune"]','["csvfile"]'])[1 + i % 4]::jsonb,
      'IpAddresses', jsonb_build_array('10.' || (i % 64) || '.' || (i / 256 % 256) || '.' || (1 + i % 254)), 'MacAddresses', jsonb_build_array('00:1a:2b:' || lpad(to_hex(i % 256), 2, '0') || ':00:01'),
      'SerialNumber', jsonb_build_array('SN' || i), 'LastUsedUsers', jsonb_build_array('CORP\\user' || (i % 5000)),
      'LastSeen', jsonb_build_array(to_char(timestamp '2026-11-01' + (i % 30) * interval '1 day', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"')))`,
    `generate_series(1, ${devices}) as i`,
  );
  await buildSnapshotIndex(db, id);
  await settleSnapshotTables(db);
}

const count = (query: string) => ({ query, fields: [], size: 1 });

/** p50/p95 of the query bar's calls on one engine, beside the device list's. */
export function benchQueryBar(engine: 'pglite' | 'postgresql', devices = defaultDevices) {
  return withListBench(engine, (db) => seed(db, devices), async ({ measure }) => ({
    engine, devices,
    list_page_of_50_with_count: await measure('POST', '/devices/devices', { query: 'OS.Type = Windows AND AdapterCount >= 2', fields: ['Hostname', 'OS.Type', 'Adapters', 'LastSeen'], ordering: [{ field: 'Hostname', order: 'desc' }], size: 50 }),
    suggestions_most_frequent: await measure('GET', '/devices/values?field=OS.Type'),
    suggestions_prefix_typed: await measure('GET', '/devices/values?field=Hostname&search=lt-0017'),
    live_count_free_text: await measure('POST', '/devices/devices', count('lt-0017')),
    live_count_subnet: await measure('POST', '/devices/devices', count('IpAddresses = 10.61.0.0/16')),
    live_count_subnet_list_and_condition: await measure('POST', '/devices/devices', count('IpAddresses in [10.1.0.0/16, 10.2.0.0-10.2.255.255] AND OS.Type = Windows')),
    live_count_conditions: await measure('POST', '/devices/devices', count('OS.Type = Windows AND AdapterCount >= 2')),
  }));
}

await runAlone('queryBar.ts', (engine) => benchQueryBar(engine, Number(process.argv[3] ?? defaultDevices)));
