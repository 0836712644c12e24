import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueAdapter } from '../../src/server/adapters/catalogue.js';
import type { AdapterEngine } from '../../src/server/adapters/engine.js';
import { createAdapterRuntime } from '../../src/server/adapters/runtime.js';
import { computeChart } from '../../src/server/dashboards/computeChart.js';
import { computeWidget, widgetSettingsOf } from '../../src/server/dashboards/computeWidget.js';
import { createCompany } from '../../src/server/identity/companies.js';
import { runDiscoveryAndWait } from './discoveryFleet.js';
import { engines, startTestServer, type TestServer } from './harness.js';

// Connections are the sources, not adapters: two tenants of one EDR vendor and a directory report the same laptop.
// Its adapters stay the vendors (as the reference API has them); its connections, their count, their names and the
// per-field precedence tell the three sources apart.

type Listed = { id: string; fields: Record<string, unknown> };
const laptop = { Hostname: 'lt-7', SerialNumber: 'SN-LT-7', MacAddresses: ['00:14:22:aa:bb:07'] };
const replayEngine: AdapterEngine = {
  name: 'replay',
  test: async () => ({ ok: true, detail: 'replay' }),
  async *fetch({ config }) {
    for (const record of config.records as Listed[]) yield { entity: 'device', fields: record.fields, raw: { id: record.id } };
  },
};
const catalogue = new Map<string, CatalogueAdapter>(
  (['crowdstrike', 'active-directory'] as const).map((slug) => [
    slug,
    { name: slug, slug, description: '', groups: [slug === 'crowdstrike' ? 'edr' : 'ad'], categories: ['device'], engine: 'replay', connectionSchemaId: 'none', secretFields: new Set(), hasManifest: false },
  ]),
);

