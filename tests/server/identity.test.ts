import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithGroups, engines, startTestServer, userPassword, type TestServer } from './harness.js';

describe.each(engines)('users, groups, companies and domains on %s', (engine) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(engine);
    token = server.adminToken;
  });
  afterAll(() => server.stop());

  it('creates a user with an initial password and groups, in the reference shape', async () => {
    const groups = (await server.request('GET', '/users/groups', { token })).body.results;
    const analysts = groups.find((group: { name: string }) => group.name === 'Analysts');
    const created = await server.request('POST', '/users/users', {
      token,
      body: { username: 'jane.doe', email: 'jane@example.com', first_name: 'Jane', last_name: 'Doe', group_ids: [analysts.id], password: userPassword },
    });
    expect(created).toMatchObject({ status: 201, body: { username: 'jane.doe', name: 'Jane Doe', is_active: true, is_ldap: false, groups: [{ id: analysts.id, name: 'Analysts' }] } });
    expect(created.body).not.toHaveProperty('password');
    const signedIn = await server.signIn('jane.doe', userPassword);
    const me = await server.request('GET', '/api/me', { token: signedIn });
    expect(me.body.permissions).toContain('queries.add_query');
    expect(me.body.permissions).not.toContain('users.add_user');
  });

  it('answers field errors for a missing username, a duplicate, a weak password and unknown fields', async () => {
    expect(await server.request('POST', '/users/users', { token, body: {} })).toMatchObject({ status: 400, body: { username: ['This field is required.'] } });
    expect(await server.request('POST', '/users/users', { token, body: { username: 'JANE.DOE' } })).toMatchObject({ status: 400, body: { username: ['A user with that username already exists.'] } });
    const weak = await server.request('POST', '/users/users', { token, body: { username: 'weak', password: 'password123' } });
    expect(weak).toMatchObject({ status: 400, body: { password: ['This password is too common.'] } });
    const unknown = await server.request('POST', '/users/users', { token, body: { username: 'x', is_superuser: true } });
    expect(unknown).toMatchObject({ status: 400, body: { is_superuser: ['Unknown field.'] } });
    const tooLong = await server.request('POST', '/users/users', { token, body: { username: 'u'.repeat(151) } });
    expect(tooLong).toMatchObject({ status: 400, body: { username: ['Ensure this field has no more than 150 characters.'] } });
  });

  it('pages, searches and orders the user list', async () => {
    for (const name of ['pager.one', 'pager.two', 'pager.three']) await server.request('POST', '/users/users', { token, body: { username: name } });
    const firstPage = await server.request('GET', '/users/users?search=pager&size=2&ordering=-username', { token });
    expect(firstPage.body.count).toBe(3);
    expect(firstPage.body.results.map((user: { username: string }) => user.username)).toEqual(['pager.two', 'pager.three']);
    expect(firstPage.body.next).toMatch(/page=2/);
    expect(firstPage.body.previous).toBeNull();
    const secondPage = await server.request('GET', '/users/users?search=pager&size=2&ordering=-username&page=2', { token });
    expect(secondPage.body.results.map((user: { username: string }) => user.username)).toEqual(['pager.one']);
    expect(secondPage.body.next).toBeNull();
    expect(await server.request('GET', '/users/users?ordering=password_hash', { token })).toMatchObject({ status: 400, body: { ordering: [expect.stringContaining('not supported')] } });
    expect(await server.request('GET', '/users/users?size=100000', { token })).toMatchObject({ status: 400, body: { size: ['Ensure this value is less than or equal to 1000.'] } });
  });

  it('updates and deletes users, but never the caller itself', async () => {
    const created = await server.request('POST', '/users/users', { token, body: { username: 'temp.user' } });
    const patched = await server.request('PATCH', `/users/users/${created.body.id}`, { token, body: { first_name: 'Temp', is_active: false } });
    expect(patched.body).toMatchObject({ first_name: 'Temp', is_active: false, username: 'temp.user' });
    const untouched = await server.request('PATCH', `/users/users/${created.body.id}`, { token, body: { last_name: 'User' } });
    expect(untouched.body).toMatchObject({ first_name: 'Temp', last_name: 'User', is_active: false });
    const [me] = (await server.request('GET', '/users/users?search=admin', { token })).body.results;
    expect(await server.request('DELETE', `/users/users/${me.id}`, { token })).toMatchObject({ status: 400, body: { detail: 'You cannot delete your own account.' } });
    expect((await server.request('DELETE', `/users/users/${created.body.id}`, { token })).status).toBe(204);
    expect((await server.request('GET', `/users/users/${created.body.id}`, { token })).status).toBe(404);
  });

  it('creates groups with permissions, members and adapters, and protects the built-in ones', async () => {
    const permissions = (await server.request('GET', '/users/permissions?search=view_devices', { token })).body.results;
    expect(permissions).toEqual([expect.objectContaining({ app: 'users', codename: 'view_devices', name: 'Can view Devices' })]);
    const member = await createUserWithGroups(server, token, 'soc.member', []);
    const group = await server.request('POST', '/users/groups', { token, body: { name: 'SOC', permissions: [permissions[0].id], user_ids: [member.id], adapters: ['crowdstrike'] } });
    expect(group).toMatchObject({ status: 201, body: { name: 'SOC', user_count: 1, adapters: ['crowdstrike'], permissions: [permissions[0].id], hr_permissions: [{ codename: 'view_devices' }] } });
    const memberToken = await server.signIn('soc.member', userPassword);
    const claims = JSON.parse(Buffer.from(memberToken.split('.')[1], 'base64url').toString());
    expect(claims.adapters).toEqual(['crowdstrike']);
    expect(await server.request('POST', '/users/groups', { token, body: { name: 'soc' } })).toMatchObject({ status: 400, body: { name: ['A group with that name already exists.'] } });
    expect(await server.request('POST', '/users/groups', { token, body: { name: 'Bad', permissions: [999999] } })).toMatchObject({ status: 400, body: { permissions: ['Invalid pk "999999" - object does not exist.'] } });

    const builtins = (await server.request('GET', '/users/groups', { token })).body.results.filter((candidate: { is_builtin: boolean }) => candidate.is_builtin);
    const administrators = builtins.find((candidate: { name: string }) => candidate.name === 'Administrators');
    expect((await server.request('DELETE', `/users/groups/${administrators.id}`, { token })).status).toBe(400);
    expect((await server.request('PATCH', `/users/groups/${administrators.id}`, { token, body: { permissions: [] } })).status).toBe(400);
    expect((await server.request('PATCH', `/users/groups/${administrators.id}`, { token, body: { name: 'Admins' } })).status).toBe(400);
  });

  it('manages companies, their primary domain and their administrators', async () => {
    const company = await server.request('POST', '/companies/companies', { token, body: { name: 'Acme' } });
    expect(company).toMatchObject({ status: 201, body: { name: 'Acme', domain: '', is_active: true, is_constant: false } });
    const first = await server.request('POST', '/companies/domains', { token, body: { domain: 'Acme.example', tenant: company.body.id, is_primary: true } });
    expect(first.body).toMatchObject({ domain: 'acme.example', tenant: company.body.id, tenant_name: 'Acme', is_primary: true });
    const second = await server.request('POST', '/companies/domains', { token, body: { domain: 'acme.test', tenant: company.body.id, is_primary: true } });
    expect((await server.request('GET', `/companies/domains/${first.body.id}`, { token })).body.is_primary).toBe(false);
    expect((await server.request('GET', `/companies/companies/${company.body.id}`, { token })).body.domain).toBe('acme.test');
    expect(await server.request('POST', '/companies/domains', { token, body: { domain: 'acme.test', tenant: company.body.id } })).toMatchObject({ status: 400, body: { domain: ['This domain already belongs to a company.'] } });
    expect(await server.request('POST', '/companies/domains', { token, body: { domain: 'not a domain!', tenant: company.body.id } })).toMatchObject({ status: 400, body: { domain: ['Enter a valid hostname.'] } });
    expect((await server.request('GET', `/companies/domains?tenant=${company.body.id}`, { token })).body.count).toBe(2);
    expect(second.status).toBe(201);

    const administrator = await server.request('POST', `/companies/companies/${company.body.id}/administrators`, { token, body: { username: 'acme.admin', password: userPassword } });
    expect(administrator.body.groups).toEqual([expect.objectContaining({ name: 'Administrators' })]);
    expect((await server.request('GET', `/companies/companies/${company.body.id}/administrators`, { token })).body).toEqual([expect.objectContaining({ username: 'acme.admin' })]);
    const acmeToken = await server.signIn('acme.admin', userPassword);
    expect((await server.request('GET', '/api/company', { token: acmeToken })).body).toMatchObject({ id: company.body.id, name: 'Acme', domain: 'acme.test' });

    await server.request('PATCH', `/companies/companies/${company.body.id}`, { token, body: { is_active: false } });
    expect((await server.request('POST', '/api/token', { body: { username: 'acme.admin', password: userPassword } })).status).toBe(401);
    expect((await server.request('GET', '/api/me', { token: acmeToken })).status).toBe(401);
    expect((await server.request('DELETE', `/companies/companies/${company.body.id}`, { token })).status).toBe(204);
    expect((await server.request('DELETE', '/companies/companies/1', { token })).status).toBe(400);
  });

  it('serves the license modules, company configuration and real system readings', async () => {
    const license = await server.request('GET', '/configurations/license', { token });
    expect(license.body.modules).toContain('device_inventory');
    const company = await server.request('GET', '/configurations/company', { token });
    expect(company.body).toMatchObject({ company_id: 1, is_provider: true });
    const system = await server.request('GET', '/configurations/system', { token });
    expect(system.body.cpu.cores).toBeGreaterThan(0);
    expect(system.body.memory.total).toBeGreaterThan(system.body.memory.free);
    expect(system.body.database.engine).toBe(engine);
    expect(system.body.versions.node).toBe(process.versions.node);
  });
});
