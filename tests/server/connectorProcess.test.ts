import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConnector, type ConnectorProcess } from '../support/connectorProcess.js';
import { engines, startTestServer, type TestServer } from './harness.js';

// A file only the connector's machine may read: the server under test has no import folders at all, so records of
// it in the inventory can only have come through the connector.
const plantDevices = [
  { id: 'p1', hostname: 'plc-gateway-01', serial: 'OT-0001' },
  { id: 'p2', hostname: 'plc-gateway-02', serial: 'OT-0002' },
  { id: 'p3', hostname: 'hmi-panel-07', serial: 'OT-0003' },
];

describe.each(engines)('a connector process against a server on %s', (engine) => {
  let server: TestServer;
  let folder: string;
  let baseUrl: string;
  let connector: ConnectorProcess | null = null;

  beforeAll(async () => {
    server = await startTestServer(engine);
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    folder = mkdtempSync(join(tmpdir(), 'cartograph-connector-'));
    writeFileSync(join(folder, 'plant.json'), JSON.stringify(plantDevices));
  });
  afterAll(async () => {
    await connector?.stop();
    await server.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('refuses plain http to anything but this machine, before sending its token', async () => {
    const refused = await startConnector(['--url', 'http://cartograph.example.com'], { CARTOGRAPH_CONNECTOR_TOKEN: 'cgc_1_x' }, null);
    expect(await refused.exited).toBe(2);
    expect(refused.output()).toContain('Refusing plain http:// to cartograph.example.com');
  });

  it('fetches its connections where it runs, the records arrive in the inventory, and a revoked token stops it', async () => {
    const created = await server.request('POST', '/connectors/connectors', { token: server.adminToken, body: { name: 'OT network' } });
    expect(created.status).toBe(201);
    const connection = await server.request('POST', '/adapters/connections', {
      token: server.adminToken,
      body: {
        adapter: 'jsonfile', name: 'OT gateways', connector: created.body.id,
        option_connections: [
          { name: 'source', typed_value: { source_type: 'path', file_path: join(folder, 'plant.json') } },
          { name: 'entity', typed_value: 'device' },
          { name: 'column_map', typed_value: { id: 'AgentId', hostname: 'Hostname', serial: 'SerialNumber' } },
        ],
      },
    });
    expect(connection.status, JSON.stringify(connection.body)).toBe(201);

    connector = await startConnector(['--url', baseUrl], { CARTOGRAPH_CONNECTOR_TOKEN: created.body.token, CARTOGRAPH_IMPORT_DIRS: folder });
    expect((await server.request('GET', `/connectors/connectors/${created.body.id}`, { token: server.adminToken })).body).toMatchObject({
      version: expect.stringMatching(/^\d+\.\d+\.\d+/), last_seen_at: expect.any(String), connection_count: 1,
    });

    expect((await server.request('POST', '/discoveries/discoveries', { token: server.adminToken })).status).toBe(202);
    let last: { status: number; state: string; progress: { connections: { name: string; state: string; records: number }[] } } | null = null;
    for (let attempt = 0; attempt < 1200 && (!last || last.status === 1); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      last = (await server.request('GET', '/discoveries/last', { token: server.adminToken })).body;
    }
    expect(last).toMatchObject({ state: 'done', progress: { connections: [{ name: 'OT gateways', state: 'done', records: 3 }] } });
    const devices = await server.request('POST', '/devices/devices', { token: server.adminToken, body: { fields: ['Hostname', 'SerialNumber'], ordering: [{ field: 'Hostname' }] } });
    expect(devices.body.results.map((row: { Hostname: unknown }) => [row.Hostname].flat()[0])).toEqual(['hmi-panel-07', 'plc-gateway-01', 'plc-gateway-02']);
    await connector.printed('finished connection');
    expect(connector.output()).not.toContain(created.body.token);

    // The Test button of this connection runs on the connector: the server itself may not read the file (it has no
    // import folders), so success can only come from there.
    const tested = await server.request('POST', `/adapters/test/${connection.body.id}`, { token: server.adminToken });
    expect(tested.body, JSON.stringify(tested.body)).toMatchObject({ success: true });
    await connector.printed(`finished test of connection ${connection.body.id} (jsonfile): reached`);
    const missing = await server.request('POST', '/adapters/test', {
      token: server.adminToken,
      body: {
        adapter: 'jsonfile', name: 'Draft', connector: created.body.id,
        option_connections: [{ name: 'source', typed_value: { source_type: 'path', file_path: join(folder, 'missing.json') } }, { name: 'entity', typed_value: 'device' }],
      },
    });
    expect(missing.body).toMatchObject({ success: false });
    await connector.printed('finished test of unsaved settings (jsonfile): failed');

    const revoked = await server.request('POST', `/connectors/connectors/${created.body.id}/revoke`, { token: server.adminToken });
    expect(revoked.status).toBe(200);
    expect(await connector.exited).toBe(1);
    await connector.printed("the server refused this connector's token");
    const events = await server.context.db.query<{ event: string }>("select event from system_log where detail->>'connector_id' = $1 order by id", [String(created.body.id)]);
    expect(events.map((row) => row.event)).toEqual(['connector_token_created', 'connector_first_seen', 'connector_token_revoked', 'connector_token_refused']);
  });
});
