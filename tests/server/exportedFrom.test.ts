import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileEngines } from '../../src/server/adapters/files/fileEngines.js';
import { createAdapterRuntime } from '../../src/server/adapters/runtime.js';
import { starterPolicies } from '../../src/server/security/starterPolicies.js';
import { pathSource, scratchFolder } from './adapters/files/helpers.js';
import { runDiscoveryAndWait } from './discoveryFleet.js';
import { engines, startTestServer, type TestServer } from './harness.js';

// A file connection says which system its export comes from: a catalogue adapter, or only a kind of system. Its
// records then count as that system's in Adapters, the source categories and the starter policies.

const folder = scratchFolder();
afterAll(() => folder.remove());
const policy = (starterId: string) => starterPolicies.find((item) => item.starter_id === starterId)!.query;

describe.each(engines)('file exports that name their system on %s', (engine) => {
  let server: TestServer;
  const call = (method: string, url: string, body?: object) => server.request(method, url, { token: server.adminToken, body });
  const csvConnection = (name: string, file: string, extra: Record<string, unknown> = {}) => ({
    adapter: 'csvfile', name,
    option_connections: Object.entries({ source: pathSource(folder.file(file)), entity: 'device', delimiter: ',', encoding: 'utf-8', ...extra }).map(([option, value]) => ({ name: option, typed_value: value })),
  });
  const hosts = async (query: string) =>
    ((await call('POST', '/devices/devices', { query, size: 100, fields: ['Hostname'], ordering: [{ field: 'Hostname' }] })).body.results as { Hostname: string[] }[]).map((row) => row.Hostname[0]);

  beforeAll(async () => {
    server = await startTestServer(engine, {}, { adapters: createAdapterRuntime(createFileEngines({ dataDir: folder.path, importRoots: [folder.path] })) });
    writeFileSync(folder.file('edr.csv'), 'hostname,serial_number,sensor_version\nws-1,SN-1,7.10\nws-2,SN-2,7.11\n');
    writeFileSync(folder.file('directory.csv'), 'Name,SerialNumber\nws-1,SN-1\n');
    writeFileSync(folder.file('inventory.csv'), 'Hostname,SerialNumber\nws-3,SN-3\n');
  });
  afterAll(() => server.stop());

  it('refuses an exporter that is not a catalogue adapter or a kind of system, and an export of an export', async () => {
    for (const [exportedFrom, message] of [['nope', 'No adapter "nope"'], ['jsonfile', 'itself a file'], ['category:toaster', 'not a kind of system'], ['Crowd Strike', '']]) {
      const answer = await call('POST', '/adapters/connections', csvConnection(`Refused ${exportedFrom}`, 'edr.csv', { exported_from: exportedFrom }));
      expect(answer).toMatchObject({ status: 400, body: { exported_from: [expect.stringContaining(message)] } });
    }
  });

  it('counts the records of an export as its system in Adapters, Specifics, the source categories and the policies', async () => {
    const created = [
      await call('POST', '/adapters/connections', csvConnection('Falcon hosts export', 'edr.csv', { exported_from: 'crowdstrike' })),
      await call('POST', '/adapters/connections', csvConnection('Directory export', 'directory.csv', { exported_from: 'category:ad' })),
      await call('POST', '/adapters/connections', csvConnection('Spreadsheet', 'inventory.csv')),
    ];
    expect(created.map((answer) => answer.status)).toEqual([201, 201, 201]);
    expect(created[0].body.option_connections).toContainEqual({ name: 'exported_from', typed_value: 'crowdstrike', is_sensitive: false });
    expect(await runDiscoveryAndWait(server)).toMatchObject({ state: 'done' });

    const devices = await call('POST', '/devices/devices', { query: '', fields: ['Hostname', 'Adapters', 'AdapterCount', 'SourceCategories', 'ConnectionCount'], ordering: [{ field: 'Hostname' }] });
    expect(devices.body.results.map((row: Record<string, unknown[]>) => [row.Hostname[0], row.Adapters, row.AdapterCount, [...row.SourceCategories].sort(), row.ConnectionCount])).toEqual([
      ['ws-1', ['crowdstrike', 'csvfile'], [2], ['ad', 'edr'], [2]],
      ['ws-2', ['crowdstrike'], [1], ['edr'], [1]],
      ['ws-3', ['csvfile'], [1], ['file'], [1]],
    ]);
    // The export's own columns are the system's raw fields, as its adapter's would be.
    expect(await hosts('Specifics.crowdstrike.sensor_version = 7.11')).toEqual(['ws-2']);
    expect(await hosts('SourceCategories = edr')).toEqual(['ws-1', 'ws-2']);

    expect(await hosts(policy('cis-10.1-anti-malware'))).toEqual(['ws-1', 'ws-2']);
    expect(await hosts(policy('cis-1.2-directory'))).toEqual(['ws-1']);
    expect(await hosts(policy('cis-1.1-several-sources'))).toEqual(['ws-1']);
    expect(await hosts(policy('cis-1.1-cmdb'))).toEqual([]);
  });

  it('names no vendor slug in a starter policy: they ask the source categories and the connection count', () => {
    for (const starter of starterPolicies) expect(starter.query).not.toMatch(/\bAdapters\b|\bAdapterCount\b/);
  });
});
