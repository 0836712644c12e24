import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDiscoveryAndWait } from './discoveryFleet.js';
import { createUserWithGroups, engines, startTestServer, type TestServer } from './harness.js';
import { addServiceLicenseConnections } from './serviceLicenseFixtures.js';
import { addSoftwareConnections } from './softwareFixtures.js';

type Row = Record<string, unknown[]>;
type Discovery = { id: number; progress: { connections: { name: string; state: string; error: string; warnings: string[] }[]; assets: Record<string, number> } };

describe.each(engines)('service and license inventories on %s', (engine) => {
  let server: TestServer;
  let token: string;
  let discovery: Discovery;
  const post = (url: string, body: object, as = token) => server.request('POST', url, { token: as, body });
  const get = (url: string, as = token) => server.request('GET', url, { token: as });
  const byName = async (path: string, query = '') => {
    const answer = await post(path, { query, size: 100, ordering: [{ field: 'Name', order: 'asc' }] });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return Object.fromEntries((answer.body.results as Row[]).map((row) => [String(row.Name[0]), row]));
  };
  const deviceId = async (hostname: string) => (await post('/devices/devices', { query: `Hostname = "${hostname}"`, fields: ['Hostname'] })).body.results[0].PrimaryKey[0] as string;

  beforeAll(async () => {
    server = await startTestServer(engine);
    token = server.adminToken;
    await addSoftwareConnections(server.context.db);
    await addServiceLicenseConnections(server.context.db);
    discovery = await runDiscoveryAndWait(server);
  });
  afterAll(() => server.stop());

  it('folds services by name, links each place to its device, and warns of what it could not read', async () => {
    expect(discovery.progress.assets).toMatchObject({ service: 5, license: 6 });
    const connections = Object.fromEntries(discovery.progress.connections.map((connection) => [connection.name, connection]));
    expect(connections['EDR services'].warnings).toEqual(expect.arrayContaining([
      expect.stringMatching(/^1 service records matched no device/), expect.stringMatching(/^1 service records without a service name were skipped/),
      expect.stringMatching(/^1 service ports that are no port number \(0–65535\) were left out \(first: 99999\)/),
    ]));
    expect(connections['Scanner open ports'].state).toBe('done');
    const services = await byName('/services/services');
    expect(Object.keys(services).sort()).toEqual(['Spooler', 'payments-api', 'postgresql', 'ssh', 'sshd']);
    expect(services.sshd).toMatchObject({ Kinds: ['system'], Ports: [22], States: ['running', 'stopped'], StartTypes: ['automatic', 'disabled'], Accounts: ['root'], DeviceCount: [2], RunningCount: [1], InstanceCount: [3] });
    expect(services.ssh).toMatchObject({ Kinds: ['network'], Ports: [22], Protocols: ['tcp'], Products: ['OpenSSH 9.2p1'], States: ['listening'], DeviceCount: [2] });
    expect(services['payments-api']).toMatchObject({ Kinds: ['cloud'], Ports: [443], DeviceCount: [0], InstanceCount: [1] });
    expect(services.Spooler).toMatchObject({ DisplayName: ['Print Spooler'], States: ['running'], StartTypes: ['automatic'], Accounts: ['LocalSystem'] });
    expect(services.postgresql.Ports).toBeUndefined();
  });

  it('answers queries, sorts, details, the places a service runs, a device\'s services and exports', async () => {
    expect(Object.keys(await byName('/services/services', 'Ports = 22')).sort()).toEqual(['ssh', 'sshd']);
    expect(Object.keys(await byName('/services/services', 'States = stopped OR Kinds = cloud')).sort()).toEqual(['payments-api', 'sshd']);
    // Devices and services reach each other through the places a service runs, conditions of one group holding for one place.
    const hostnames = async (query: string) => ((await post('/devices/devices', { query, fields: ['Hostname'] })).body.results as Row[]).map((row) => String(row.Hostname[0])).sort();
    expect(await hostnames('Service.Name = sshd AND Service.State = stopped')).toEqual(['srv-0003']);
    expect(await hostnames('Service.Name = ssh AND Service.Port = 22')).toEqual(['srv-0003', 'ws-0002']);
    expect(await hostnames('NOT Service.Name = sshd')).toEqual(['WS-0001']);
    expect(Object.keys(await byName('/services/services', 'Device.Hostname = srv-0003')).sort()).toEqual(['postgresql', 'ssh', 'sshd']);
    expect(Object.keys(await byName('/services/services', 'Instance.Account = LocalSystem'))).toEqual(['Spooler']);
    const sorted = await post('/services/services', { fields: ['Name', 'DeviceCount'], ordering: [{ field: 'DeviceCount', order: 'desc' }] });
    expect(sorted.body.results.map((row: Row) => row.DeviceCount[0])).toEqual([2, 2, 1, 1, 0]);

    const sshd = (await byName('/services/services')).sshd.PrimaryKey[0] as string;
    const detail = await post(`/services/services/${sshd}`, {});
    expect(detail.body).toMatchObject({ Name: ['sshd'], PrimaryKey: [sshd], index_id: discovery.id });
    expect(detail.body.sources).toBeUndefined();
    expect((await post('/services/services/SSHD', {})).body.PrimaryKey).toEqual([sshd]);
    expect((await post('/services/services/no-such-service', {})).status).toBe(404);
    const places = await get(`/services/instances?service=${sshd}`);
    expect(places.body.count).toBe(3);
    expect(places.body.results.map((row: Record<string, unknown>) => [row.hostname, row.state, row.start_type, row.account, row.port])).toEqual([
      ['srv-0003', 'stopped', 'disabled', 'root', null], ['ws-0002', 'running', 'automatic', 'root', 22], [null, 'running', null, null, null],
    ]);

    const server3 = await deviceId('srv-0003');
    const panel = await get(`/services/instances?device=${server3}`);
    expect(panel.body.results.map((row: Record<string, unknown>) => [row.service_name, row.port, row.protocol, row.state, row.adapters])).toEqual([
      ['postgresql', null, null, 'running', ['jsonfile']], ['ssh', 22, 'tcp', 'listening', ['jsonfile']], ['sshd', null, null, 'stopped', ['jsonfile']],
    ]);
    expect(panel.body.results[1]).toMatchObject({ product: 'OpenSSH', version: '9.2p1', banner: 'SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3', device_id: server3 });
    expect((await get(`/services/instances?device=${server3}&search=postgres`)).body.count).toBe(1);

    const exported = await post('/services/export', { format: 'csv', fields: ['Name', 'Ports', 'DeviceCount'], ordering: [{ field: 'DeviceCount' }] });
    expect(exported.status).toBe(200);
    expect(exported.headers['content-disposition']).toMatch(/^attachment; filename="services-.*\.csv"$/);
    expect(String(exported.body).split('\r\n').slice(0, 2)).toEqual(['\ufeffName,Ports,Device count', 'payments-api,443,0']);
    expect(String(exported.body)).toContain('\r\npostgresql,,1\r\n');
  });

  it('counts each license\'s seats bought, used, free and over-use from installations, assignments and what sources report', async () => {
    const warnings = discovery.progress.connections.find((connection) => connection.name === 'Contracts (CSV)')!.warnings;
    expect(warnings).toEqual(expect.arrayContaining([
      expect.stringMatching(/^1 license SeatsPurchased values that are no number from 0 to 10,000,000 were left out \(first: lots\)|^2 license SeatsPurchased values/),
      expect.stringMatching(/license Cost values that are no number .* \(first: 12,5\)/),
      expect.stringMatching(/^1 license ExpirationDate values that are no date were left out \(first: 2027-02-30\)/),
    ]));
    const licenses = await byName('/licenses/licenses');
    expect(Object.keys(licenses).sort()).toEqual(['7-Zip Site', 'Chrome Enterprise', 'Huge plan', 'Microsoft 365 E3', 'Orphan', 'Support plan']);
    const chrome = (await byName('/appinventory/applications', 'Name = "Google Chrome"'))['Google Chrome'].PrimaryKey[0];
    expect(licenses['Chrome Enterprise']).toMatchObject({
      Vendor: ['Google'], SoftwareId: [chrome], SeatsPurchased: [1], SeatsUsed: [2], SeatsFree: [0], OverUse: [1], OverUsed: [true], InstalledDevices: [2], Cost: [1250.5], Currency: ['EUR'], ExpirationDate: ['2027-01-31T00:00:00.000Z'],
    });
    // Two purchases in one source add up; the XLSX's 12 for the same license is the same purchase seen elsewhere.
    expect(licenses['7-Zip Site']).toMatchObject({ SeatsPurchased: [15], SeatsUsed: [1], SeatsFree: [14], OverUse: [0], OverUsed: [false], Cost: [100], ExpirationDate: ['2026-12-31T00:00:00.000Z'], AdapterCount: [2] });
    expect(licenses['Support plan']).toMatchObject({ AssignedUsers: [3], SeatsUsed: [3] });
    expect(licenses['Support plan'].SeatsPurchased).toBeUndefined();
    expect(licenses['Support plan'].ExpirationDate).toBeUndefined();
    expect(licenses['Huge plan'].SeatsPurchased).toBeUndefined();
    expect(licenses['Microsoft 365 E3']).toMatchObject({ Sku: ['sku-e3'], SeatsPurchased: [1], ReportedUsed: [1], AssignedUsers: [1], SeatsUsed: [1], SeatsFree: [0] });
    expect(licenses.Orphan).toMatchObject({ SoftwareName: ['Orphan'], SeatsPurchased: [3], SeatsUsed: [0], SeatsFree: [3] });

    expect(Object.keys(await byName('/licenses/licenses', 'OverUse > 0'))).toEqual(['Chrome Enterprise']);
    const overUsed = await post('/licenses/licenses', { fields: ['Name', 'OverUse'], ordering: [{ field: 'OverUse', order: 'desc' }], size: 1 });
    expect(overUsed.body.results[0].Name).toEqual(['Chrome Enterprise']);

    const support = licenses['Support plan'].PrimaryKey[0] as string;
    const assignments = await get(`/licenses/assignments?license=${support}`);
    expect(assignments.body.results.map((row: Record<string, unknown>) => [row.reported_name, row.username, Boolean(row.user_id)])).toEqual([
      ['alice', 'alice', true], ['bob', 'bob', true], ['carol', null, false],
    ]);
    const sevenZip = await post(`/licenses/licenses/${licenses['7-Zip Site'].PrimaryKey[0]}`, {});
    expect(sevenZip.body.sources.map((source: { connection_name: string; fields: Row }) => [source.connection_name, source.fields.SeatsPurchased[0]])).toEqual([
      ['Contracts (CSV)', '10'], ['Contracts (CSV)', '5'], ['Entitlements (XLSX)', 12],
    ]);
    const exported = await post('/licenses/export', { format: 'xlsx', fields: ['Name', 'SeatsPurchased', 'SeatsUsed', 'OverUse'], query: 'OverUse > 0' });
    expect(exported.status).toBe(200);
    expect(exported.headers['content-type']).toMatch(/spreadsheetml/);
  });

  it('refuses bad input with field errors and keeps to permissions', async () => {
    const refused = async (answer: Promise<{ status: number; body: Record<string, unknown> }>, field: string) => {
      const { status, body } = await answer;
      expect(status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(body)).toContain(field);
    };
    await refused(get('/services/instances?size=100000'), 'size');
    await refused(get('/services/instances?device=not-an-asset-id'), 'device');
    await refused(get(`/licenses/assignments?search=${'x'.repeat(201)}`), 'search');
    await refused(get('/licenses/assignments?page=0'), 'page');
    // An id longer than any path parameter the server takes is refused before it reaches the route.
    expect((await post(`/services/services/${'s'.repeat(256)}`, {})).status).toBe(414);
    await refused(post('/licenses/licenses', { size: 1_000_000_000 }), 'size');
    await refused(post('/licenses/licenses', { query: 'SeatsUsed > ' }), 'query');
    await refused(post('/licenses/export', { format: 'pdf', fields: ['Name'] }), 'format');
    await refused(post('/services/services', { index_id: 99_999_999_999 }), 'index_id');

    const nobody = await createUserWithGroups(server, token, 'no-inventories', []);
    for (const [method, url] of [['POST', '/services/services'], ['POST', '/licenses/licenses'], ['GET', '/services/instances'], ['GET', '/licenses/assignments']]) {
      expect((await server.request(method as 'GET', url, { token: nobody.token, body: method === 'POST' ? {} : undefined })).status, url).toBe(403);
    }
  });
});
