import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterEngine } from '../../src/server/adapters/engine.js';
import { createFileEngines } from '../../src/server/adapters/files/fileEngines.js';
import { createAdapterRuntime } from '../../src/server/adapters/runtime.js';
import { loadDemoOnStart } from '../../src/server/demo/demoDataset.js';
import { waitForDiscoveries } from './discoveryFleet.js';
import { startTestServer, type TestServer } from './harness.js';

// The demo reads its CSV exports through the real CSV file engine, from this test's own data folder.
describe('the demo data set', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cartograph-demo-'));
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', {}, { dataDir, adapters: createAdapterRuntime(createFileEngines({ dataDir, importRoots: [] })) });
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is offered on an empty inventory, loads through the CSV file adapter and runs the first discovery', async () => {
    const token = server.adminToken;
    expect(await loadDemoOnStart(server.context, {})).toBeNull();
    expect((await server.request('GET', '/discoveries/demo', { token })).body).toEqual({ available: true });
    const started = await server.request('POST', '/discoveries/demo', { token });
    expect(started).toMatchObject({ status: 202, body: { status: 'running', connections: expect.any(Array) } });
    expect(started.body.connections).toHaveLength(12);
    const done = await waitForDiscoveries(server);
    expect(done).toMatchObject({ state: 'done' });
    for (const connection of done.progress.connections) expect(connection).toMatchObject({ adapter: 'csvfile', state: 'done', error: '' });

    const devices = await server.request('POST', '/devices/devices', { token, body: { size: 1 } });
    expect(devices.body.count).toBeGreaterThan(1900);
    expect(devices.body.count).toBeLessThan(2200);
    const users = await server.request('POST', '/userinventory/users', { token, body: { size: 1 } });
    expect(users.body.count).toBeGreaterThan(950);
    expect(users.body.count).toBeLessThan(1100);
    // Most machines appear in several exports and are merged into one device with the reason recorded.
    const merged = await server.request('POST', '/devices/devices', { token, body: { query: 'Connections = *', size: 1000, fields: ['Connections'] } });
    const multiSource = merged.body.results.filter((row: { Connections: number[] }) => row.Connections.length >= 2).length;
    expect(multiSource / merged.body.results.length).toBeGreaterThan(0.6);
    // Every export goes through the one CSV adapter, yet each is a source of its own: a machine in all five device
    // exports counts five connections (and one adapter), and its detail names each.
    const everywhere = await server.request('POST', '/devices/devices', { token, body: { query: 'ConnectionCount = 5', size: 1, fields: ['Adapters', 'AdapterCount'] } });
    expect(everywhere.body.count).toBeGreaterThan(50);
    expect(everywhere.body.results[0]).toMatchObject({ Adapters: ['csvfile'], AdapterCount: [1] });
    const detail = await server.request('POST', `/devices/devices/${everywhere.body.results[0].PrimaryKey[0]}`, { token, body: {} });
    expect(new Set(detail.body.sources.map((source: { connection_name: string }) => source.connection_name))).toEqual(
      new Set(['Directory computers (CSV export)', 'EDR hosts (CSV export)', 'MDM devices (CSV export)', 'Vulnerability scanner assets (CSV export)', 'CMDB configuration items (CSV export)']),
    );
    expect((await server.request('GET', '/devices/merge-recommendations', { token })).body.count).toBeGreaterThan(0);
    expect((await server.request('GET', '/devices/relations?kind=device-user&size=1', { token })).body.count).toBeGreaterThan(100);

    expect((await server.request('GET', '/discoveries/demo', { token })).body).toEqual({ available: false });
    expect(await server.request('POST', '/discoveries/demo', { token })).toMatchObject({ status: 409, body: { code: 'demo_unavailable' } });
    expect(await loadDemoOnStart(server.context, { CARTOGRAPH_DEMO: '1' })).toBeNull();
  }, 240_000);
});

describe('CARTOGRAPH_DEMO=1', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cartograph-demo-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('loads the demo and starts the first discovery when the server starts on an empty inventory', async () => {
    const previous = process.env.CARTOGRAPH_DEMO;
    process.env.CARTOGRAPH_DEMO = '1';
    // Only the start-up wiring is under test here (the CSV path is tested above): the connections' engine produces
    // no records, so the first discovery finishes at once.
    const noRecords: AdapterEngine = { name: 'csv', test: async () => ({ ok: true, detail: '' }), async *fetch() {} };
    const server = await startTestServer('pglite', {}, { dataDir, adapters: createAdapterRuntime({ csv: noRecords }) }).finally(() => {
      if (previous === undefined) delete process.env.CARTOGRAPH_DEMO;
      else process.env.CARTOGRAPH_DEMO = previous;
    });
    try {
      const [{ count }] = await server.context.db.query<{ count: number }>("select count(*)::int as count from connections where adapter = 'csvfile'");
      expect(count).toBe(12);
      const discoveries = await server.context.db.query<{ status: string }>('select status from discoveries');
      expect(discoveries).toHaveLength(1);
      expect(await loadDemoOnStart(server.context, { CARTOGRAPH_DEMO: '1' })).toBeNull();
      expect(await waitForDiscoveries(server)).toMatchObject({ state: 'done' });
    } finally {
      await server.stop();
    }
  }, 240_000);
});
