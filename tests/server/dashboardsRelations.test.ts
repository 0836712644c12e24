import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../src/server/db/database.js';
import { publishSnapshot, type KnownAsset } from './dashboardsFixtures.js';
import { engines, startTestServer, type TestServer } from './harness.js';

// Dashboards count what the list they click through to counts: a device query that crosses to the software,
// vulnerabilities, services or certificates of the snapshot (relationConditions.ts) gives a chart or widget the
// list's `count` for the same query, saved queries included.

const device = (id: string, hostname: string, os: string): KnownAsset => ({ entity: 'device', id, fields: { Hostname: [hostname], 'OS.Type': [os], SecurityScore: [50] } });
const assets: KnownAsset[] = [
  device('d1', 'ws-1', 'Windows'), device('d2', 'ws-2', 'Windows'), device('d3', 'srv-1', 'Linux'), device('d4', 'srv-2', 'Linux'), device('d5', 'mac-1', 'macOS'),
  { entity: 'software', id: 's-chrome', fields: { Name: ['Google Chrome'] } },
  { entity: 'software', id: 's-ssl', fields: { Name: ['OpenSSL'] } },
  { entity: 'vulnerability', id: 'v1', fields: { CveId: ['CVE-2024-0001'], Severity: ['Critical'] } },
  { entity: 'vulnerability', id: 'v2', fields: { CveId: ['CVE-2024-0002'], Severity: ['Low'] } },
  { entity: 'service', id: 'svc-ssh', fields: { Name: ['sshd'] } },
  { entity: 'certificate', id: 'c1', fields: { CommonName: ['www.example.com'], ExpiryStatus: ['Expired'] } },
  { entity: 'certificate', id: 'c2', fields: { CommonName: ['api.example.com'], ExpiryStatus: ['Valid'] } },
];

async function writeLinks(db: Queryable, discoveryId: number): Promise<void> {
  for (const [deviceAsset, software, name, version] of [['d1', 's-chrome', 'Google Chrome', '120.0'], ['d2', 's-chrome', 'Google Chrome', '119.0'], ['d3', 's-ssl', 'OpenSSL', '3.0'], ['d1', 's-ssl', 'OpenSSL', '1.1']]) {
    await db.query(
      "insert into snapshot_installations (discovery_id, device_asset, software_asset, software_name, version, adapter, connection_id) values ($1, $2, $3, $4, $5, 'intune', 1)",
      [discoveryId, deviceAsset, software, name, version],
    );
  }
  for (const [deviceAsset, vulnerability, status] of [['d1', 'v1', 'open'], ['d3', 'v1', 'fixed'], ['d3', 'v2', 'open'], ['d4', 'v1', 'open']]) {
    await db.query(
      "insert into snapshot_findings (discovery_id, finding_id, device_asset, vulnerability_asset, source_status, adapters, sources) values ($1, $2, $3, $4, $5, '{qualys}', '[]')",
      [discoveryId, `${vulnerability}.${deviceAsset}`, deviceAsset, vulnerability, status],
    );
  }
  for (const [deviceAsset, state] of [['d3', 'running'], ['d4', 'stopped']]) {
    await db.query(
      "insert into snapshot_service_instances (discovery_id, service_asset, device_asset, service_name, state, port, adapter, connection_id) values ($1, 'svc-ssh', $2, 'sshd', $3, 22, 'scanner', 1)",
      [discoveryId, deviceAsset, state],
    );
  }
  for (const [deviceAsset, certificate] of [['d3', 'c1'], ['d4', 'c2'], ['d5', 'c1']]) {
    await db.query(
      "insert into snapshot_certificate_places (discovery_id, certificate_asset, host, port, device_asset, installed, adapter, connection_id) values ($1, $2, 'www.example.com', 443, $3, false, 'scanner', 1)",
      [discoveryId, certificate, deviceAsset],
    );
  }
}

describe.each(engines)('dashboards compile queries as the lists do on %s', (engine) => {
  let server: TestServer;
  let token: string;
  let dashboard: number;
  let savedId: number;

  beforeAll(async () => {
    server = await startTestServer(engine);
    token = server.adminToken;
    const discoveryId = await publishSnapshot(server.context.db, 1, new Date(), 0, assets);
    await writeLinks(server.context.db, discoveryId);
    dashboard = (await server.request('POST', '/dashboards/dashboards', { token, body: { name: 'Relations', is_public: true, groups: [] } })).body.id;
    const saved = await server.request('POST', '/queries/queries', { token, body: { name: 'Chrome devices', text: 'Software.Name = "Google Chrome"', type: 'device' } });
    expect(saved.status).toBe(201);
    savedId = saved.body.id;
  });
  afterAll(() => server.stop());

  const listCount = async (query: string) => {
    const answer = await server.request('POST', '/devices/devices', { token, body: { query, size: 1 } });
    expect(answer.status).toBe(200);
    return answer.body.count as number;
  };

  const queries = [
    'Software.Name = "Google Chrome"',
    'Software.Name = "Google Chrome" AND Software.Version = 120*',
    'NOT Software.Name = OpenSSL',
    'Vulnerability.CveId = CVE-2024-0001',
    'Vulnerability.CveId = CVE-2024-0001 AND Vulnerability.Status = open',
    'Vulnerability.Severity = Critical OR OS.Type = macOS',
    'Service.Name = sshd AND Service.State = running',
    'Certificate.ExpiryStatus = Expired',
    'Certificate.CommonName = api.example.com AND OS.Type = Linux',
  ];

  it.each(queries)('counts %s in charts and widgets as the device list does', async (query) => {
    const expected = await listCount(query);
    const chart = await server.request('POST', '/dashboards/charts', { token, body: { name: `Number ${query}`, dashboard, kind: 'number', inventory: 'device', query } });
    expect(chart.status).toBe(201);
    const number = await server.request('GET', `/dashboards/charts/${chart.body.id}/data`, { token });
    expect(number.body.rows[0]).toMatchObject({ value: expected });
    const table = await server.request('POST', '/dashboards/charts/preview', { token, body: { name: 'Table', dashboard, kind: 'table', inventory: 'device', query, fields: ['Hostname'], limit: 50 } });
    expect(table.body.rows).toHaveLength(expected);
    const grouped = await server.request('POST', '/dashboards/widgets/preview', { token, body: { name: 'OS', dashboard, kind: 'group_by', inventory: 'device', field: 'OS.Type', query } });
    expect(grouped.body.total ?? 0).toBe(expected);
    const scores = await server.request('POST', '/dashboards/widgets/preview', { token, body: { name: 'Score', dashboard, kind: 'security_score', query } });
    expect(scores.body.total ?? 0).toBe(expected);
    // History widgets read several snapshots in one statement: each row follows the relations of its own snapshot.
    const history = await server.request('POST', '/dashboards/widgets/preview', { token, body: { name: 'History', dashboard, kind: 'query_historical', inventory: 'device', query, days: 30 } });
    expect(history.body.rows.at(-1)).toMatchObject({ value: expected });
  });

  it('counts a saved query that crosses inventories as the list does', async () => {
    const query = `Query is ${savedId} AND OS.Type = Windows`;
    const expected = await listCount(query);
    expect(expected).toBe(2);
    const chart = await server.request('POST', '/dashboards/charts/preview', { token, body: { name: 'Saved', dashboard, kind: 'score', inventory: 'device', group_by_query: savedId, query: 'OS.Type = Windows' } });
    expect(chart.body.rows[0]).toMatchObject({ matched: expected, total: 5 });
  });
});
