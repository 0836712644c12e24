import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchEngines } from '../../../../src/server/adapters/engines.js';
import { createFileEngines } from '../../../../src/server/adapters/files/fileEngines.js';
import { createAdapterRuntime } from '../../../../src/server/adapters/runtime.js';
import { writeDemoCsvExports } from '../../../../src/server/demo/csvExports.js';
import { startTestServer, type TestServer } from '../../harness.js';

describe('the demo CSV exports', () => {
  let server: TestServer;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cartograph-demo-'));
    server = await startTestServer('pglite', {}, { adapters: createAdapterRuntime({ ...fetchEngines, ...createFileEngines({ dataDir, importRoots: [] }) }), dataDir });
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes seven sources\' exports with their own headers, creates their connections once, and a discovery correlates them', async () => {
    const written = await writeDemoCsvExports(server.context, 1, { devices: 300, seed: 7 });
    expect(written.map((item) => [item.entity, item.created])).toEqual([
      ...Array(6).fill(['device', true]), ...Array(4).fill(['user', true]), ...Array(2).fill(['software', true]), ['vulnerability', true], ['service', true], ['vulnerability', true],
      ...Array(2).fill(['service', true]), ['license', true], ['certificate', true],
    ]);
    const again = await writeDemoCsvExports(server.context, 1, { devices: 300, seed: 7 });
    expect(again.every((item) => !item.created)).toBe(true);

    const connections = await server.request('GET', '/adapters/connections?adapter=csvfile&size=100', { token: server.adminToken });
    expect(connections.body.count).toBe(19);
    const edr = connections.body.results.find((item: { name: string }) => item.name === 'EDR hosts (CSV export)');
    const source = edr.option_connections.find((option: { name: string }) => option.name === 'source').typed_value;
    expect(readFileSync(join(dataDir, source.file), 'utf8').split('\r\n')[0]).toBe('hostname,machine_domain,serial_number,device_id,mac_address,local_ip,platform_name,os_version,os_build,last_seen,last_login_user');

    await server.request('POST', '/discoveries/discoveries', { token: server.adminToken });
    let last: { status: number; progress: { connections: { name: string; state: string; records: number; warning_count: number }[]; assets: Record<string, number> } } | null = null;
    for (let attempt = 0; attempt < 600 && (!last || last.status === 1); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      last = (await server.request('GET', '/discoveries/last', { token: server.adminToken })).body;
    }
    // No warning: every installed software and every finding names a device the discovery knows.
    for (const item of last!.progress.connections) expect([item.name, item.state, item.warning_count]).toEqual([item.name, 'done', 0]);
    const rowsByName = new Map(written.map((item) => [item.name, item.rows]));
    for (const item of last!.progress.connections) expect(item.records, item.name).toBe(rowsByName.get(item.name));
    // ~300 machines reported by up to five sources each (and a few switches), and ~150 people by up to four: merged, not summed.
    expect(last!.progress.assets.device).toBeGreaterThan(280);
    expect(last!.progress.assets.device).toBeLessThan(360);
    expect(last!.progress.assets.user).toBeGreaterThan(140);
    expect(last!.progress.assets.user).toBeLessThan(200);
    expect(last!.progress.assets.software).toBeGreaterThan(40);
    expect(last!.progress.assets.vulnerability).toBe(16);
    // Certificates: every expiry status, one self-signed, one weak; the wildcard is one certificate with many places.
    const certificates = await server.request('POST', '/certificates/certificates', { token: server.adminToken, body: { fields: ['Name', 'ExpiryStatus', 'EndpointCount', 'DeviceCount', 'Weak', 'SelfSigned'], size: 100 } });
    expect(certificates.body.count).toBe(last!.progress.assets.certificate);
    const statuses = new Set(certificates.body.results.map((row: { ExpiryStatus: string[] }) => row.ExpiryStatus[0]));
    expect(statuses).toEqual(new Set(['Expired', 'Expires within 30 days', 'Expires within 90 days', 'Valid']));
    const byName = (name: string) => certificates.body.results.find((row: { Name: string[] }) => row.Name[0] === name);
    expect(byName('*.corp.example.com').EndpointCount[0]).toBeGreaterThan(1);
    expect(byName('*.corp.example.com').DeviceCount[0]).toBe(byName('*.corp.example.com').EndpointCount[0]);
    expect(byName('printers.corp.example.com').Weak).toEqual([true]);
    expect(certificates.body.results.filter((row: { SelfSigned?: boolean[] }) => row.SelfSigned?.[0] === true)).toHaveLength(1);
    const merged = await server.request('POST', '/devices/devices', { token: server.adminToken, body: { query: 'AdapterCount >= 1', fields: ['Hostname', 'SerialNumber', 'AgentId'], size: 1 } });
    expect(merged.status).toBe(200);
  });
});
