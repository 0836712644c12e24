import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { genericResources } from '../../src/server/resources/genericResources.js';
import { allSchemas } from '../../src/server/http/validators.js';
import { engines, startTestServer, userPassword, type TestServer } from './harness.js';

type ResourceSchema = { $id: string; examples?: object[]; 'x-resource': { path: string; scope: string } };

describe.each(engines)('the company boundary on %s', (engine) => {
  let server: TestServer;
  let companyB: number;
  let tokenB: string;

  beforeAll(async () => {
    server = await startTestServer(engine);
    const created = await server.request('POST', '/companies/companies', { token: server.adminToken, body: { name: 'Company B' } });
    companyB = created.body.id;
    const administrator = await server.request('POST', `/companies/companies/${companyB}/administrators`, {
      token: server.adminToken,
      body: { username: 'b.admin', password: userPassword },
    });
    expect(administrator.status).toBe(201);
    tokenB = await server.signIn('b.admin', userPassword);
  });
  afterAll(() => server.stop());

  it('shows a user of company B only company B', async () => {
    const companies = await server.request('GET', '/companies/companies', { token: tokenB });
    expect(companies.body.results.map((company: { id: number }) => company.id)).toEqual([companyB]);
    const users = await server.request('GET', '/users/users', { token: tokenB });
    expect(users.body.results.map((user: { username: string }) => user.username)).toEqual(['b.admin']);
    const groups = await server.request('GET', '/users/groups', { token: tokenB });
    expect(groups.body.results.map((group: { name: string }) => group.name)).toEqual(['Administrators', 'Analysts', 'Viewers']);
    expect((await server.request('GET', '/api/admins', { token: tokenB })).body.results).toEqual([{ company: companyB, company_name: 'Company B', company_domain: '' }]);
  });

  it('lets the provider company see every company, but lets company B create none', async () => {
    const all = await server.request('GET', '/companies/companies', { token: server.adminToken });
    expect(all.body.count).toBe(2);
    expect((await server.request('POST', '/companies/companies', { token: tokenB, body: { name: 'Company C' } })).status).toBe(403);
  });

  // Every resource schema, hand-written or generic: A creates its example, and B can neither see, change nor delete it.
  const resourceSchemas = allSchemas().filter((schema) => schema['x-resource']) as unknown as ResourceSchema[];
  it.each(resourceSchemas.map((schema) => [schema.$id, schema] as const))('keeps %s of company A out of company B', async (_id, schema) => {
    const { path } = schema['x-resource'];
    const example: Record<string, unknown> = { ...schema.examples?.[0], ...(schema.$id.endsWith('/user') && { group_ids: [] }), ...(schema.$id.endsWith('/company') && { name: `Example ${Date.now()}` }) };
    // Charts and widgets go on A's default dashboard (the examples name dashboard 1, which need not be its id).
    if (schema.$id.endsWith('/chart') || schema.$id.endsWith('/widget')) {
      example.dashboard = ((await server.request('GET', '/dashboards/dashboards?size=1000', { token: server.adminToken })).body.results as { id: number; is_default?: boolean }[]).find((dashboard) => dashboard.is_default)!.id;
    }
    // A schedule names a report of its own company.
    if (schema.$id.endsWith('/report-schedule')) {
      const report = resourceSchemas.find((candidate) => candidate.$id.endsWith('/report'))!;
      example.report = (await server.request('POST', report['x-resource'].path, { token: server.adminToken, body: { ...report.examples?.[0], name: `Scheduled ${Date.now()}` } })).body.id;
    }
    const created = await server.request('POST', path, { token: server.adminToken, body: example });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const url = `${path}/${created.body.id}`;
    expect((await server.request('GET', url, { token: tokenB })).status).toBe(404);
    expect((await server.request('PATCH', url, { token: tokenB, body: {} })).status).toBe(404);
    expect((await server.request('DELETE', url, { token: tokenB })).status).toBe(404);
    const list = await server.request('GET', `${path}?size=1000`, { token: tokenB });
    expect(list.body.results.map((row: { id: number }) => row.id)).not.toContain(created.body.id);
    expect((await server.request('GET', url, { token: server.adminToken })).status).toBe(200);
  });

  it('covers every generic resource in the iteration above', () => {
    const iterated = new Set(resourceSchemas.map((schema) => schema.$id));
    for (const resource of genericResources()) expect(iterated).toContain(resource.kind);
  });

  it('refuses group members and groups from another company by id', async () => {
    const [adminA] = (await server.request('GET', '/users/users', { token: server.adminToken })).body.results;
    const answer = await server.request('POST', '/users/groups', { token: tokenB, body: { name: 'Raiders', user_ids: [adminA.id] } });
    expect(answer).toMatchObject({ status: 400, body: { user_ids: [`Invalid pk "${adminA.id}" - object does not exist.`] } });
    const groupsA = (await server.request('GET', '/users/groups', { token: server.adminToken })).body.results;
    const user = await server.request('POST', '/users/users', { token: tokenB, body: { username: 'b.user', group_ids: [groupsA[0].id] } });
    expect(user).toMatchObject({ status: 400, body: { group_ids: [`Invalid pk "${groupsA[0].id}" - object does not exist.`] } });
  });

  it('refuses a domain for a company the caller cannot see', async () => {
    const answer = await server.request('POST', '/companies/domains', { token: tokenB, body: { domain: 'stolen.example', tenant: 1 } });
    expect(answer).toMatchObject({ status: 400, body: { tenant: ['Invalid pk "1" - object does not exist.'] } });
  });
});
