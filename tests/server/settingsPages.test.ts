import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFleetConnections, fleetRuntime, runDiscoveryAndWait } from './discoveryFleet.js';
import { createUserWithGroups, engines, startTestServer, userPassword, type TestServer } from './harness.js';

const defaults = {
  generic_host_name_limit: 10, recommendations_kept: 5000, recommended_matches: ['host_name', 'host_name_os', 'host_name_ip', 'host_name_ip_os'], minimum_score: 0.5, ordering: {},
};

describe.each(engines)('the remaining settings pages on %s', (engine) => {
  let server: TestServer;
  let analyst: string;
  let reader: string;
  let otherAdmin: string;
  beforeAll(async () => {
    server = await startTestServer(engine);
    const token = server.adminToken;
    analyst = (await createUserWithGroups(server, token, 'ann.analyst', ['Analysts'])).token;
    const permissions = (await server.request('GET', '/users/permissions?size=1000', { token })).body.results as { id: number; app: string; codename: string }[];
    const viewAdvanced = permissions.find((permission) => permission.app === 'configurations' && permission.codename === 'view_advancedconfiguration')!;
    const readers = await server.request('POST', '/users/groups', { token, body: { name: 'Settings readers', permissions: [viewAdvanced.id] } });
    expect(readers.status).toBe(201);
    reader = (await createUserWithGroups(server, token, 'rita.reader', ['Settings readers'])).token;
    const company = await server.request('POST', '/companies/companies', { token, body: { name: 'Globex' } });
    await server.request('POST', `/companies/companies/${company.body.id}/administrators`, { token, body: { username: 'globex.admin', password: userPassword } });
    otherAdmin = await server.signIn('globex.admin', userPassword);
  });
  afterAll(() => server.stop());

  it('answers the advanced configuration defaults, keeps what is saved per company, and refuses bad values with field errors', async () => {
    const token = server.adminToken;
    expect((await server.request('GET', '/configurations/advanced-configuration', { token })).body).toEqual(defaults);
    const changed = { ...defaults, recommended_matches: ['host_name_ip_os'], minimum_score: 0.75, generic_host_name_limit: 3, ordering: { Hostname: ['qualys', 'crowdstrike'] } };
    expect(await server.request('PUT', '/configurations/advanced-configuration', { token, body: changed })).toMatchObject({ status: 200, body: changed });
    expect((await server.request('GET', '/configurations/advanced-configuration', { token })).body).toEqual(changed);
    // The source precedence is what discoveries and the inventories' configuration read.
    expect((await server.request('GET', '/configurations/discovery', { token })).body.ordering).toEqual({ Hostname: ['qualys', 'crowdstrike'] });
    // Another company has its own document.
    expect((await server.request('GET', '/configurations/advanced-configuration', { token: otherAdmin })).body).toEqual(defaults);

    const refused = async (body: object) => (await server.request('PUT', '/configurations/advanced-configuration', { token, body })).body;
    expect(await refused({ ...defaults, minimum_score: 1.5 })).toHaveProperty('minimum_score');
    expect(await refused({ ...defaults, recommended_matches: ['same_colour'] })).toHaveProperty(['recommended_matches.0']);
    expect(await refused({ ...defaults, generic_host_name_limit: 'ten' })).toHaveProperty('generic_host_name_limit');
    expect(await refused({ ...defaults, ordering: { Hostname: ['connection:424242'] } })).toMatchObject({ ordering: [expect.stringContaining('#424242')] });
    expect(await refused({ ...defaults, extra: true })).toBeTruthy();
    expect((await server.request('PUT', '/configurations/advanced-configuration', { token, body: { ...defaults, ordering: { Hostname: ['x'.repeat(5000)] } } })).status).toBe(400);
    expect((await server.request('GET', '/configurations/advanced-configuration', { token })).body).toEqual(changed);
  });

  it('lets a reader see the advanced configuration but not change it, and an analyst neither', async () => {
    expect((await server.request('GET', '/configurations/advanced-configuration', { token: reader })).status).toBe(200);
    expect((await server.request('PUT', '/configurations/advanced-configuration', { token: reader, body: defaults })).status).toBe(403);
    expect((await server.request('GET', '/configurations/advanced-configuration', { token: analyst })).status).toBe(403);
    expect((await server.request('GET', '/configurations/advanced-configuration')).status).toBe(401);
  });

  it('no longer takes the precedence on the discovery-settings document', async () => {
    const token = server.adminToken;
    const answer = await server.request('PUT', '/configurations/discovery-settings', { token, body: { concurrency: 4, connection_timeout_minutes: 30, snapshots_to_keep: 10, ordering: {} } });
    expect(answer.status).toBe(400);
    expect((await server.request('GET', '/configurations/discovery-settings', { token })).body).toEqual({ concurrency: 4, connection_timeout_minutes: 30, snapshots_to_keep: 10 });
  });

  it("reports the license's edition, modules and the company's usage to its readers only", async () => {
    const license = await server.request('GET', '/configurations/license', { token: server.adminToken });
    expect(license.body).toMatchObject({ edition: 'open-source', limits: { devices: null, users: null, adapters: null, connections: null } });
    expect(license.body.modules).toContain('device_inventory');
    const [{ users }] = await server.context.db.query<{ users: number }>('select count(*)::int as users from users where company_id = 1');
    expect(license.body.usage).toEqual({ devices: 0, users, adapters: 0, connections: 0 });
    // Another company counts its own users only.
    expect((await server.request('GET', '/configurations/license', { token: otherAdmin })).body.usage).toMatchObject({ users: 1 });
    // Every signed-in user loads the modules; the usage is not theirs to read.
    const analystLicense = await server.request('GET', '/configurations/license', { token: analyst });
    expect(analystLicense.body.modules).toContain('device_inventory');
    expect(analystLicense.body).not.toHaveProperty('usage');
  });

  it('reads the system information with its permission: database engine and size', async () => {
    const system = await server.request('GET', '/configurations/system', { token: server.adminToken });
    expect(system.body.database).toMatchObject({ engine, size_bytes: expect.any(Number) });
    expect(system.body.database.size_bytes).toBeGreaterThan(0);
    expect((await server.request('GET', '/configurations/system', { token: reader })).status).toBe(403);
  });
});

