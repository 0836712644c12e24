import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithGroups, engines, startTestServer, userPassword, type TestServer } from './harness.js';

// A "user manager" may manage users and groups but holds only a handful of permissions and one adapter: whatever
// they grant (to a group, to a user through a group, to themselves) must be within what they hold.
const managerPermissions = [
  'users.view_user', 'users.add_user', 'users.change_user', 'auth.view_group', 'auth.add_group', 'auth.change_group',
  'authtoken.view_token', 'authtoken.add_token', 'users.view_devices',
];

describe.each(engines)('no self-escalation on %s', (engine) => {
  let server: TestServer;
  let admin: string;
  let permissionIds: Map<string, number>;
  let groupIds: Map<string, number>;
  let manager: { id: number; token: string };
  let peer: { id: number; token: string };
  const ids = (...permissions: string[]) => permissions.map((permission) => permissionIds.get(permission)!);
  const readGroups = async () => {
    const groups = (await server.request('GET', '/users/groups?size=1000', { token: admin })).body.results as { id: number; name: string }[];
    groupIds = new Map(groups.map((group) => [group.name, group.id]));
  };

  beforeAll(async () => {
    server = await startTestServer(engine);
    admin = server.adminToken;
    const catalogue = (await server.request('GET', '/users/permissions?size=1000', { token: admin })).body.results as { id: number; app: string; codename: string }[];
    permissionIds = new Map(catalogue.map((entry) => [`${entry.app}.${entry.codename}`, entry.id]));
    const managers = await server.request('POST', '/users/groups', { token: admin, body: { name: 'User managers', permissions: ids(...managerPermissions), adapters: ['crowdstrike'] } });
    expect(managers.status).toBe(201);
    const viewers = await server.request('POST', '/users/groups', { token: admin, body: { name: 'Device viewers', permissions: ids('users.view_devices'), adapters: ['crowdstrike'] } });
    expect(viewers.status).toBe(201);
    const auditors = await server.request('POST', '/users/groups', { token: admin, body: { name: 'Auditors', permissions: ids('activities.view_system_log', 'users.view_devices'), adapters: [] } });
    expect(auditors.status).toBe(201);
    await readGroups();
    manager = await createUserWithGroups(server, admin, 'manager', ['User managers']);
    peer = await createUserWithGroups(server, admin, 'peer', ['Device viewers']);
  });
  afterAll(() => server.stop());

  it('refuses a group with permissions the actor does not hold, naming them by their labels', async () => {
    const answer = await server.request('POST', '/users/groups', { token: manager.token, body: { name: 'Escalators', permissions: ids('users.view_devices', 'companies.add_company', 'users.delete_user') } });
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('permission_escalation');
    expect(answer.body.detail).toContain('Can add company');
    expect(answer.body.detail).toContain('Can delete user');
    expect(answer.body.detail).not.toContain('Can view Devices');
    expect(answer.body.detail).not.toContain('companies.add_company');
    expect((await server.request('GET', '/users/groups?search=Escalators', { token: admin })).body.count).toBe(0);

    const within = await server.request('POST', '/users/groups', { token: manager.token, body: { name: 'Helpers', permissions: ids('users.view_user', 'users.view_devices') } });
    expect(within.status).toBe(201);
  });

  it('refuses adapter access the actor does not have, naming the adapters', async () => {
    const every = await server.request('POST', '/users/groups', { token: manager.token, body: { name: 'All adapters', adapters: ['*'] } });
    expect(every).toMatchObject({ status: 403, body: { code: 'permission_escalation', detail: expect.stringContaining('every adapter') } });
    const okta = await server.request('POST', '/users/groups', { token: manager.token, body: { name: 'Okta readers', adapters: ['crowdstrike', 'okta'] } });
    expect(okta).toMatchObject({ status: 403, body: { detail: expect.stringContaining('Okta') } });
    expect(okta.body.detail).not.toContain('CrowdStrike');
    const held = await server.request('POST', '/users/groups', { token: manager.token, body: { name: 'Falcon readers', adapters: ['crowdstrike'] } });
    expect(held.status).toBe(201);
  });

  it("refuses widening the actor's own group", async () => {
    const own = groupIds.get('User managers')!;
    const wider = await server.request('PATCH', `/users/groups/${own}`, { token: manager.token, body: { permissions: ids(...managerPermissions, 'users.delete_user') } });
    expect(wider).toMatchObject({ status: 403, body: { detail: expect.stringContaining('Can delete user') } });
    const moreAdapters = await server.request('PATCH', `/users/groups/${own}`, { token: manager.token, body: { adapters: ['crowdstrike', 'okta'] } });
    expect(moreAdapters.status).toBe(403);
    const me = await server.request('GET', '/api/me', { token: manager.token });
    expect(me.body.permissions).not.toContain('users.delete_user');
  });

  it('lets an actor rename, keep or narrow what a group already has, but not add members to a group above them', async () => {
    const auditors = groupIds.get('Auditors')!;
    expect((await server.request('PATCH', `/users/groups/${auditors}`, { token: manager.token, body: { name: 'Auditors' } })).status).toBe(200);
    const kept = await server.request('PUT', `/users/groups/${auditors}`, { token: manager.token, body: { name: 'Auditors', permissions: ids('activities.view_system_log', 'users.view_devices') } });
    expect(kept.status).toBe(200);

    const joinSelf = await server.request('PATCH', `/users/groups/${auditors}`, { token: manager.token, body: { user_ids: [manager.id] } });
    expect(joinSelf).toMatchObject({ status: 403, body: { code: 'permission_escalation', detail: expect.stringContaining('Can view system logs') } });
    const joinPeer = await server.request('PATCH', `/users/groups/${auditors}`, { token: manager.token, body: { user_ids: [peer.id] } });
    expect(joinPeer.status).toBe(403);
    expect((await server.request('GET', `/users/groups/${auditors}`, { token: admin })).body.user_count).toBe(0);

    const narrowed = await server.request('PATCH', `/users/groups/${auditors}`, { token: manager.token, body: { permissions: ids('users.view_devices') } });
    expect(narrowed.status).toBe(200);
    expect((await server.request('PATCH', `/users/groups/${auditors}`, { token: manager.token, body: { user_ids: [peer.id] } })).status).toBe(200);
  });

  it('refuses putting anyone, the actor included, into a group that holds more than the actor', async () => {
    const administrators = groupIds.get('Administrators')!;
    const created = await server.request('POST', '/users/users', { token: manager.token, body: { username: 'crony', password: userPassword, group_ids: [administrators] } });
    expect(created.status).toBe(403);
    expect(created.body.detail).toContain('Can delete company');
    expect((await server.request('GET', '/users/users?search=crony', { token: admin })).body.count).toBe(0);

    const promoteSelf = await server.request('PATCH', `/users/users/${manager.id}`, { token: manager.token, body: { group_ids: [groupIds.get('User managers')!, groupIds.get('Analysts')!] } });
    expect(promoteSelf).toMatchObject({ status: 403, body: { code: 'permission_escalation' } });
    expect(promoteSelf.body.detail).toContain('every adapter');
    const promotePeer = await server.request('PATCH', `/users/users/${peer.id}`, { token: manager.token, body: { group_ids: [administrators] } });
    expect(promotePeer.status).toBe(403);
    expect((await server.request('GET', `/users/users/${peer.id}`, { token: admin })).body.groups.map((group: { name: string }) => group.name)).not.toContain('Administrators');

    const withinSelf = await server.request('PATCH', `/users/users/${manager.id}`, { token: manager.token, body: { group_ids: [groupIds.get('User managers')!, groupIds.get('Device viewers')!] } });
    expect(withinSelf.status).toBe(200);
    const withinNew = await server.request('POST', '/users/users', { token: manager.token, body: { username: 'viewer.two', group_ids: [groupIds.get('Device viewers')!] } });
    expect(withinNew.status).toBe(201);
  });

  it("refuses setting the password of a user who holds more than the actor (taking over their account)", async () => {
    const [firstAdmin] = (await server.request('GET', '/users/users?search=admin&ordering=id', { token: admin })).body.results;
    const takeover = await server.request('PATCH', `/users/users/${firstAdmin.id}`, { token: manager.token, body: { password: 'a brand new passphrase 77' } });
    expect(takeover).toMatchObject({ status: 403, body: { code: 'permission_escalation' } });
    expect(takeover.body.detail).toContain('Can delete company');
    expect(await server.signIn('admin', 'first admin passphrase')).toBeTruthy();
    expect((await server.request('PATCH', `/users/users/${peer.id}`, { token: manager.token, body: { password: 'peer passphrase number 2' } })).status).toBe(200);
  });

  it("refuses creating a company's administrator unless the actor holds every permission", async () => {
    const company = await server.request('POST', '/companies/companies', { token: admin, body: { name: 'Acme' } });
    await server.request('POST', '/users/groups', { token: admin, body: { name: 'Company managers', permissions: ids('companies.view_company', 'companies.change_company') } });
    const companyManager = await createUserWithGroups(server, admin, 'company.manager', ['Company managers']);
    const refused = await server.request('POST', `/companies/companies/${company.body.id}/administrators`, { token: companyManager.token, body: { username: 'acme.owner', password: userPassword } });
    expect(refused).toMatchObject({ status: 403, body: { code: 'permission_escalation' } });
    expect((await server.request('GET', '/users/users?search=acme.owner', { token: admin })).body.count).toBe(0);

    // The provider's administrator holds everything; a tenant's administrator holds everything in their company.
    const created = await server.request('POST', `/companies/companies/${company.body.id}/administrators`, { token: admin, body: { username: 'acme.owner', password: userPassword } });
    expect(created.status).toBe(201);
    const tenantAdmin = await server.signIn('acme.owner', userPassword);
    const everything = await server.request('POST', '/users/groups', { token: tenantAdmin, body: { name: 'Acme operators', permissions: [...permissionIds.values()], adapters: ['*'] } });
    expect(everything.status).toBe(201);
  });

  it('lets the provider administrator grant anything, to anyone', async () => {
    const everything = await server.request('POST', '/users/groups', { token: admin, body: { name: 'Everything', permissions: [...permissionIds.values()], adapters: ['*'] } });
    expect(everything.status).toBe(201);
    const promoted = await server.request('PATCH', `/users/users/${peer.id}`, { token: admin, body: { group_ids: [groupIds.get('Administrators')!] } });
    expect(promoted.status).toBe(200);
  });

  it("gives an API token no more than its creator holds, now", async () => {
    const owner = await createUserWithGroups(server, admin, 'token.owner', ['User managers']);
    for (const extra of [{ permissions: ['companies.add_company'] }, { scopes: ['*'] }, { adapters: ['*'] }]) {
      const answer = await server.request('POST', '/api/tokens', { token: owner.token, body: { name: 'script', ...extra } });
      expect(answer).toMatchObject({ status: 400, body: { [Object.keys(extra)[0]!]: ['Unknown field.'] } });
    }
    const created = await server.request('POST', '/api/tokens', { token: owner.token, body: { name: 'script' } });
    const exchanged = await server.request('POST', '/api/token/token', { body: { token: created.body.token } });
    const access = exchanged.body.access as string;
    expect((await server.request('GET', '/users/users', { token: access })).status).toBe(200);
    expect((await server.request('GET', '/companies/companies', { token: access })).status).toBe(403);
    const claims = JSON.parse(Buffer.from(access.split('.')[1]!, 'base64url').toString());
    expect(claims.adapters).toEqual(['crowdstrike']);

    await server.request('PATCH', `/users/users/${owner.id}`, { token: admin, body: { group_ids: [] } });
    expect((await server.request('GET', '/users/users', { token: access })).status).toBe(403);
    const again = await server.request('POST', '/api/token/token', { body: { token: created.body.token } });
    expect((await server.request('GET', '/users/users', { token: again.body.access })).status).toBe(403);
  });
});
