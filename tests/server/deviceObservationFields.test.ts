import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDiscoveryAndWait } from './discoveryFleet.js';
import { engines, startTestServer, type TestServer } from './harness.js';
import { addServiceLicenseConnections } from './serviceLicenseFixtures.js';
import { addSoftwareConnections } from './softwareFixtures.js';

// A device's "Installed software", "CVE IDs" and "Open ports" columns hold what its detail lists: the software
// installed on it, the CVEs of its open findings and the ports its services listen on, filled at the publish from
// the installations, findings and service instances, so lists, queries, sorting and exports show them.

const columns = ['PrimaryKey', 'Hostname', 'InstalledSoftware.SoftwareName', 'VulnerableSoftware.CveId', 'OpenPorts.PortNumber'];
type Row = Record<string, unknown[] | undefined>;

describe.each(engines)('the device columns of installed software, CVEs and open ports on %s', (engine) => {
  let server: TestServer;
  const post = (url: string, body: object) => server.request('POST', url, { token: server.adminToken, body });
  const get = (url: string) => server.request('GET', url, { token: server.adminToken });
  const hostnames = async (query: string, ordering?: object[]) =>
    ((await post('/devices/devices', { query, fields: ['Hostname'], ordering: ordering ?? [{ field: 'Hostname' }] })).body.results as Row[]).map((row) => row.Hostname![0]);

  beforeAll(async () => {
    server = await startTestServer(engine);
    await addSoftwareConnections(server.context.db);
    await addServiceLicenseConnections(server.context.db);
    await runDiscoveryAndWait(server);
  });
  afterAll(() => server.stop());

  it('lists on each device what its detail lists', async () => {
    const devices = (await post('/devices/devices', { fields: columns, ordering: [{ field: 'Hostname' }] })).body.results as Row[];
    const byHost = Object.fromEntries(devices.map((row) => [row.Hostname![0], [row['VulnerableSoftware.CveId'] ?? [], row['OpenPorts.PortNumber'] ?? []]]));
    expect(byHost).toEqual({ 'srv-0003': [[], [22]], 'ws-0002': [['CVE-2024-3094'], [22]], 'WS-0001': [['CVE-2024-0001'], []] });
    for (const device of devices) {
      const id = device.PrimaryKey![0];
      const installed = (await get(`/appinventory/installations?device=${id}&size=100`)).body.results as { software_name: string }[];
      expect([...(device['InstalledSoftware.SoftwareName'] ?? [])].sort(), String(device.Hostname)).toEqual([...new Set(installed.map((row) => row.software_name))].sort());
      expect(installed.length, String(device.Hostname)).toBeGreaterThan(0);
    }
  });

  it('answers queries, sorts and exports by them', async () => {
    expect(await hostnames('OpenPorts.PortNumber = 22')).toEqual(expect.arrayContaining(['srv-0003', 'ws-0002']));
    expect(await hostnames('OpenPorts.PortNumber = 22')).toHaveLength(2);
    expect(await hostnames('VulnerableSoftware.CveId = CVE-2024-3094')).toEqual(['ws-0002']);
    expect(await hostnames('InstalledSoftware.SoftwareName = openssl')).toEqual(expect.arrayContaining(['srv-0003', 'ws-0002']));
    expect(await hostnames('VulnerableSoftware.CveId = *', [{ field: 'VulnerableSoftware.CveId', order: 'desc' }])).toEqual(['ws-0002', 'WS-0001']);
    expect(await hostnames('VulnerableSoftware.CveId = *', [{ field: 'VulnerableSoftware.CveId', order: 'asc' }])).toEqual(['WS-0001', 'ws-0002']);
    const exported = await post('/devices/export', { format: 'csv', fields: ['Hostname', 'VulnerableSoftware.CveId', 'OpenPorts.PortNumber'], query: 'Hostname = ws-0002' });
    expect(exported.status).toBe(200);
    expect(String(exported.body).split('\r\n')[1]).toBe('ws-0002,CVE-2024-3094,22');
  });
});
