// The certificate list at 100k certificates: 100k certificates (a spread of expiry statuses, key sizes and weak
// ones) each served at one place on one of 100k devices, published straight into a snapshot by SQL (the scanner
// and adapters that would produce them are measured apart), then searched through the API as the console does: a
// filtered, sorted page of 50 with its count, a certificate's places and a device's certificates panel; beside the
// same count and page of the unfiltered list sent as hand-written SQL over the snapshot's JSONB documents.
import type { Database } from '../../src/server/db/database.js';
import { buildSnapshotIndex, settleSnapshotTables } from '../../src/server/inventory/snapshotIndex.js';
import { newSnapshot, runAlone, seedAssets, withListBench } from './listBench.js';

const sizes = { certificates: 100_000, devices: 100_000 };
const statuses = "(array['Expired','Expires within 30 days','Expires within 90 days','Valid','Valid','Valid','Valid','Valid'])";

/** Publishes one snapshot of the sizes above for company 1 and answers its discovery id. */
async function seed(db: Database): Promise<number> {
  const id = await newSnapshot(db);
  // Ids are 20 hex digits, as the API's filters take them: devices start with 0, certificates with c.
  await seedAssets(db, id, 'device', "'0' || lpad(to_hex(i), 19, '0')", `jsonb_build_object('Hostname', jsonb_build_array('host-' || i), 'OS.Type', jsonb_build_array((array['Windows','Linux','macOS'])[1 + i % 3]), 'Adapters', '["tls-scanner"]'::jsonb, 'AdapterCount', '[1]'::jsonb)`, `generate_series(1, ${sizes.devices}) as i`);
  await seedAssets(
    db, id, 'certificate', "'c' || lpad(to_hex(i), 19, '0')",
    `jsonb_build_object('Name', jsonb_build_array('site-' || i || '.corp.example'), 'CommonName', jsonb_build_array('site-' || i || '.corp.example'), 'Issuer', jsonb_build_array('CN=Corp Issuing CA ' || (i % 4)),
      'NotAfter', jsonb_build_array(to_char(now() + ((i % 800) - 100) * interval '1 day', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')), 'DaysToExpiry', jsonb_build_array((i % 800) - 100),
      'ExpiryStatus', jsonb_build_array(${statuses}[1 + i % 8]), 'KeyAlgorithm', jsonb_build_array(case when i % 5 = 0 then 'ec' else 'rsa' end), 'KeySize', jsonb_build_array(case when i % 5 = 0 then 256 when i % 97 = 0 then 1024 else 2048 end),
      'Weak', jsonb_build_array(i % 97 = 0), 'SelfSigned', jsonb_build_array(i % 50 = 0), 'EndpointCount', '[1]'::jsonb, 'DeviceCount', '[1]'::jsonb, 'Adapters', '["tls-scanner"]'::jsonb, 'AdapterCount', '[1]'::jsonb)`,
    `generate_series(1, ${sizes.certificates}) as i`,
  );
  await db.query(
    `insert into snapshot_certificate_places (discovery_id, certificate_asset, host, port, sni, device_asset, adapter, connection_id)
     select $1, 'c' || lpad(to_hex(i), 19, '0'), 'host-' || i, 443, 'site-' || i || '.corp.example', '0' || lpad(to_hex(i), 19, '0'), 'tls-scanner', 1 from generate_series(1, ${sizes.certificates}) as i`,
    [id],
  );
  await buildSnapshotIndex(db, id);
  await settleSnapshotTables(db);
  await db.exec('analyze snapshot_certificate_places');
  return id;
}

/** p50/p95 of each certificate list through the API on one engine, beside the hand-written SQL baseline. */
export function benchCertificateLists(engine: 'pglite' | 'postgresql') {
  let discoveryId = 0;
  const some = (prefix: string, number: number) => `${prefix}${number.toString(16).padStart(19, '0')}`;
  return withListBench(engine, async (db) => (discoveryId = await seed(db)), async ({ measure, measureSql }) => ({
    engine, ...sizes,
    expiring_this_month: await measure('POST', '/certificates/certificates', { query: 'DaysToExpiry >= 0 AND DaysToExpiry <= 30', ordering: [{ field: 'NotAfter', order: 'asc' }], size: 50 }),
    weak_keys: await measure('POST', '/certificates/certificates', { query: 'Weak = true AND KeyAlgorithm = rsa', ordering: [{ field: 'Name', order: 'asc' }], size: 50 }),
    certificate_list_unfiltered: await measure('POST', '/certificates/certificates', { ordering: [{ field: 'Name', order: 'asc' }], size: 50 }),
    certificate_list_sql_baseline: await measureSql([
      ["select count(*)::int from snapshot_assets where discovery_id = $1 and entity = 'certificate'", [discoveryId]],
      ["select asset_id, fields from snapshot_assets where discovery_id = $1 and entity = 'certificate' order by lower(fields->'Name'->>0), asset_id limit 50", [discoveryId]],
    ]),
    certificate_places: await measure('GET', `/certificates/places?certificate=${some('c', 4242)}&size=50`),
    device_certificates_panel: await measure('GET', `/certificates/places?device=${some('0', 4242)}&size=50`),
  }));
}

await runAlone('certificateLists.ts', benchCertificateLists);
