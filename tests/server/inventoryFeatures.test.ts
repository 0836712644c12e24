import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFleetConnections, fleetRuntime, runDiscoveryAndWait } from './discoveryFleet.js';
import { createUserWithGroups, engines, startTestServer, type TestServer } from './harness.js';

const { runtime } = fleetRuntime(300, 13);

describe.each(engines)('inventory tags, saved queries, exports and relations on %s', (engine) => {
  let server: TestServer;
  let token: string;
  const search = (body: object) => server.request('POST', '/devices/devices', { token, body });
  beforeAll(async () => {
    server = await startTestServer(engine, {}, { adapters: runtime });
    token = server.adminToken;
    await addFleetConnections(server);
    await runDiscoveryAndWait(server);
  });
  afterAll(() => server.stop());

  it('tags chosen devices and every device a query matches, and later discoveries keep the tags', async () => {
    const servers = await search({ query: 'Hostname = srv-*', size: 1000, fields: ['Hostname'] });
    const [first, second] = servers.body.results.map((row: { PrimaryKey: string[] }) => row.PrimaryKey[0]);
    const added = await server.request('POST', '/devices/tags/update', { token, body: { tags: ['pci-scope'], action: 'add', assets: [first, second] } });
    expect(added).toMatchObject({ status: 200, body: { devices: 2, tags: [{ name: 'pci-scope', id: expect.any(Number) }] } });
    expect((await search({ query: 'Tags = pci-scope', size: 10 })).body.count).toBe(2);

    const bulk = await server.request('POST', '/devices/tags/update', { token, body: { tags: ['servers', 'pci-scope'], action: 'add', query: 'Hostname = srv-*' } });
    expect(bulk.body.devices).toBe(servers.body.count);
    expect((await search({ query: 'Tags = servers', size: 1 })).body.count).toBe(servers.body.count);

    const tags = await server.request('GET', '/devices/tags?search=pci', { token });
    expect(tags.body.results).toEqual([expect.objectContaining({ name: 'pci-scope', device_count: servers.body.count })]);

    await runDiscoveryAndWait(server);
    expect((await search({ query: 'Tags = pci-scope', size: 1 })).body.count).toBe(servers.body.count);

    const removed = await server.request('POST', '/devices/tags/update', { token, body: { tags: ['pci-scope'], action: 'remove', assets: [first] } });
    expect(removed.body.devices).toBe(1);
    expect((await search({ query: 'Tags = pci-scope', size: 1 })).body.count).toBe(servers.body.count - 1);

    const renamed = await server.request('PATCH', `/devices/tags/${tags.body.results[0].id}`, { token, body: { name: 'cardholder-data' } });
    expect(renamed.status).toBe(200);
    expect((await search({ query: 'Tags = cardholder-data', size: 1 })).body.count).toBe(servers.body.count - 1);
    expect((await server.request('DELETE', `/devices/tags/${tags.body.results[0].id}`, { token })).status).toBe(204);
    expect((await search({ query: 'Tags = cardholder-data', size: 1 })).body.count).toBe(0);
    expect((await search({ query: 'Tags = servers', size: 1 })).body.count).toBe(servers.body.count);

    expect(await server.request('POST', '/devices/tags/update', { token, body: { tags: ['x'], action: 'remove', assets: [first] } })).toMatchObject({ status: 400, body: { tags: [expect.stringContaining('Unknown tag')] } });
    expect(await server.request('POST', '/devices/tags/update', { token, body: { tags: ['servers'], action: 'add', assets: ['no-such-device'] } })).toMatchObject({ status: 400, body: { assets: [expect.any(String)] } });
    expect(await server.request('POST', '/devices/tags', { token, body: { name: 'SERVERS' } })).toMatchObject({ status: 400, body: { name: [expect.stringContaining('already exists')] } });
  });

  it('stores saved queries that reuse others, refuses cycles and broken text, and keeps private ones private', async () => {
    const create = (body: object, as = token) => server.request('POST', '/queries/queries', { token: as, body });
    const windows = await create({ name: 'Windows', text: 'OS.Type = Windows', is_public: true });
    expect(windows).toMatchObject({ status: 201, body: { is_public: true, temporary: false, user_full_name: expect.any(String) } });
    const reuse = await create({ name: 'Windows without EDR', text: `Query is ${windows.body.id} AND NOT Adapters = crowdstrike`, is_public: true });
    expect(reuse.status).toBe(201);
    const viaSaved = await search({ query: `Query is ${reuse.body.id}`, size: 1 });
    const direct = await search({ query: 'OS.Type = Windows AND NOT Adapters = crowdstrike', size: 1 });
    expect(viaSaved.body.count).toBe(direct.body.count);

    const cycle = await server.request('PUT', `/queries/queries/${windows.body.id}`, { token, body: { name: 'Windows', text: `Query is ${reuse.body.id}`, is_public: true } });
    expect(cycle).toMatchObject({ status: 400, body: { text: [expect.stringContaining('refers to itself')] } });
    expect(await server.request('PATCH', `/queries/queries/${windows.body.id}`, { token, body: { text: `Query is ${windows.body.id}` } })).toMatchObject({ status: 400 });
    expect(await create({ name: 'Broken', text: 'Hostname = ' })).toMatchObject({ status: 400, body: { text: [expect.stringContaining('Expected a value')], position: ['11'] } });
    expect(await create({ name: 'Dangling', text: 'Query is 999999' })).toMatchObject({ status: 400, body: { text: [expect.stringContaining('does not exist')] } });
    expect(await server.request('DELETE', `/queries/queries/${windows.body.id}`, { token })).toMatchObject({ status: 409, body: { detail: expect.stringContaining("the saved query 'Windows without EDR'") } });

    const analyst = await createUserWithGroups(server, token, 'query-analyst', ['Administrators']);
    const mine = await create({ name: 'Mine only', text: 'Hostname = ws-*' }, analyst.token);
    expect(mine.body.is_public).toBe(false);
    const adminList = await server.request('GET', '/queries/queries?size=100', { token });
    expect(adminList.body.results.map((row: { name: string }) => row.name)).not.toContain('Mine only');
    expect((await server.request('GET', `/queries/queries/${mine.body.id}`, { token })).status).toBe(404);
    expect((await server.request('PATCH', `/queries/queries/${windows.body.id}`, { token: analyst.token, body: { name: 'Taken over' } })).status).toBe(403);
  });

  it('exports exactly the list view as CSV and XLSX, escaping formulas', async () => {
    const [device] = (await search({ query: 'Hostname = ws-*', size: 1, ordering: [{ field: 'Hostname' }] })).body.results;
    await server.request('POST', '/devices/tags/update', { token, body: { tags: ['=HYPERLINK("http://evil.example")', '@SUM(A1)'], action: 'add', assets: [device.PrimaryKey[0]] } });
    const view = { query: 'Hostname = ws-*', fields: ['Hostname', 'OS.Type', 'Tags', 'IpAddresses'], ordering: [{ field: 'Hostname', order: 'desc' as const }] };
    const listed = await search({ ...view, size: 1000 });

    const csv = await server.app.inject({ method: 'POST', url: '/devices/export', headers: { authorization: `Bearer ${token}` }, payload: { ...view, format: 'csv' } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="devices-.*\.csv"$/);
    const rows: string[][] = parse(csv.body, { bom: true });
    expect(rows[0]).toEqual(['Hostname', 'OS type', 'Tags', 'IP addresses']);
    expect(rows).toHaveLength(listed.body.count + 1);
    expect(rows.slice(1).map((row) => row[0])).toEqual(listed.body.results.map((row: { Hostname: string[] }) => row.Hostname.join(', ')));
    expect(rows.slice(1).map((row) => row[3])).toEqual(listed.body.results.map((row: { IpAddresses?: string[] }) => (row.IpAddresses ?? []).join(', ')));
    expect(rows.find((row) => row[0] === device.Hostname.join(', '))![2]).toBe(`'=HYPERLINK("http://evil.example"), @SUM(A1)`);

    const xlsx = await server.app.inject({ method: 'POST', url: '/devices/export', headers: { authorization: `Bearer ${token}` }, payload: { ...view, format: 'xlsx', labels: ['Host', '-OS', 'Tags', 'IPs'] } });
    expect(xlsx.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(1).values).toEqual([undefined, 'Host', "'-OS", 'Tags', 'IPs']);
    expect(sheet.rowCount).toBe(listed.body.count + 1);
    const row = sheet.getRows(2, sheet.rowCount - 1)!.find((candidate) => candidate.getCell(1).value === device.Hostname.join(', '))!;
    expect(row.getCell(3).value).toBe(`'=HYPERLINK("http://evil.example"), @SUM(A1)`);
    expect(row.getCell(3).formula).toBeUndefined();

    expect(await server.request('POST', '/devices/export', { token, body: { ...view, format: 'csv', query: 'Hostname = ' } })).toMatchObject({ status: 400, body: { query: expect.any(Array) } });
    expect(await server.request('POST', '/devices/export', { token, body: { ...view, format: 'pdf' } })).toMatchObject({ status: 400 });
    const users = await server.app.inject({ method: 'POST', url: '/userinventory/export', headers: { authorization: `Bearer ${token}` }, payload: { format: 'csv', fields: ['Username', 'Email'] } });
    expect(users.body.split('\r\n')[0]).toBe('\ufeffUsername,Email');
  });

  it('lists device–user and device–device relations as sources report them', async () => {
    const relations = await server.request('GET', '/devices/relations?kind=device-user&size=5', { token });
    expect(relations.body.count).toBeGreaterThan(50);
    const relation = relations.body.results[0];
    expect(relation).toMatchObject({ relation: 'last used by', device: { id: expect.any(String), name: expect.any(String) }, related: { entity: 'user', reported_as: expect.stringMatching(/^CORP\\/) } });
    const user = await server.request('POST', `/userinventory/users/${relation.related.id}`, { token, body: {} });
    expect(user.body.Username).toContain(relation.related.reported_as.split('\\')[1]);
    const hosts = await server.request('GET', '/devices/relations?kind=device-device&size=100', { token });
    expect(hosts.body.results.length).toBeGreaterThan(0);
    // Virtual machines run on servers; wired machines are plugged into an access switch's port, in a VLAN.
    const byRelation = (name: string) => hosts.body.results.filter((row: { relation: string }) => row.relation === name);
    expect(new Set(hosts.body.results.map((row: { relation: string }) => row.relation))).toEqual(new Set(['runs on', 'plugged into switch']));
    for (const row of byRelation('runs on')) expect(row).toMatchObject({ related: { entity: 'device', id: expect.any(String), name: expect.stringMatching(/^srv-/i) }, port: null, vlan: null });
    for (const row of byRelation('plugged into switch')) expect(row).toMatchObject({ related: { entity: 'device', id: expect.any(String), name: expect.stringMatching(/^sw-access-/) }, port: expect.stringMatching(/^GigabitEthernet/), vlan: expect.stringMatching(/^(10|30)$/) });
    const detail = await server.request('POST', `/devices/devices/${relation.device.id}`, { token, body: {} });
    expect(detail.body.relations).toContainEqual(expect.objectContaining({ kind: 'device-user', related_asset: relation.related.id }));
  });

  it('bounds user regular expressions', async () => {
    const long = await search({ query: `Hostname = /${'a'.repeat(300)}/`, size: 1 });
    expect(long).toMatchObject({ status: 400, body: { query: [expect.stringContaining('limited to 200')] } });
    expect((await search({ query: 'Hostname = /^[a-z]+-0+[0-9]$/i', size: 1 })).body.count).toBeGreaterThanOrEqual(5);
  });
});
