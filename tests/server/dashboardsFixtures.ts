import type { Queryable } from '../../src/server/db/database.js';
import { writeSnapshotSummary } from '../../src/server/discovery/snapshotSummaries.js';

type Fields = Record<string, unknown[]>;
export type KnownAsset = { entity: string; id: string; fields: Fields };
export type KnownRecord = { key: string; adapter: string; entity: string; fields: Fields };

const day = 86_400_000;

/**
 * Publishes a snapshot the way a discovery does (a `done` discovery row, its assets and source records written
 * as snapshotWriter.ts writes them, its summary as the publish writes it), started `daysAgo` days before `now`.
 */
export async function publishSnapshot(db: Queryable, companyId: number, now: Date, daysAgo: number, assets: KnownAsset[], records: KnownRecord[] = [], status: 'done' | 'error' = 'done'): Promise<number> {
  const start = new Date(now.getTime() - daysAgo * day);
  const entities = Object.fromEntries([...new Set(assets.map((asset) => asset.entity))].map((entity) => [entity, assets.filter((asset) => asset.entity === entity).length]));
  const [{ id }] = await db.query<{ id: number }>(
    'insert into discoveries (company_id, status, start_time, end_time, progress, error) values ($1, $2, $3, $4, $5, $6) returning id',
    [companyId, status, start.toISOString(), new Date(start.getTime() + 90_000).toISOString(), JSON.stringify({ assets: entities, connections: [{ state: status === 'error' ? 'error' : 'done' }] }), status === 'error' ? 'Every connection failed' : ''],
  );
  if (assets.length) {
    await db.query(
      `insert into snapshot_assets (discovery_id, entity, asset_id, fields, preferred, record_keys, reasons)
       select $1, entity, asset_id, fields, '{}'::jsonb, '{}'::text[], '[]'::jsonb from unnest($2::text[], $3::text[], $4::jsonb[]) as batch(entity, asset_id, fields)`,
      [id, assets.map((asset) => asset.entity), assets.map((asset) => asset.id), assets.map((asset) => JSON.stringify({ ...asset.fields, PrimaryKey: [asset.id] }))],
    );
  }
  if (records.length) {
    await db.query(
      `insert into snapshot_records (discovery_id, record_key, connection_id, adapter, entity, fields)
       select $1, record_key, 1, adapter, entity, fields from unnest($2::text[], $3::text[], $4::text[], $5::jsonb[]) as batch(record_key, adapter, entity, fields)`,
      [id, records.map((record) => record.key), records.map((record) => record.adapter), records.map((record) => record.entity), records.map((record) => JSON.stringify(record.fields))],
    );
  }
  if (status === 'done') await writeSnapshotSummary(db, id);
  return id;
}

const device = (id: string, hostname: string, os: string | null, adapters: string[], extra: Fields = {}): KnownAsset => ({
  entity: 'device', id, fields: { Hostname: [hostname], ...(os && { 'OS.Type': [os] }), Adapters: adapters, ...extra },
});
const user = (id: string): KnownAsset => ({ entity: 'user', id, fields: { Username: [id] } });

/** The oldest snapshot: four devices, two of them Windows. */
export const snapshotA: KnownAsset[] = [
  device('d1', 'ws-1', 'Windows', ['active-directory']), device('d2', 'ws-2', 'Windows', ['crowdstrike']),
  device('d3', 'srv-1', 'Linux', ['qualys']), device('d4', 'mac-1', 'macOS', ['jamf']),
];

/** Ten days before the latest: five devices (three Windows) and one user. */
export const snapshotB: KnownAsset[] = [...snapshotA, device('d5', 'ws-5', 'Windows', ['crowdstrike']), user('u1')];