describe.each(engines)('discoveries read the advanced configuration on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine, {}, { adapters: fleetRuntime(300, 11).runtime });
    await addFleetConnections(server);
  });
  afterAll(() => server.stop());

  it('recommends only the weak matches chosen, from the minimum score up, and keeps as many as asked', async () => {
    const token = server.adminToken;
    type Row = { score: number; reasons: string[] };
    const recommended = async () => (await server.request('GET', '/devices/merge-recommendations?size=1000', { token })).body.results as Row[];
    const save = async (change: object) => expect((await server.request('PUT', '/configurations/advanced-configuration', { token, body: { ...defaults, ...change } })).status).toBe(200);
    // The weak match a recommendation is, from its reasons (the shared host name is always the first).
    const kindOf = (row: Row) => `host_name${row.reasons.some((reason) => reason.includes('IP')) ? '_ip' : ''}${row.reasons.some((reason) => reason.includes('operating system')) ? '_os' : ''}`;

    await runDiscoveryAndWait(server);
    const all = await recommended();
    expect(all.length).toBeGreaterThanOrEqual(2);
    const kind = kindOf(all[0]!);

    await save({ recommended_matches: [kind] });
    await runDiscoveryAndWait(server);
    expect((await recommended()).length).toBe(all.filter((row) => kindOf(row) === kind).length);
    await save({ recommended_matches: defaults.recommended_matches.filter((other) => other !== kind) });
    await runDiscoveryAndWait(server);
    expect((await recommended()).length).toBe(all.filter((row) => kindOf(row) !== kind).length);

    await save({ recommendations_kept: 1 });
    await runDiscoveryAndWait(server);
    expect(await recommended()).toHaveLength(1);

    await save({ minimum_score: Math.max(...all.map((row) => row.score)) + 0.05 });
    await runDiscoveryAndWait(server);
    expect(await recommended()).toEqual([]);
  });
});
