import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rescoreLatestSnapshot } from '../../src/server/security/rescore.js';
import { starterPolicies } from '../../src/server/security/starterPolicies.js';
import { addFleetConnections, fleetRuntime, runDiscoveryAndWait } from './discoveryFleet.js';
import { createUserWithGroups, engines, startTestServer, userPassword, type TestServer } from './harness.js';

// Security policies on the user inventory: the leaver starter policy every company has, evaluated over the users of a
// fleet whose HR system reports leavers (tests/server/discoveryFleet.ts), the users that fail it, and what is refused.

const { runtime } = fleetRuntime(400, 21);
const leaverCondition = 'Employment.Status = terminated AND Enabled = true';
const leaverName = 'Leavers with an active account';

type Policy = { id: number; name: string; inventory: string; enabled: boolean; query: string; profile_ids: number[]; starter_id: string | null; last_result: { applicable: number; failed: number; error: string | null } | null };
type UserPolicies = { policies: { name: string; passed: boolean; values: { field: string; values: unknown[] }[] }[] };

describe.each(engines)('security policies on users on %s', (engine) => {
  let server: TestServer;
  let token: string;
  let snapshot: number;
  const call = (method: string, url: string, body?: object, as = token) => server.request(method, url, { token: as, body });
  const users = async (query: string, fields: string[] = []) => (await call('POST', '/userinventory/users', { query, size: 100, fields })).body as { count: number; results: Record<string, unknown[]>[] };
  const policies = async (as = token) => (await call('GET', '/securitymanager/security-policies?size=100', undefined, as)).body.results as Policy[];
  const leaverPolicy = async (as = token) => (await policies(as)).find((policy) => policy.name === leaverName)!;
  // The rescorings the policy changes asked for (jobs run in the background) are done.
  const rescoresDone = async () => {
    for (let attempt = 0; attempt < 600; attempt += 1) {
      const [pending] = await server.context.db.query<{ count: number }>("select count(*)::int as count from pgboss.job where name = 'security-rescore' and state in ('created', 'retry', 'active')");
      if (pending.count === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('rescoring did not finish');
  };

  beforeAll(async () => {
    server = await startTestServer(engine, {}, { adapters: runtime });
    token = server.adminToken;
    await addFleetConnections(server);
    snapshot = (await runDiscoveryAndWait(server)).id;
  }, 180_000);
  afterAll(() => server.stop());

  it('gives a new company the leaver policy on users, switched off; a policy named without an inventory checks devices', async () => {
    expect(await leaverPolicy()).toMatchObject({
      inventory: 'user', enabled: false, starter_id: 'cis-5.3-leavers-active-account', query: `NOT (${leaverCondition})`, profile_ids: [], last_result: null,
    });
    const device = await call('POST', '/securitymanager/security-policies', { name: 'Seen lately', severity: 'low', query: 'LastSeen last now-30d' });
    expect(device).toMatchObject({ status: 201, body: { inventory: 'device' } });
    // Replaced whole without an inventory, it stays on devices, as every policy written before inventories was.
    expect((await call('PUT', `/securitymanager/security-policies/${device.body.id}`, { name: 'Seen lately', severity: 'low', query: 'LastSeen last now-60d' })).body.inventory).toBe('device');
    expect((await call('DELETE', `/securitymanager/security-policies/${device.body.id}`)).status).toBe(204);
    // The starter library leaves the company's copy as it is.
    expect((await call('POST', '/securitymanager/security-policies/starter', { enable: false })).body).toMatchObject({ added: starterPolicies.length - 1, already_present: 1 });
    expect((await policies()).filter((policy) => policy.starter_id === 'cis-5.3-leavers-active-account')).toHaveLength(1);
  });

  it('refuses an unknown inventory, profiles on a user policy and fields the inventory lacks, each as a field error', async () => {
    const { id } = await leaverPolicy();
    const profile = await call('POST', '/securitymanager/asset-profiles', { name: 'Laptops', query: 'Hostname = *' });
    const refused = [
      await call('POST', '/securitymanager/security-policies', { name: 'Printers', severity: 'low', inventory: 'printers', query: 'Adapters = x' }),
      await call('PATCH', `/securitymanager/security-policies/${id}`, { inventory: 'printers' }),
      await call('POST', '/securitymanager/security-policies/preview', { inventory: 'printers', query: 'Adapters = x' }),
    ];
    for (const answer of refused) expect(answer).toMatchObject({ status: 400, body: { inventory: [expect.any(String)] } });
    expect(await call('POST', '/securitymanager/security-policies', { name: 'Scoped', severity: 'low', inventory: 'user', query: 'Enabled = true', profile_ids: [profile.body.id] }))
      .toMatchObject({ status: 400, body: { profile_ids: [expect.stringContaining('Asset profiles hold devices')] } });
    expect(await call('POST', '/securitymanager/security-policies/preview', { inventory: 'user', query: 'Enabled = true', profile_ids: [profile.body.id] })).toMatchObject({ status: 400, body: { profile_ids: [expect.any(String)] } });
    expect(await call('POST', '/securitymanager/security-policies', { name: 'Hosts', severity: 'low', inventory: 'user', query: 'Enabled = true AND Hostname = x' }))
      .toMatchObject({ status: 400, body: { query: [expect.stringContaining('Unknown field "Hostname"')], position: ['19'] } });
    expect(await call('POST', '/securitymanager/security-policies', { name: 'People', severity: 'low', query: 'Employment.Status = terminated' })).toMatchObject({ status: 400, body: { query: [expect.stringContaining('Unknown field "Employment.Status"')] } });
    expect(await call('PATCH', `/securitymanager/security-policies/${id}`, { query: 'NOT FailedPolicies = x' })).toMatchObject({ status: 400, body: { query: [expect.stringContaining('written by the scoring')] } });
    // Taken off users, the policy's condition would read fields devices lack: refused as well, and nothing changed.
    expect(await call('PATCH', `/securitymanager/security-policies/${id}`, { inventory: 'device' })).toMatchObject({ status: 400, body: { query: [expect.stringContaining('Unknown field')] } });
    expect(await leaverPolicy()).toMatchObject({ inventory: 'user', query: `NOT (${leaverCondition})` });
    expect((await call('DELETE', `/securitymanager/asset-profiles/${profile.body.id}`)).status).toBe(204);
  });

  it('lists the leavers whose account is still enabled: at the publish, on the user detail, the overview and the user inventory', async () => {
    const expected = await users(leaverCondition, ['Username']);
    expect(expected.count).toBeGreaterThan(0);
    const everyone = (await users('')).count;
    const preview = await call('POST', '/securitymanager/security-policies/preview', { inventory: 'user', query: `NOT (${leaverCondition})` });
    expect(preview.body).toMatchObject({ inventory: 'user', applicable: everyone, failing: expected.count, passing: everyone - expected.count });
    expect(preview.body.sample.map((row: { username: string }) => row.username).sort()).toEqual(expected.results.slice(0, 10).map((row) => row.Username[0]).sort());

    const { id } = await leaverPolicy();
    expect((await call('PATCH', `/securitymanager/security-policies/${id}`, { enabled: true })).status).toBe(200);
    snapshot = (await runDiscoveryAndWait(server)).id;
    expect(await rescoreLatestSnapshot(server.context.db, 1)).toBe(snapshot);
    expect((await leaverPolicy()).last_result).toMatchObject({ applicable: everyone, failed: expected.count, error: null });

    // The failing users carry the policy's name, so the user inventory lists them (the policy list links there).
    const failing = await users(`FailedPolicies = "${leaverName}"`, ['Username', 'Employment.Status', 'Enabled', 'FailedPolicies']);
    expect(failing.results.map((row) => row.Username[0]).sort()).toEqual(expected.results.map((row) => row.Username[0]).sort());
    for (const row of failing.results) expect(row).toMatchObject({ 'Employment.Status': expect.arrayContaining(['terminated']), Enabled: expect.arrayContaining([true]), FailedPolicies: [leaverName] });
    // A policy on users weighs in no device's score.
    expect((await call('POST', '/devices/devices', { query: 'SecurityScore = *', size: 1 })).body.count).toBe(0);

    const overview = (await call('GET', '/securitymanager/overview')).body;
    expect(overview).toMatchObject({ index_id: snapshot, score: null, devices: 0 });
    expect(overview.most_failed_policies).toContainEqual(expect.objectContaining({ name: leaverName, inventory: 'user', failed: expected.count, applicable: everyone }));
    expect(overview.failing_users).toHaveLength(Math.min(10, expected.count));
    const [first] = overview.failing_users as { asset_id: string; username: string; display_name: string; policies: string[] }[];
    expect(first).toMatchObject({ username: expect.any(String), display_name: expect.any(String), policies: [leaverName] });

    const explained = (await call('GET', `/securitymanager/users/${first.asset_id}/policies`)).body as UserPolicies;
    expect(explained.policies).toEqual([expect.objectContaining({ name: leaverName, passed: false })]);
    expect(explained.policies[0].values).toEqual([{ field: 'Employment.Status', values: ['terminated'] }, { field: 'Enabled', values: [true] }]);
    const stayer = (await users('Employment.Status = active', ['Username'])).results[0];
    expect(((await call('GET', `/securitymanager/users/${stayer.PrimaryKey[0]}/policies?index_id=${snapshot}`)).body as UserPolicies).policies).toEqual([expect.objectContaining({ name: leaverName, passed: true })]);
    expect((await call('GET', '/securitymanager/users/no-such-user/policies')).status).toBe(404);

    // Switched off and scored again, no user lists it any more.
    expect((await call('PATCH', `/securitymanager/security-policies/${id}`, { enabled: false })).status).toBe(200);
    await rescoreLatestSnapshot(server.context.db, 1);
    expect((await users('FailedPolicies = *')).count).toBe(0);
    expect((await call('GET', `/securitymanager/users/${first.asset_id}/policies`)).body.policies).toEqual([]);
    expect((await call('PATCH', `/securitymanager/security-policies/${id}`, { enabled: true })).status).toBe(200);
    await rescoreLatestSnapshot(server.context.db, 1);
    expect((await users('FailedPolicies = *')).count).toBe(expected.count);
    // With no rescoring under way, the next publish evaluates it by itself.
    await rescoresDone();
    snapshot = (await runDiscoveryAndWait(server)).id;
    expect((await call('GET', `/securitymanager/security-policies/${id}`)).body.last_result).toMatchObject({ index_id: snapshot, applicable: everyone, failed: expected.count, error: null });
    expect((await users(`FailedPolicies = "${leaverName}"`)).count).toBe(expected.count);
  }, 240_000);

  it('checks permissions on user policies and a user’s policies, and keeps each company to its own', async () => {
    const leaver = await leaverPolicy();
    const [failingUser] = (await users(`FailedPolicies = "${leaverName}"`)).results;
    const viewer = await createUserWithGroups(server, token, 'user-policy-viewer', ['Viewers']);
    expect((await leaverPolicy(viewer.token)).inventory).toBe('user');
    expect((await call('POST', '/securitymanager/security-policies', { name: 'Viewer policy', severity: 'low', inventory: 'user', query: 'Enabled = true' }, viewer.token)).status).toBe(403);
    expect((await call('PATCH', `/securitymanager/security-policies/${leaver.id}`, { enabled: false }, viewer.token)).status).toBe(403);
    expect((await call('GET', `/securitymanager/users/${failingUser.PrimaryKey[0]}/policies`, undefined, viewer.token)).status).toBe(200);
    // Reading a user's policies takes the user detail's permission, as the device's score takes the device detail's.
    const permissions = (await call('GET', '/users/permissions?size=1000')).body.results as { id: number; app: string; codename: string }[];
    const policyViewing = permissions.filter((permission) => `${permission.app}.${permission.codename}` === 'securitymanager.view_securitypolicy').map((permission) => permission.id);
    expect((await call('POST', '/users/groups', { name: 'Policy readers', permissions: policyViewing, adapters: ['*'] })).status).toBe(201);
    const reader = await createUserWithGroups(server, token, 'policy-reader', ['Policy readers']);
    expect((await call('GET', `/securitymanager/users/${failingUser.PrimaryKey[0]}/policies`, undefined, reader.token)).status).toBe(403);

    const company = await call('POST', '/companies/companies', { name: 'Other people co' });
    expect((await call('POST', `/companies/companies/${company.body.id}/administrators`, { username: 'people.outsider', password: userPassword })).status).toBe(201);
    const outsider = await server.signIn('people.outsider', userPassword);
    expect((await call('GET', `/securitymanager/security-policies/${leaver.id}`, undefined, outsider)).status).toBe(404);
    expect((await call('PATCH', `/securitymanager/security-policies/${leaver.id}`, { enabled: false }, outsider)).status).toBe(404);
    expect((await call('GET', `/securitymanager/users/${failingUser.PrimaryKey[0]}/policies`, undefined, outsider)).status).toBe(404);
    expect((await call('GET', `/securitymanager/users/${failingUser.PrimaryKey[0]}/policies?index_id=${snapshot}`, undefined, outsider)).status).toBe(404);
    // The other company has its own copy, off, with no result from this company's snapshot.
    const theirs = await leaverPolicy(outsider);
    expect(theirs).toMatchObject({ inventory: 'user', enabled: false, last_result: null });
    expect(theirs.id).not.toBe(leaver.id);
    expect((await call('GET', '/securitymanager/overview', undefined, outsider)).body).toMatchObject({ index_id: null, failing_users: [] });
    expect((await leaverPolicy()).enabled).toBe(true);
  });
});
