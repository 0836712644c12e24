import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueAdapter } from '../../src/server/adapters/catalogue.js';
import type { AdapterEngine } from '../../src/server/adapters/engine.js';
import { createAdapterRuntime } from '../../src/server/adapters/runtime.js';
import { engines, startTestServer, type TestServer } from './harness.js';

// Two exports replayed as their systems write them: a CMDB export's "Windows 11" and an EDR's full OS strings, host
// names in different cases, manufacturers spelled two ways.
const exports: Record<string, Record<string, string>[]> = {
  cmdb: [
    { name: 'WS-0142', serial: 'SN-0142', os: 'Windows 11', make: 'Dell Inc.', model: 'Latitude 7440', kind: 'Workstation', mac: '00-1A-2B-3C-4D-01' },
    { name: 'SRV-DB-01', serial: 'SN-9001', os: 'Windows 2022 Datacenter', make: 'VMware, Inc.', model: 'VMware7,1', kind: 'Server', mac: '00-1A-2B-3C-4D-02' },
    { name: 'build-07', serial: 'SN-0007', os: 'Ubuntu 22.04.3 LTS', make: 'DELL', model: 'PowerEdge R750', kind: 'Server', mac: '00-1A-2B-3C-4D-03' },
  ],
  edr: [
    { name: 'ws-0142', serial: 'SN-0142', os: 'Microsoft Windows 11 Enterprise 10.0.22631', make: 'Dell', model: 'Latitude 7440', kind: 'Workstation', mac: '00:1a:2b:3c:4d:01' },
    { name: 'srv-db-01', serial: 'SN-9001', os: 'Microsoft Windows Server 2022 Datacenter 10.0.20348', make: 'VMware', model: 'VMware Virtual Platform', kind: 'Server', mac: '00:1a:2b:3c:4d:02' },
    { name: 'mac-33', serial: 'C02XK1ABJG5H', os: 'Darwin 23.4.0', make: 'Apple Inc.', model: 'MacBookPro18,3', kind: '', mac: '001a.2b3c.4d04' },
  ],
};

const replay: AdapterEngine = {
  name: 'replay',
  test: async () => ({ ok: true, detail: 'replay' }),
  async *fetch({ config }) {
    for (const row of exports[config.export as string]) {
      yield {
        entity: 'device',
        fields: { Hostname: row.name, SerialNumber: row.serial, 'OS.FullOsString': row.os, DeviceManufacturer: row.make, DeviceModel: row.model, Category: row.kind || null, MacAddresses: row.mac },
        raw: row,
      };
    }
  },
};

const catalogue = new Map<string, CatalogueAdapter>(
  ['cmdb-export', 'edr-export'].map((slug) => [slug, { name: slug, slug, description: '', groups: [], categories: ['device'], engine: 'replay', connectionSchemaId: 'none', secretFields: new Set(), hasManifest: false }]),
);

describe.each(engines)('normalized devices on %s', (engine) => {
  let server: TestServer;
  const search = (query: string, fields: string[] = ['Hostname']) => server.request('POST', '/devices/devices', { token: server.adminToken, body: { query, fields, size: 20, ordering: [{ field: 'Hostname' }] } });

  beforeAll(async () => {
    server = await startTestServer(engine, {}, { adapters: createAdapterRuntime({ replay }, catalogue) });
    for (const [adapter, source] of [['cmdb-export', 'cmdb'], ['edr-export', 'edr']]) {
      await server.context.db.query(
        "insert into connections (company_id, adapter, name, connector_id, config) values (1, $1, $2, (select id from connectors where company_id = 1 and is_default), $3)",
        [adapter, source, JSON.stringify({ export: source })],
      );
    }
    const started = await server.request('POST', '/discoveries/discoveries', { token: server.adminToken });
    expect(started.status).toBe(202);
    for (let attempt = 0; attempt < 600; attempt += 1) {
      const last = await server.request('GET', '/discoveries/last', { token: server.adminToken });
      if (last.body.status !== 1) return expect(last.body.state).toBe('done');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  afterAll(() => server.stop());

  it('finds every Windows device with OS.Type = Windows, whatever its source wrote', async () => {
    const windows = await search('OS.Type = Windows', ['Hostname', 'OS.Type', 'OS.Distribution']);
    expect(windows.body.count).toBe(2);
    expect(windows.body.results.map((device: { 'OS.Type': string[] }) => device['OS.Type'])).toEqual([['Windows'], ['Windows']]);
    expect((await search('OS.Distribution = "Windows Server 2022"')).body.count).toBe(1);
    expect((await search('OS.Type = macOS AND OS.Version = "14.4"')).body.count).toBe(1);
    expect((await search('OS.Distribution = Ubuntu')).body.count).toBe(1);
    // One slice per OS: no source's spelling is left over.
    expect((await search('OS.Type = "Windows 11" OR OS.Type = "Microsoft Windows Server 2022 Datacenter 10.0.20348"')).body.count).toBe(0);
  });

  it('merges manufacturers, categories and host names into one form each, and keeps every spelling for queries', async () => {
    expect((await search('DeviceManufacturer = Dell')).body.count).toBe(2);
    expect((await search('DeviceManufacturer = "Dell Inc."')).body.count).toBe(0);
    expect((await search('Category = "Virtual machine"', ['Hostname', 'Category'])).body.results).toEqual([expect.objectContaining({ Hostname: ['SRV-DB-01', 'srv-db-01'], Category: ['Virtual machine'] })]);
    expect((await search('Category = Laptop')).body.count).toBe(2);
    // Either spelling of a host name finds the device; the CMDB's, which the EDR's ties, is the preferred source's.
    const laptop = await search('Hostname = ws-0142', ['Hostname', 'MacAddresses']);
    expect(laptop.body.results).toEqual([expect.objectContaining({ MacAddresses: ['00:1a:2b:3c:4d:01'] })]);
    expect(laptop.body.results[0].Hostname).toHaveLength(2);
  });

  it('keeps each source’s raw value and the rule that read it on the source record, and the raw value reachable by queries', async () => {
    expect((await search('Specifics.cmdb-export.os = "Windows 11"')).body.count).toBe(1);
    const [device] = (await search('Hostname = WS-0142', ['Hostname'])).body.results;
    const detail = await server.request('POST', `/devices/devices/${device.PrimaryKey[0]}`, { token: server.adminToken, body: {} });
    expect(detail.body).not.toHaveProperty('Normalization');
    const cmdb = detail.body.sources.find((source: { adapter: string }) => source.adapter === 'cmdb-export');
    expect(cmdb.fields.Normalization).toContainEqual({ field: 'OS.Type', raw: 'Windows 11', value: 'Windows', rule: 'operating-systems#windows-client' });
    expect(cmdb.fields.Normalization).toContainEqual({ field: 'Category', raw: 'Workstation', value: 'Laptop', rule: 'categories#laptop-model', reason: 'laptop model: DeviceModel is "Latitude 7440"' });
    expect(cmdb.fields['OS.FullOsString']).toEqual(['Windows 11']);
  });
});
