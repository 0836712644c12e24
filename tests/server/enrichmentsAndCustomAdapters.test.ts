import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithGroups, engines, startTestServer, userPassword, type TestServer } from './harness.js';

// The two lists the console loads at start-up besides the catalogue (spec §7): the AVM's enrichment feeds and the
// company's custom adapters, paginated like every list of the reference API.
describe.each(engines)('enrichments and custom adapters on %s', (engine) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(() => server.stop());

  const addCustomAdapter = (companyId: number, slug: string, name: string) =>
    server.context.db.query("insert into custom_adapters (company_id, slug, name, categories) values ($1, $2, $3, '{device}')", [companyId, slug, name]);

  it('lists the five feeds the AVM imports (OSV advisories included), never imported until their first import, and the OS lifecycle feed from its bundled snapshot', async () => {
    const answer = await server.request('GET', '/avm/enrichments?page=1&size=1000', { token: server.adminToken });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ count: 6, next: null, previous: null });
    expect(answer.body.results.map((row: { slug: string; name: string }) => [row.slug, row.name])).toEqual([
      ['nvd-cve', 'NVD CVE'], ['cisa-kev', 'CISA KEV'], ['first-epss', 'FIRST EPSS'], ['nvd-cpe', 'NVD CPE dictionary'], ['endoflife-date', 'endoflife.date OS lifecycle'], ['osv', 'OSV advisories'],
    ]);
    for (const row of answer.body.results.slice(0, 4)) expect(row).toMatchObject({ status: 'never_imported', record_count: 0, last_imported_at: null });
    expect(answer.body.results[4]).toMatchObject({ status: 'imported', record_count: 545 });
    expect(answer.body.results[5]).toMatchObject({ status: 'never_imported', record_count: 0, last_imported_at: null });
  });

  it('reports what an import stored, and searches and pages the feeds', async () => {
    await server.context.db.query("update enrichments set status = 'imported', record_count = 1484, last_imported_at = '2026-11-20T08:00:00Z' where slug = 'cisa-kev'");
    const kev = await server.request('GET', '/avm/enrichments?search=kev', { token: server.adminToken });
    expect(kev.body.count).toBe(1);
    expect(kev.body.results[0]).toMatchObject({ slug: 'cisa-kev', status: 'imported', record_count: 1484 });
    expect(new Date(kev.body.results[0].last_imported_at).toISOString()).toBe('2026-11-20T08:00:00.000Z');
    const firstPage = await server.request('GET', '/avm/enrichments?size=2&ordering=-name', { token: server.adminToken });
    expect(firstPage.body.results.map((row: { slug: string }) => row.slug)).toEqual(['osv', 'nvd-cve']);
    expect(firstPage.body.next).toMatch(/page=2/);
    expect((await server.request('GET', '/avm/enrichments?ordering=secret', { token: server.adminToken })).status).toBe(400);
  });

  it('answers an empty page of custom adapters until one is defined', async () => {
    const answer = await server.request('GET', '/customs/adapters?page=1&size=1000', { token: server.adminToken });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ count: 0, next: null, previous: null, results: [] });
  });

  it('lists a company its own custom adapters, marked custom with status done, within the adapters its groups grant', async () => {
    const company = await server.request('POST', '/companies/companies', { token: server.adminToken, body: { name: 'Other company' } });
    await addCustomAdapter(1, 'inhouse-cmdb', 'In-house CMDB');
    await addCustomAdapter(company.body.id, 'their-export', 'Their export');
    const answer = await server.request('GET', '/customs/adapters', { token: server.adminToken });
    expect(answer.body.count).toBe(1);
    expect(answer.body.results[0]).toMatchObject({ name: 'In-house CMDB', slug: 'inhouse-cmdb', custom: true, status: 1, categories: ['device'], groups: [], beta: false });

    await server.request('POST', `/companies/companies/${company.body.id}/administrators`, { token: server.adminToken, body: { username: 'other.admin', password: userPassword } });
    const theirs = await server.request('GET', '/customs/adapters', { token: await server.signIn('other.admin', userPassword) });
    expect(theirs.body.results.map((row: { slug: string }) => row.slug)).toEqual(['their-export']);

    const permissions = await server.request('GET', '/users/permissions?size=1000', { token: server.adminToken });
    const viewData = permissions.body.results.find((permission: { app: string; codename: string }) => permission.app === 'customs' && permission.codename === 'view_data');
    await server.request('POST', '/users/groups', { token: server.adminToken, body: { name: 'CSV only', permissions: [viewData.id], adapters: ['csvfile'] } });
    const restricted = await createUserWithGroups(server, server.adminToken, 'csv.only', ['CSV only']);
    const restrictedList = await server.request('GET', '/customs/adapters', { token: restricted.token });
    expect(restrictedList.status).toBe(200);
    expect(restrictedList.body.count).toBe(0);
  });
});