describe.each(engines)('connections as sources on %s', (engine) => {
  let server: TestServer;
  const ids = { emea: 0, americas: 0, directory: 0 };
  const token = () => server.adminToken;
  const addConnection = async (adapter: string, name: string, records: Listed[]) => {
    const [row] = await server.context.db.query<{ id: number }>(
      'insert into connections (company_id, adapter, name, connector_id, config) values (1, $1, $2, (select id from connectors where company_id = 1 and is_default), $3) returning id',
      [adapter, name, JSON.stringify({ records })],
    );
    return row.id;
  };
  const search = (body: object) => server.request('POST', '/devices/devices', { token: token(), body });
  const osVersions = async () => (await search({ query: 'Hostname = lt-7', fields: ['OS.Version'] })).body.results[0]['OS.Version'];
  const setOrdering = (ordering: Record<string, string[]>) =>
    server.request('PUT', '/configurations/advanced-configuration', {
      token: token(), body: { generic_host_name_limit: 10, recommendations_kept: 5000, recommended_matches: ['host_name', 'host_name_os', 'host_name_ip', 'host_name_ip_os'], minimum_score: 0.5, ordering },
    });

  beforeAll(async () => {
    server = await startTestServer(engine, {}, { adapters: createAdapterRuntime({ replay: replayEngine }, catalogue) });
    ids.emea = await addConnection('crowdstrike', 'CrowdStrike EMEA', [{ id: 'e-7', fields: { ...laptop, 'OS.Version': '10.0.22631', LastSeen: '2026-11-08T00:00:00.000Z' } }, { id: 'e-8', fields: { Hostname: 'ws-8', SerialNumber: 'SN-WS-8' } }]);
    ids.americas = await addConnection('crowdstrike', 'CrowdStrike Americas', [{ id: 'a-7', fields: { ...laptop, 'OS.Version': '10.0.19045' } }]);
    ids.directory = await addConnection('active-directory', 'corp.example.com', [{ id: 'd-7', fields: { ...laptop, 'OS.Version': '10.0 (22631)' } }]);
    expect(await runDiscoveryAndWait(server)).toMatchObject({ state: 'done' });
  });
  afterAll(() => server.stop());

  it('counts the connections of a merged device beside its adapters, and the count is queried and sorted', async () => {
    const answer = await search({ query: 'ConnectionCount = 3', fields: ['Hostname', 'Adapters', 'AdapterCount', 'Connections', 'ConnectionCount'], ordering: [{ field: 'ConnectionCount', order: 'desc' }] });
    expect(answer.status).toBe(200);
    expect(answer.body.results).toEqual([
      { Hostname: ['lt-7'], Adapters: ['active-directory', 'crowdstrike'], AdapterCount: [2], Connections: [ids.emea, ids.americas, ids.directory], ConnectionCount: [3], PrimaryKey: [expect.any(String)] },
    ]);
    const sorted = await search({ fields: ['Hostname'], ordering: [{ field: 'ConnectionCount', order: 'asc' }] });
    expect(sorted.body.results.map((row: { Hostname: string[] }) => row.Hostname[0])).toEqual(['ws-8', 'lt-7']);
    // The answer names every connection the ids stand for.
    expect(answer.body.connections).toEqual([
      { id: ids.emea, name: 'CrowdStrike EMEA', adapter: 'crowdstrike' },
      { id: ids.americas, name: 'CrowdStrike Americas', adapter: 'crowdstrike' },
      { id: ids.directory, name: 'corp.example.com', adapter: 'active-directory' },
    ]);
  });

  it("names each source record of a device's detail after its connection, under its current name", async () => {
    await server.context.db.query("update connections set name = 'CrowdStrike Europe' where id = $1", [ids.emea]);
    const id = (await search({ query: 'Hostname = lt-7' })).body.results[0].PrimaryKey[0];
    const detail = await server.request('POST', `/devices/devices/${id}`, { token: token(), body: {} });
    expect(detail.body.sources.map((source: { adapter: string; connection_id: number; connection_name: string }) => [source.adapter, source.connection_id, source.connection_name])).toEqual([
      ['active-directory', ids.directory, 'corp.example.com'],
      ['crowdstrike', ids.emea, 'CrowdStrike Europe'],
      ['crowdstrike', ids.americas, 'CrowdStrike Americas'],
    ]);
    await server.context.db.query("update connections set name = 'CrowdStrike EMEA' where id = $1", [ids.emea]);
  });

  it('ranks the sources of a field per connection as well as per adapter', async () => {
    // By default the EDR comes before the directory; the two tenants, of one adapter, keep their order.
    expect((await osVersions())[0]).not.toBe('10.0 (22631)');
    expect(await setOrdering({ 'OS.Version': [`connection:${ids.americas}`] })).toMatchObject({ status: 200 });
    await runDiscoveryAndWait(server);
    expect(await osVersions()).toEqual(['10.0.19045', '10.0.22631', '10.0 (22631)']);
    expect(await setOrdering({ 'OS.Version': ['active-directory', `connection:${ids.emea}`] })).toMatchObject({ status: 200 });
    await runDiscoveryAndWait(server);
    expect(await osVersions()).toEqual(['10.0 (22631)', '10.0.22631', '10.0.19045']);
    const id = (await search({ query: 'Hostname = lt-7' })).body.results[0].PrimaryKey[0];
    expect((await server.request('POST', `/devices/devices/${id}`, { token: token(), body: {} })).body.preferred['OS.Version']).toEqual({ value: '10.0 (22631)', adapter: 'active-directory' });
    await setOrdering({});
  });

  it("refuses a precedence that names a connection the company does not have, or another company's", async () => {
    const [other] = await server.context.db.query<{ id: number }>(
      "insert into connections (company_id, adapter, name, connector_id, config) values ($1, 'crowdstrike', 'Theirs', (select id from connectors where company_id = 1 and is_default), '{}') returning id",
      [await createCompany(server.context.db, { name: 'Other company' })],
    );
    for (const missing of [99_999, other.id]) {
      const answer = await setOrdering({ Hostname: [`connection:${missing}`, 'crowdstrike'] });
      expect(answer).toMatchObject({ status: 400, body: { ordering: [expect.stringContaining(`#${missing}`)] } });
    }
    expect(await setOrdering({ Hostname: ['connection:0'] })).toMatchObject({ status: 400, body: { 'ordering.Hostname.0': expect.any(Array) } });
    expect(await setOrdering({ Hostname: ['Connection 7'] })).toMatchObject({ status: 400 });
  });

  it('exports connections by their names, dates as ISO-8601 and headings from the schema titles', async () => {
    const csv = await server.app.inject({
      method: 'POST', url: '/devices/export', headers: { authorization: `Bearer ${token()}` },
      payload: { format: 'csv', query: 'Hostname = lt-7', fields: ['Hostname', 'Connections', 'ConnectionCount', 'LastSeen'] },
    });
    expect(csv.body.replace(/^\uFEFF/, '').split('\r\n')).toEqual([
      'Hostname,Connections,Connection count,Last seen',
      'lt-7,"CrowdStrike EMEA, CrowdStrike Americas, corp.example.com",3,2026-11-08T00:00:00.000Z',
      '',
    ]);
  });

  it('labels fields from the titles of the entity schema and offers the connection count', async () => {
    const { body } = await server.request('GET', '/configurations/discovery', { token: token() });
    expect(body.field_map.IpAddresses.label).toBe('IP addresses');
    expect(body.field_map.LastSeen.label).toBe('Last seen');
    expect(body.field_map.Hostname.label).toBe('Hostname');
    expect(body.field_map.ConnectionCount).toMatchObject({ value_type: 'long', label: 'Connection count' });
    expect(body.user_field_map.LastLogOnTime.label).toBe('Last log-on');
  });

  it('charts devices per connection, each bar named after its connection and querying its devices', async () => {
    const context = { db: server.context.db, companyId: 1, userId: null, now: new Date() };
    const perConnection = await computeWidget(context, widgetSettingsOf({ kind: 'device_discovery', sources: 'connection' }));
    expect(perConnection.rows).toEqual([
      { label: 'CrowdStrike EMEA', value: 2, query: `Connections = ${ids.emea}` },
      { label: 'corp.example.com', value: 1, query: `Connections = ${ids.directory}` },
      { label: 'CrowdStrike Americas', value: 1, query: `Connections = ${ids.americas}` },
      { label: 'Unique devices', value: 2, query: '' },
    ]);
    for (const row of perConnection.rows.slice(0, 3)) expect((await search({ query: row.query })).body.count).toBe(row.value);
    const perAdapter = await computeWidget(context, widgetSettingsOf({ kind: 'device_discovery', sources: 'adapter' }));
    expect(perAdapter.rows.map((row) => [row.label, row.value])).toEqual([['crowdstrike', 2], ['active-directory', 1], ['Unique devices', 2]]);
    const grouped = await computeWidget(context, widgetSettingsOf({ kind: 'group_by', field: 'Connections' }));
    expect(grouped.rows.map((row) => row.label)).toEqual(['CrowdStrike EMEA', 'corp.example.com', 'CrowdStrike Americas']);
    const table = await computeChart(context, { kind: 'table', inventory: 'device', query: '', group_by_query: null, group_by_data: 'Connections', fields: [], limit: 10 });
    expect(table.rows[0]).toEqual({ Connections: 'CrowdStrike EMEA', Count: 2, query: `Connections = ${ids.emea}` });
  });
});