/** The latest snapshot, relative to `now` (certificate expiry dates depend on it). */
export function latestSnapshotAssets(now: Date): KnownAsset[] {
  const inDays = (days: number) => new Date(now.getTime() + days * day).toISOString();
  return [
    device('d1', 'ws-1', 'Windows', ['active-directory', 'crowdstrike'], { SecurityScore: [42], 'VulnerableSoftware.CveId': ['CVE-2024-0001', 'CVE-2024-0002'] }),
    device('d2', 'ws-2', 'Windows', ['crowdstrike'], { SecurityScore: [88], 'VulnerableSoftware.CveId': ['CVE-2024-0001'] }),
    device('d3', 'srv-1', 'Linux', ['qualys'], { 'VulnerableSoftware.CveId': ['CVE-2024-0003'] }),
    device('d4', 'mac-1', 'macOS', ['jamf']),
    device('d6', 'printer 6', null, ['servicenow']),
    user('u1'), user('u2'),
    { entity: 'vulnerability', id: 'v1', fields: { CveId: ['CVE-2024-0001'], Severity: ['High'], AffectedSoftware: ['Chrome'] } },
    { entity: 'vulnerability', id: 'v2', fields: { CveId: ['CVE-2024-0002'], Score: [9.8], AffectedSoftware: ['OpenSSL'] } },
    { entity: 'vulnerability', id: 'v3', fields: { CveId: ['CVE-2024-0003'], Severity: ['Low'], AffectedSoftware: ['OpenSSL'] } },
    { entity: 'certificate', id: 'c1', fields: { Subject: ['old.example.com'], NotAfter: [inDays(-1)] } },
    { entity: 'certificate', id: 'c2', fields: { Subject: ['soon.example.com'], NotAfter: [inDays(10)] } },
    { entity: 'certificate', id: 'c3', fields: { Subject: ['quarter.example.com'], NotAfter: [inDays(60)] } },
    { entity: 'certificate', id: 'c4', fields: { Subject: ['later.example.com'], NotAfter: [inDays(400)] } },
    { entity: 'certificate', id: 'c5', fields: { Subject: ['undated.example.com'] } },
  ];
}

/** Source records of the latest snapshot that report CVEs: the scanner twice, the EDR once. */
export const latestRecords: KnownRecord[] = [
  { key: '4:q1', adapter: 'qualys', entity: 'device', fields: { Hostname: ['ws-1'], 'VulnerableSoftware.CveId': ['CVE-2024-0001', 'CVE-2024-0002'] } },
  { key: '4:q3', adapter: 'qualys', entity: 'device', fields: { Hostname: ['srv-1'], 'VulnerableSoftware.CveId': ['CVE-2024-0003'] } },
  { key: '2:c2', adapter: 'crowdstrike', entity: 'device', fields: { Hostname: ['ws-2'], 'VulnerableSoftware.CveId': ['CVE-2024-0001'] } },
  { key: '2:c1', adapter: 'crowdstrike', entity: 'device', fields: { Hostname: ['ws-1'] } },
];

/** Findings of the latest snapshot: ws-1 has two (one reported by both sources), ws-2 one, srv-1 one open and one fixed. */
export const latestFindings = [
  { device: 'd1', vulnerability: 'v1', adapters: ['crowdstrike', 'qualys'], status: 'open' },
  { device: 'd1', vulnerability: 'v2', adapters: ['qualys'], status: 'open' },
  { device: 'd2', vulnerability: 'v1', adapters: ['crowdstrike'], status: 'open' },
  { device: 'd3', vulnerability: 'v3', adapters: ['qualys'], status: 'open' },
  { device: 'd3', vulnerability: 'v2', adapters: ['qualys'], status: 'fixed' },
];

/** Writes findings into a published snapshot as the discovery does (snapshot_findings). */
export async function publishFindings(db: Queryable, discoveryId: number, findings: typeof latestFindings): Promise<void> {
  for (const finding of findings) {
    await db.query(
      `insert into snapshot_findings (discovery_id, finding_id, device_asset, vulnerability_asset, source_status, adapters, sources) values ($1, $2, $3, $4, $5, $6, '[]')`,
      [discoveryId, `${finding.vulnerability}.${finding.device}`, finding.device, finding.vulnerability, finding.status, finding.adapters],
    );
  }
}
