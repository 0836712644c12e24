import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteDefinition } from '../../src/server/http/routes.js';
import { engines, startTestServer, userPassword, type TestServer } from './harness.js';
import { globalParameterPrefixes, prefixOf, publishInventory, seedCompanyA, type OwnedIds } from './tenancyFixtures.js';

// The route table, not a list of resources: every route that names an id in its path is called by company B's
// administrator with company A's id, with a body its schema accepts (so the refusal is the lookup's, not the
// validator's). Each must answer 404 or 403, and A's things must read the same afterwards. Ids inside bodies follow.

const refusals = [403, 404];
// A connector's job calls answer 409 "no longer yours" to a job of another connector: refused, nothing told.
const connectorJobRefusals = [409];

describe.each(engines)('company B naming company A\'s ids on %s', (engine) => {
  let server: TestServer;
  let tokenB: string;
  let connectorTokenB: string;
  let owned: OwnedIds;
  let idRoutes: RouteDefinition[];

  beforeAll(async () => {
    server = await startTestServer(engine);
    owned = await seedCompanyA(server);
    const companyB = (await server.request('POST', '/companies/companies', { token: server.adminToken, body: { name: 'Company B' } })).body.id;
    const administrator = await server.request('POST', `/companies/companies/${companyB}/administrators`, { token: server.adminToken, body: { username: 'b.admin', password: userPassword } });
    expect(administrator.status).toBe(201);
    tokenB = await server.signIn('b.admin', userPassword);
    // B has an inventory of its own, so its lookups reach the snapshot and fail only on A's ids.
    await publishInventory(server, companyB, 'B');
    connectorTokenB = (await server.request('POST', '/connectors/connectors', { token: tokenB, body: { name: 'B plant' } })).body.token;
    expect(connectorTokenB).toEqual(expect.any(String));
    idRoutes = server.app.routeCatalogue.definitions.filter((definition) => definition.url.includes('/:'));
  }, 240_000);
  afterAll(() => server.stop());

  const concreteUrl = (definition: RouteDefinition) =>
    definition.url.replace(/:id\b/, encodeURIComponent(String(owned.ids.get(prefixOf(definition))))).replace(/:format\b/, 'csv');
  /** A's reads of its own things, by path: what B's calls must leave as they were. */
  const readsOfA = async () => {
    const reads = new Map<string, unknown>();
    for (const definition of idRoutes.filter((candidate) => candidate.method === 'GET' && candidate.access !== 'public' && /\/:id$/.test(candidate.url))) {
      if (globalParameterPrefixes.has(prefixOf(definition))) continue;
      const answer = await server.request('GET', concreteUrl(definition), { token: server.adminToken });
      reads.set(definition.url, { status: answer.status, body: answer.body });
    }
    for (const list of ['/api/tokens', '/avm/findings?size=100', '/devices/merge-recommendations?size=100', '/reports/reports/' + owned.reportId + '/runs']) {
      reads.set(list, (await server.request('GET', list, { token: server.adminToken })).body);
    }
    reads.set('connector job', await server.context.db.query('select state, attempt, records_received, batches_received, error from connector_jobs where id = $1', [owned.ids.get('/connectors/api/jobs')]));
    return reads;
  };

  it('knows an id of company A for every route that takes one', () => {
    const unknown = idRoutes.filter((definition) => !globalParameterPrefixes.has(prefixOf(definition)) && !owned.ids.has(prefixOf(definition)));
    expect(unknown.map((definition) => `${definition.method} ${definition.url}`)).toEqual([]);
    expect(idRoutes.length).toBeGreaterThan(80);
  });

  it('answers 404 or 403 to every route naming an id of company A, and changes nothing of A\'s', async () => {
    const before = await readsOfA();
    expect([...before.values()].filter((read) => (read as { status?: number }).status !== undefined && (read as { status: number }).status !== 200)).toEqual([]);
    // Deletions last, so a delete that went through cannot hide behind the reads before it.
    const ordered = [...idRoutes].sort((left, right) => Number(left.method === 'DELETE') - Number(right.method === 'DELETE'));
    const wrong: string[] = [];
    for (const definition of ordered) {
      if (globalParameterPrefixes.has(prefixOf(definition))) continue;
      const key = `${definition.method} ${definition.url}`;
      const connectorCall = definition.url.startsWith('/connectors/api/');
      const body = owned.bodies.get(key) ?? (definition.body === 'cartograph:api/inventory-detail' ? { index_id: owned.discoveryId } : ['GET', 'DELETE'].includes(definition.method) ? undefined : {});
      const answer = await server.request(definition.method, concreteUrl(definition), {
        body,
        ...(connectorCall ? { headers: { authorization: `Bearer ${connectorTokenB}` } } : definition.access === 'public' ? {} : { token: tokenB }),
      });
      const allowed = connectorCall ? connectorJobRefusals : definition.access === 'public' ? [400, 401, 403, 404] : refusals;
      if (!allowed.includes(answer.status)) wrong.push(`${key}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
    }
    expect(wrong).toEqual([]);
    const after = await readsOfA();
    for (const [path, read] of before) expect(after.get(path), path).toEqual(read);
  });

  describe('ids inside bodies', () => {
    const expectRefused = (answer: { status: number; body: unknown }, what: string) => expect([400, 403, 404], `${what}: ${JSON.stringify(answer.body)}`).toContain(answer.status);
    const postB = (url: string, body: unknown) => server.request('POST', url, { token: tokenB, body });

    it('refuses a ticket action naming a connection of company A, telling nothing about it', async () => {
      // A's connection is Jira: a lookup without the company would add "needs the project key".
      const answer = await postB('/actions/actions', {
        name: 'Raid', trigger: 'manual', scope: { entity: 'device', query: '' }, type: 'ticket',
        parameters: { connection: owned.jiraConnectionId, summary_template: 'x', description_template: 'x' },
      });
      expect(answer).toMatchObject({ status: 400 });
      expect(answer.body).toEqual({ 'parameters.connection': ['Choose a Jira or ServiceNow connection of this company.'] });
    });

    it('refuses dashboards, charts and widgets naming company A\'s dashboards and saved queries', async () => {
      const dashboardB = (await postB('/dashboards/dashboards', { name: 'B board' })).body.id;
      expect(dashboardB).toEqual(expect.any(Number));
      expectRefused(await postB('/dashboards/charts', { name: 'Onto A', dashboard: owned.dashboardId, kind: 'score', inventory: 'device', query: '' }), 'chart on A\'s dashboard');
      expectRefused(await postB('/dashboards/charts', { name: 'A query', dashboard: dashboardB, kind: 'score', inventory: 'device', query: '', group_by_query: owned.savedQueryId }), 'chart with A\'s saved query');
      expectRefused(await postB('/dashboards/widgets', { name: 'Onto A', dashboard: owned.dashboardId, kind: 'group_by', field: 'OS.Type' }), 'widget on A\'s dashboard');
      expectRefused(await postB('/dashboards/dashboards', { name: 'A groups', groups: [owned.groupId] }), 'dashboard shared with A\'s group');
    });

    it('refuses reports, schedules and runs naming company A\'s saved queries, reports and snapshots', async () => {
      const section = { type: 'table', title: 'A', inventory: 'device', saved_query: owned.savedQueryId, columns: ['Hostname'], limit: 10 };
      expectRefused(await postB('/reports/reports', { name: 'A query', format: 'csv', sections: [section] }), 'report with A\'s saved query');
      expectRefused(await postB('/reports/reports', { name: 'A snapshot', format: 'csv', index_id: owned.discoveryId, sections: [{ type: 'text', title: 'x', markdown: 'x' }] }), 'report of A\'s snapshot');
      expectRefused(await postB('/reports/schedules', { name: 'A report', report: owned.reportId, preset: 'weekly', weekday: 1, time: '08:00', timezone: 'UTC', formats: ['csv'], recipients: ['b@example.com'] }), 'schedule of A\'s report');
      const reportB = (await postB('/reports/reports', { name: 'B report', format: 'csv', sections: [{ type: 'text', title: 'x', markdown: 'x' }] })).body.id;
      expectRefused(await postB(`/reports/reports/${reportB}/run`, { formats: ['csv'], index_id: owned.discoveryId }), 'run of A\'s snapshot');
    });

    it('refuses queries, searches and exports naming company A\'s saved queries and snapshots', async () => {
      expectRefused(await postB('/queries/queries', { name: 'Nested', type: 'device', text: `Query is ${owned.savedQueryId}` }), 'saved query nesting A\'s');
      expectRefused(await postB('/devices/devices', { index_id: owned.discoveryId }), 'search of A\'s snapshot');
      expectRefused(await postB('/devices/devices', { query: `Query is ${owned.savedQueryId}` }), 'search with A\'s saved query');
      expectRefused(await postB('/devices/export', { format: 'csv', fields: ['Hostname'], index_id: owned.discoveryId }), 'export of A\'s snapshot');
    });

    it('refuses users, groups, connections and action runs naming company A\'s rows', async () => {
      expectRefused(await postB('/users/groups', { name: 'Raiders', user_ids: [owned.userId] }), 'group with A\'s user');
      expectRefused(await postB('/users/users', { username: 'b.raider', group_ids: [owned.groupId] }), 'user in A\'s group');
      const connector = owned.ids.get('/connectors/connectors');
      expectRefused(await postB('/adapters/connections', { adapter: 'csvfile', name: 'Through A', connector, option_connections: [{ name: 'entity', typed_value: 'device' }] }), 'connection through A\'s connector');
      const actionB = (await postB('/actions/actions', { name: 'B dry run', trigger: 'manual', scope: { entity: 'device', query: '' }, type: 'webhook', parameters: { url: 'https://hooks.example.com/b', body_template: '{}', batch_size: 1 } })).body.id;
      expect(actionB).toEqual(expect.any(Number));
      expectRefused(await postB(`/actions/actions/${actionB}/run`, { rerun_of: owned.ids.get('/actions/runs') }), 'rerun of A\'s run');
    });
  });
});
