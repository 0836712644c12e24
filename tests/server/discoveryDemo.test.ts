import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterEngine } from '../../src/server/adapters/engine.js';
import { createFileEngines } from '../../src/server/adapters/files/fileEngines.js';
import { createAdapterRuntime } from '../../src/server/adapters/runtime.js';
import { loadDemoOnStart } from '../../src/server/demo/demoDataset.js';
import { rescoreLatestSnapshot } from '../../src/server/security/rescore.js';
import { waitForDiscoveries } from './discoveryFleet.js';
import { engines, startTestServer, type TestServer } from './harness.js';

// The demo reads its CSV exports through the real CSV file engine, from this test's own data folder.
describe.each(engines)('the demo data set on %s', (engine) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cartograph-demo-'));
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine, {}, { dataDir, adapters: createAdapterRuntime(createFileEngines({ dataDir, importRoots: [] })) });
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
    expect(started.body.connections).toHaveLength(19);
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
    // Every export goes through the one CSV adapter and names the system it was exported from: a laptop in all five
    // of its device exports counts five connections and the five exporters as its adapters, and its detail names each.
    const everywhere = await server.request('POST', '/devices/devices', { token, body: { query: 'ConnectionCount = 5 AND Adapters = microsoft-intune', size: 1, fields: ['Adapters', 'AdapterCount', 'SourceCategories'] } });
    expect(everywhere.body.count).toBeGreaterThan(50);
    expect(everywhere.body.results[0]).toMatchObject({ Adapters: ['active-directory', 'crowdstrike', 'microsoft-intune', 'qualys', 'servicenow'], AdapterCount: [5] });
    expect(everywhere.body.results[0].SourceCategories).toEqual(expect.arrayContaining(['ad', 'edr', 'mdm', 'vulnerability_management', 'cmdb']));
    const detail = await server.request('POST', `/devices/devices/${everywhere.body.results[0].PrimaryKey[0]}`, { token, body: {} });
    expect(new Set(detail.body.sources.map((source: { connection_name: string }) => source.connection_name))).toEqual(
      new Set(['Directory computers (CSV export)', 'EDR hosts (CSV export)', 'MDM devices (CSV export)', 'Vulnerability scanner assets (CSV export)', 'CMDB configuration items (CSV export)']),
    );
    // The exports write OS strings and manufacturers as their systems do ("Windows 10 Enterprise 22H2 10.0.19045",
    // "Darwin 23.4.0", "Dell Inc.", "DELL"): normalization makes one slice per OS and one name per maker.
    const count = async (query: string) => (await server.request('POST', '/devices/devices', { token, body: { query, size: 1 } })).body.count as number;
    const withOs = await count('OS.Type = *');
    expect(withOs).toBeGreaterThan(1900);
    const [windows, macos, linux] = [await count('OS.Type = Windows'), await count('OS.Type = macOS'), await count('OS.Type = Linux')];
    expect([windows > 0, macos > 0, linux > 0, windows + macos + linux]).toEqual([true, true, true, withOs]);
    expect(await count('DeviceManufacturer = Dell')).toBeGreaterThan(0);
    expect(await count('DeviceManufacturer = "Dell Inc." OR DeviceManufacturer = Hewlett-Packard OR DeviceManufacturer = "VMware, Inc."')).toBe(0);
    // Hardware agrees with the OS in every source: no Mac runs Windows, no Dell runs macOS.
    expect(await count('DeviceManufacturer = Apple AND OS.Type = Windows')).toBe(0);
    expect(await count('DeviceModel = "MacBook Pro" AND OS.Type = * AND NOT OS.Type = macOS')).toBe(0);
    expect(await count('OS.Type = macOS AND NOT DeviceManufacturer = Apple AND DeviceManufacturer = *')).toBe(0);
    // A few machines were left behind on releases past their end of life, which the lifecycle feed marks unsupported
    // (tests/unit/demoFleet.test.ts counts them on a fixed day); RHEL 9 is supported until 2032.
    const leftBehind = 'OS.Distribution = "Windows 10" OR OS.Distribution = CentOS OR (OS.Distribution = Ubuntu AND OS.Version = 18.04*)';
    expect(await count(leftBehind)).toBeGreaterThan(40);
    expect(await count(`(${leftBehind}) AND OS.Supported = false`)).toBe(await count(leftBehind));
    expect(await count('OS.Distribution = RHEL AND NOT OS.Supported = true')).toBe(0);
    expect((await server.request('GET', '/devices/merge-recommendations', { token })).body.count).toBeGreaterThan(0);
    expect((await server.request('GET', '/devices/relations?kind=device-user&size=1', { token })).body.count).toBeGreaterThan(100);

    expect((await server.request('GET', '/discoveries/demo', { token })).body).toEqual({ available: false });
    expect(await server.request('POST', '/discoveries/demo', { token })).toMatchObject({ status: 409, body: { code: 'demo_unavailable' } });
    expect(await loadDemoOnStart(server.context, { CARTOGRAPH_DEMO: '1' })).toBeNull();
  }, 240_000);

  it('finds leavers whose account is still enabled: the HR export joined to the directory by employee id and email', async () => {
    const token = server.adminToken;
    const users = async (query: string) => (await server.request('POST', '/userinventory/users', { token, body: { query, size: 50, fields: ['Adapters', 'Employment.Status', 'Enabled'] } })).body;
    const leavers = await users('Employment.Status = terminated');
    expect(leavers.count).toBeGreaterThan(20);
    const stillActive = await users('Employment.Status = terminated AND Enabled = true');
    expect(stillActive.count).toBeGreaterThanOrEqual(3);
    expect(stillActive.count).toBeLessThan(leavers.count / 2);
    for (const row of stillActive.results) expect(row.Adapters).toEqual(expect.arrayContaining(['active-directory', 'bamboohr']));
    // The demo switches the starter policy on users on: its first discovery lists exactly these users as failing it.
    const policies = (await server.request('GET', '/securitymanager/security-policies?search=Leavers', { token })).body.results as { name: string; inventory: string; enabled: boolean; last_result: object | null }[];
    expect(policies).toEqual([expect.objectContaining({ name: 'Leavers with an active account', inventory: 'user', enabled: true, last_result: expect.objectContaining({ failed: stillActive.count, error: null }) })]);
    const failing = await users('FailedPolicies = "Leavers with an active account"');
    expect(failing.count).toBe(stillActive.count);
    // The query ships as a starter saved query of the user inventory too.
    const saved = (await server.request('GET', '/queries/queries?size=100', { token })).body.results as { name: string; text: string; type: string }[];
    expect(saved).toContainEqual(expect.objectContaining({ name: 'Leavers with an active account', text: 'Employment.Status = terminated AND Enabled = true', type: 'user' }));
  }, 60_000);

  it('maps a wired machine to its switch (port and VLAN), and the switch to its neighbours', async () => {
    const token = server.adminToken;
    const wired = (await server.request('POST', '/devices/devices', { token, body: { query: 'ConnectedSwitch = * AND LastUsedUsers = *', size: 1, fields: ['Hostname', 'ConnectedSwitch', 'SwitchPort', 'Vlan'] } })).body.results[0];
    const map = await server.request('GET', `/devices/dependency-map?device=${wired.PrimaryKey[0]}`, { token });
    expect(map.status).toBe(200);
    const uplink = map.body.links.find((link: { relation: string }) => link.relation === 'plugged into switch');
    expect(uplink).toMatchObject({ direction: 'out', port: wired.SwitchPort[0], vlan: wired.Vlan[0], node: { entity: 'device', name: wired.ConnectedSwitch[0], id: expect.any(String) } });
    expect(map.body.links.some((link: { node: { entity: string } }) => link.node.entity === 'user')).toBe(true);
    expect(map.body.software.length).toBeGreaterThan(0);
    const switchMap = (await server.request('GET', `/devices/dependency-map?device=${uplink.node.id}`, { token })).body;
    expect(switchMap.device.name).toBe(wired.ConnectedSwitch[0]);
    expect(switchMap.links.filter((link: { direction: string }) => link.direction === 'in').length).toBeGreaterThan(5);
    expect(switchMap.more.neighbours).toBeGreaterThan(0);
    expect((await server.request('GET', '/devices/dependency-map', { token })).status).toBe(400);
    expect((await server.request('GET', '/devices/dependency-map?device=nope', { token })).status).toBe(404);
  }, 60_000);

  it('scores the demo with the starter policies: each source-category policy passes some devices and fails others', async () => {
    const token = server.adminToken;
    expect((await server.request('POST', '/securitymanager/security-policies/starter', { token, body: { enable: true } })).status).toBe(200);
    await rescoreLatestSnapshot(server.context.db, 1);
    const policies = (await server.request('GET', '/securitymanager/security-policies?size=100', { token })).body.results as { starter_id: string; last_result: { applicable: number; failed: number; error: string | null } }[];
    const outcome = (starterId: string) => policies.find((policy) => policy.starter_id === starterId)!.last_result;
    for (const starterId of ['cis-1.1-several-sources', 'cis-1.1-cmdb', 'cis-1.2-directory', 'cis-4.1-managed', 'cis-7.3-os-patching', 'cis-7.5-scanned', 'cis-10.1-anti-malware', 'cis-3.6-disk-encryption']) {
      const { applicable, failed, error } = outcome(starterId);
      expect([starterId, error, failed > 0, failed < applicable]).toEqual([starterId, null, true, true]);
    }
    // Scores spread over the fleet rather than sitting at one value for every device.
    const extreme = async (order: 'asc' | 'desc') =>
      (await server.request('POST', '/devices/devices', { token, body: { size: 1, fields: ['SecurityScore'], ordering: [{ field: 'SecurityScore', order }] } })).body.results[0].SecurityScore[0] as number;
    const [lowest, highest] = [await extreme('asc'), await extreme('desc')];
    expect(highest - lowest).toBeGreaterThan(30);
  }, 240_000);

  it('publishes the installed software of the EDR and MDM exports, folded into one entry per product', async () => {
    const post = (url: string, body: unknown) => server.request('POST', url, { token: server.adminToken, body });
    const software = await post('/appinventory/applications', { size: 1 });
    expect(software.body.count).toBeGreaterThan(60);
    expect(software.body.count).toBeLessThan(120);
    const installations = await server.request('GET', '/appinventory/installations?size=1', { token: server.adminToken });
    expect(installations.body.count).toBeGreaterThan(30_000);
    // The EDR's "Microsoft Corporation" and the MDM's "Microsoft", with and without the locale, are one product.
    const office = await post('/appinventory/applications', { query: 'Name = "Microsoft 365 Apps for enterprise"', fields: ['ReportedVendors', 'Connections'] });
    expect(office.body.count).toBe(1);
    expect(office.body.results[0].ReportedVendors).toEqual(expect.arrayContaining(['Microsoft Corporation', 'Microsoft']));
    expect(office.body.results[0].Connections).toHaveLength(2);
    // Ubuntu's and Red Hat's openssh-server are two products; their Debian and RPM versions stay as written.
    const openssh = await post('/appinventory/applications', { query: 'Name = openssh-server', fields: ['Vendor', 'Versions'], ordering: [{ field: 'Vendor' }] });
    expect(openssh.body.results.map((row: { Vendor: string[]; Versions: string[] }) => [row.Vendor[0], row.Versions[0]])).toEqual([['Red Hat', '8.7p1-38.el9_4.1'], ['Ubuntu', '1:8.9p1-3ubuntu0.10']]);
    const safari = await post('/appinventory/applications/safari', {});
    expect(safari.body.versions.map((row: { version: string }) => row.version)).toContain('17.2.1 (19617.1.17.11.12)');
    // A software's vulnerability count is the length of its own vulnerabilities tab, in the list, the detail and queries.
    const counted = await post('/appinventory/applications', { size: 200, fields: ['Name', 'VulnerabilityCount'] });
    let vulnerable = 0;
    for (const row of counted.body.results as { PrimaryKey: string[]; Name: string[]; VulnerabilityCount: number[] }[]) {
      const detail = await post(`/appinventory/applications/${row.PrimaryKey[0]}`, {});
      expect([row.Name[0], row.VulnerabilityCount[0], detail.body.VulnerabilityCount[0]]).toEqual([row.Name[0], detail.body.vulnerabilities.length, detail.body.vulnerabilities.length]);
      if (detail.body.vulnerabilities.length) vulnerable += 1;
    }
    expect(vulnerable).toBeGreaterThan(0);
    expect((await post('/appinventory/applications', { query: 'VulnerabilityCount > 0', size: 1 })).body.count).toBe(vulnerable);
  }, 120_000);

  it('publishes the scanner\'s and the EDR\'s findings, a CVE both report on one machine merged into one finding', async () => {
    const token = server.adminToken;
    const post = (url: string, body: unknown) => server.request('POST', url, { token, body });
    const vulnerabilities = await post('/avm/vulnerabilities', { size: 100, fields: ['CveId', 'VendorVulnerabilityIds'] });
    expect(vulnerabilities.body.count).toBe(16);
    const log4shell = await post('/avm/vulnerabilities/CVE-2021-44228', {});
    expect(log4shell.body).toMatchObject({ Severity: ['Critical'], Score: [10], Cvss3Vector: ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H'], ExploitKnown: [true] });
    expect(log4shell.body.AffectedDeviceCount[0]).toBeGreaterThan(20);
    const exposed = await server.request('GET', `/avm/findings?vulnerability=${log4shell.body.PrimaryKey[0]}&size=500`, { token });
    expect(exposed.body.count).toBe(log4shell.body.AffectedDeviceCount[0]);
    for (const finding of exposed.body.results) expect(finding.hostname).toMatch(/^(srv|vm)-/);
    // Both sources saw Log4Shell on some machines: one finding each, keeping both sources.
    const bothSources = exposed.body.results.filter((finding: { sources: { connection_id: number }[] }) => new Set(finding.sources.map((source) => source.connection_id)).size === 2);
    expect(bothSources.length).toBeGreaterThan(0);
    const critical = await post('/devices/devices', { query: 'Vulnerability.Severity = Critical', size: 1 });
    expect(critical.body.count).toBeGreaterThan(100);
  }, 120_000);

  it('matches the Ubuntu servers\' openssh by the bundled notice USN-6859-1: the unfixed ones are findings, the backported fix is not, and says why', async () => {
    const token = server.adminToken;
    const regresshion = await server.request('POST', '/avm/vulnerabilities/CVE-2024-6387', { token, body: {} });
    // NVD's range (OpenSSH 8.5p1 up to 9.8p1) takes in 8.9p1; Ubuntu's fix is 1:8.9p1-3ubuntu0.10, and it says so.
    expect(regresshion.body.FixedPackages).toEqual([expect.stringMatching(/^Ubuntu USN-6859-1: fixed in 1:8\.9p1-3ubuntu0\.10; installed 1:8\.9p1-3ubuntu0\.10 has the fix \(openssh on Ubuntu:22\.04:LTS\)\. \d+ installations\.$/)]);
    const findings = (await server.request('GET', `/avm/findings?vulnerability=${regresshion.body.PrimaryKey[0]}&size=500`, { token })).body.results as { hostname: string; sources: { adapter: string; evidence: string | null }[] }[];
    const matched = findings.filter((finding) => finding.sources.some((source) => source.adapter === 'cartograph-avm'));
    expect(matched.length).toBeGreaterThan(10);
    for (const finding of matched) {
      expect(finding.hostname).toMatch(/^srv-/);
      expect(finding.sources.find((source) => source.adapter === 'cartograph-avm')?.evidence).toMatch(/^Ubuntu USN-6859-1: fixed in 1:8\.9p1-3ubuntu0\.10; installed 1:8\.9p1-3ubuntu0\.[46] is earlier \(openssh on Ubuntu:22\.04:LTS\)\.$/);
      // The EDR reported the same vulnerability on the same server: one finding keeps both sources.
      expect(finding.sources.map((source) => source.adapter)).toContain('crowdstrike');
    }
    // No server whose openssh is Ubuntu's fix has the finding.
    const [{ fixedWithFinding, fixedServers }] = await server.context.db.query<{ fixedWithFinding: number; fixedServers: number }>(
      `with latest as (select max(discovery_id) as id from snapshot_installations),
            fixed as (select distinct i.device_asset from snapshot_installations i, latest where i.discovery_id = latest.id and i.software_name = 'openssh-server' and i.version = '1:8.9p1-3ubuntu0.10')
       select (select count(*)::int from fixed) as "fixedServers",
              (select count(*)::int from snapshot_findings f, latest where f.discovery_id = latest.id and f.cve_id = 'CVE-2024-6387' and f.device_asset in (select device_asset from fixed)) as "fixedWithFinding"`,
    );
    expect([fixedServers > 10, fixedWithFinding]).toEqual([true, 0]);
  }, 60_000);

  it('publishes the services of the EDR, the scanner and the CMDB, and the contracts with one license over-used', async () => {
    const token = server.adminToken;
    const post = (url: string, body: unknown) => server.request('POST', url, { token, body });
    const services = await post('/services/services', { size: 100, fields: ['Name', 'Kinds', 'DeviceCount'] });
    const byName = Object.fromEntries(services.body.results.map((row: { Name: string[] }) => [row.Name[0], row]));
    expect(byName.WinDefend.DeviceCount[0]).toBeGreaterThan(500);
    expect(byName.ssh).toMatchObject({ Kinds: ['network'] });
    expect(byName['payments-api']).toMatchObject({ Kinds: ['cloud'], DeviceCount: [0] });
    const sshd = await post('/devices/devices', { query: 'Service.Name = "ssh.service" AND Service.State = running', size: 1 });
    expect(sshd.body.count).toBeGreaterThan(20);
    const licenses = await post('/licenses/licenses', { size: 100, fields: ['Name', 'SeatsPurchased', 'SeatsUsed', 'OverUse', 'SoftwareId', 'ExpirationDate'] });
    expect(licenses.body.count).toBe(5);
    const overUsed = licenses.body.results.filter((row: { OverUse?: number[] }) => (row.OverUse?.[0] ?? 0) > 0);
    expect(overUsed.map((row: { Name: string[] }) => row.Name[0])).toEqual(['Microsoft 365 E3']);
    // Every contract names a software of the inventory, so its installations are counted.
    for (const row of licenses.body.results) expect(row.SoftwareId, row.Name[0]).toHaveLength(1);
    const visio = licenses.body.results.find((row: { Name: string[] }) => row.Name[0] === 'Microsoft Visio Plan 2');
    const assignments = await server.request('GET', `/licenses/assignments?license=${visio.PrimaryKey[0]}&size=1`, { token });
    expect(assignments.body.count).toBeGreaterThan(20);
  }, 120_000);
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
      expect(count).toBe(19);
      const discoveries = await server.context.db.query<{ status: string }>('select status from discoveries');
      expect(discoveries).toHaveLength(1);
      expect(await loadDemoOnStart(server.context, { CARTOGRAPH_DEMO: '1' })).toBeNull();
      expect(await waitForDiscoveries(server)).toMatchObject({ state: 'done' });
    } finally {
      await server.stop();
    }
  }, 240_000);
});
