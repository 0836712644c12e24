import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { warmDashboards } from '../../src/server/dashboards/warmDashboards.js';
import { publishSnapshot, snapshotB } from './dashboardsFixtures.js';
import { createUserWithGroups, engines, startTestServer, userPassword, type TestServer } from './harness.js';

describe.each(engines)('the dashboards API on %s', (engine) => {
  let server: TestServer;
  let token: string;
  let defaultId: number;
  beforeAll(async () => {
    server = await startTestServer(engine);
    token = server.adminToken;
    await publishSnapshot(server.context.db, 1, new Date(), 0, snapshotB);
  });
  afterAll(() => server.stop());

  it('creates a default dashboard with laid-out widgets at first start, listed with size 500', async () => {
    const list = await server.request('GET', '/dashboards/dashboards?size=500', { token });
    expect(list.status).toBe(200);
    expect(list.body.results).toHaveLength(1);
    const [overview] = list.body.results;
    expect(overview).toMatchObject({ name: 'Overview', is_default: true, is_public: true, hr_groups: [] });
    defaultId = overview.id;
    const widgets = await server.request('GET', `/dashboards/widgets?dashboard=${defaultId}&size=500`, { token });
    expect(widgets.body.count).toBeGreaterThanOrEqual(8);
    expect(overview.layout.map((tile: { item: string }) => tile.item).sort()).toEqual(widgets.body.results.map((widget: { id: number }) => `widget:${widget.id}`).sort());
    const data = await server.request('GET', `/dashboards/dashboards/${defaultId}/data`, { token });
    expect(data.body.tiles).toHaveLength(widgets.body.count);
    const byOs = data.body.tiles.find((tile: { name: string }) => tile.name === 'Devices by operating system');
    expect(byOs.data.rows[0]).toEqual({ label: 'Windows', value: 3, query: 'OS.Type = "Windows"' });
  });

  it('creates, renames, reorders, lays out and makes a dashboard the default', async () => {
    const created = await server.request('POST', '/dashboards/dashboards', { token, body: { name: 'Coverage', description: 'EDR coverage', is_public: true, groups: [] } });
    expect(created).toMatchObject({ status: 201, body: { name: 'Coverage', is_default: false, created_by: expect.any(Number), layout: [] } });
    const url = `/dashboards/dashboards/${created.body.id}`;
    const renamed = await server.request('PUT', url, { token, body: { name: 'EDR coverage', position: 2, layout: [{ item: 'chart:1', x: 6, y: 0, w: 6, h: 3 }] } });
    expect(renamed.body).toMatchObject({ name: 'EDR coverage', position: 2, layout: [{ item: 'chart:1', x: 6, y: 0, w: 6, h: 3 }], created_by: created.body.created_by });
    await server.request('PATCH', url, { token, body: { is_default: true } });
    const list = await server.request('GET', '/dashboards/dashboards?size=500', { token });
    expect(list.body.results.map((dashboard: { name: string; is_default: boolean }) => [dashboard.name, dashboard.is_default])).toEqual([['Overview', false], ['EDR coverage', true]]);
    // Clearing the flag alone does not leave the company without a default.
    expect((await server.request('PATCH', url, { token, body: { is_default: false } })).body.is_default).toBe(true);
    await server.request('PATCH', `/dashboards/dashboards/${defaultId}`, { token, body: { is_default: true } });
  });

  it('refuses invalid dashboards with field errors', async () => {
    expect(await server.request('POST', '/dashboards/dashboards', { token, body: { description: 'x' } })).toMatchObject({ status: 400, body: { name: ['This field is required.'] } });
    expect(await server.request('POST', '/dashboards/dashboards', { token, body: { name: 'overview' } })).toMatchObject({ status: 400, body: { name: ['A dashboard with this name already exists.'] } });
    expect(await server.request('POST', '/dashboards/dashboards', { token, body: { name: 'X', colour: 'red' } })).toMatchObject({ status: 400, body: { colour: ['Unknown field.'] } });
    expect(await server.request('POST', '/dashboards/dashboards', { token, body: { name: 'X', groups: [99999] } })).toMatchObject({ status: 400, body: { groups: ['Invalid pk "99999" - object does not exist.'] } });
    const badLayout = await server.request('POST', '/dashboards/dashboards', { token, body: { name: 'X', layout: [{ item: 'widget:1', x: 12, y: 0, w: 20, h: 1 }] } });
    expect(badLayout.status).toBe(400);
  });

  it('refuses to delete the default dashboard and deletes another with its charts and widgets', async () => {
    expect((await server.request('DELETE', `/dashboards/dashboards/${defaultId}`, { token })).status).toBe(400);
    const doomed = await server.request('POST', '/dashboards/dashboards', { token, body: { name: 'Doomed' } });
    const widget = await server.request('POST', '/dashboards/widgets', { token, body: { name: 'OS', dashboard: doomed.body.id, kind: 'group_by', field: 'OS.Type' } });
    const chart = await server.request('POST', '/dashboards/charts', { token, body: { name: 'All', dashboard: doomed.body.id, kind: 'number' } });
    expect([widget.status, chart.status]).toEqual([201, 201]);
    expect((await server.request('DELETE', `/dashboards/dashboards/${doomed.body.id}`, { token })).status).toBe(204);
    expect((await server.request('GET', `/dashboards/widgets/${widget.body.id}`, { token })).status).toBe(404);
    expect((await server.request('GET', `/dashboards/charts/${chart.body.id}`, { token })).status).toBe(404);
  });

  it('serves charts with their dashboard and saved query names, filtered by dashboard, and computes them', async () => {
    const saved = await server.request('POST', '/queries/queries', { token, body: { name: 'Windows', text: 'OS.Type = Windows' } });
    const created = await server.request('POST', '/dashboards/charts', { token, body: { name: 'Windows share', dashboard: defaultId, kind: 'score', group_by_query: saved.body.id } });
    expect(created).toMatchObject({ status: 201, body: { dashboard_name: 'Overview', group_by_query_name: 'Windows', inventory: 'device', query: '' } });
    const list = await server.request('GET', `/dashboards/charts?dashboard=${defaultId}`, { token });
    expect(list.body.results.map((chart: { id: number }) => chart.id)).toEqual([created.body.id]);
    expect((await server.request('GET', '/dashboards/charts?dashboard=999999', { token })).body.count).toBe(0);
    const data = await server.request('GET', `/dashboards/charts/${created.body.id}/data`, { token });
    expect(data.body.rows[0]).toMatchObject({ label: 'Score', value: 60, matched: 3, total: 5 });
    expect(await server.request('POST', '/dashboards/charts', { token, body: { name: 'Bad', dashboard: defaultId, kind: 'number', query: 'Hostname = ' } })).toMatchObject({ status: 400, body: { query: [expect.stringContaining('Expected a value')] } });
    expect(await server.request('POST', '/dashboards/charts', { token, body: { name: 'Bad', dashboard: defaultId, kind: 'pie' } })).toMatchObject({ status: 400, body: { kind: ['This is not a valid choice.'] } });
    expect(await server.request('POST', '/dashboards/charts', { token, body: { name: 'Bad', dashboard: 999999, kind: 'number' } })).toMatchObject({ status: 400, body: { dashboard: ['Invalid pk "999999" - object does not exist.'] } });
  });

  it('validates widgets by kind and previews an unsaved one', async () => {
    expect(await server.request('POST', '/dashboards/widgets', { token, body: { name: 'OS', dashboard: defaultId, kind: 'group_by' } })).toMatchObject({ status: 400, body: { field: ['A group-by widget needs the field to group by.'] } });
    expect(await server.request('POST', '/dashboards/widgets', { token, body: { name: 'T', dashboard: defaultId, kind: 'query_trend', saved_queries: [999999] } })).toMatchObject({ status: 400, body: { saved_queries: ['Invalid pk "999999" - object does not exist.'] } });
    expect((await server.request('POST', '/dashboards/widgets', { token, body: { name: 'T', dashboard: defaultId, kind: 'totals', days: 0 } })).status).toBe(400);
    const preview = await server.request('POST', '/dashboards/widgets/preview', { token, body: { name: 'Adapters', dashboard: defaultId, kind: 'group_by', field: 'Adapters', limit: 1 } });
    expect(preview.body).toMatchObject({ display: 'pie', total: 5, rows: [{ label: 'crowdstrike', value: 2, query: 'Adapters = "crowdstrike"' }] });
  });

  it('keeps a tile whose saved query was deleted from failing the rest of the dashboard', async () => {
    const saved = await server.request('POST', '/queries/queries', { token, body: { name: 'Short-lived', text: 'OS.Type = Linux' } });
    const widget = await server.request('POST', '/dashboards/widgets', { token, body: { name: 'Linux trend', dashboard: defaultId, kind: 'query_trend', saved_queries: [saved.body.id] } });
    expect((await server.request('DELETE', `/queries/queries/${saved.body.id}?force=true`, { token })).status).toBe(204);
    const data = await server.request('GET', `/dashboards/dashboards/${defaultId}/data`, { token });
    expect(data.status).toBe(200);
    const tile = data.body.tiles.find((candidate: { id: number }) => candidate.id === widget.body.id);
    expect(tile.error).toEqual({ saved_queries: [`Saved query ${saved.body.id} does not exist.`] });
    expect(data.body.tiles.filter((candidate: { data?: object }) => candidate.data).length).toBeGreaterThan(5);
  });

  it('lets viewers read dashboards but not change them, and shows a private dashboard only to its groups and author', async () => {
    const viewer = await createUserWithGroups(server, token, 'dash.viewer', ['Viewers']);
    const analyst = await createUserWithGroups(server, token, 'dash.analyst', ['Analysts']);
    expect((await server.request('GET', '/dashboards/dashboards?size=500', { token: viewer.token })).status).toBe(200);
    expect((await server.request('GET', `/dashboards/dashboards/${defaultId}/data`, { token: viewer.token })).status).toBe(200);
    expect((await server.request('POST', '/dashboards/dashboards', { token: viewer.token, body: { name: 'Mine' } })).status).toBe(403);
    expect((await server.request('POST', '/dashboards/widgets', { token: viewer.token, body: { name: 'W', dashboard: defaultId, kind: 'totals' } })).status).toBe(403);
    const groups = (await server.request('GET', '/users/groups?size=100', { token })).body.results;
    const analysts = groups.find((group: { name: string }) => group.name === 'Analysts');
    const secret = await server.request('POST', '/dashboards/dashboards', { token, body: { name: 'Analysts only', is_public: false, groups: [analysts.id] } });
    expect(secret.body.hr_groups).toEqual([{ id: analysts.id, name: 'Analysts' }]);
    const names = async (who: string) => (await server.request('GET', '/dashboards/dashboards?size=500', { token: who })).body.results.map((dashboard: { name: string }) => dashboard.name);
    expect(await names(analyst.token)).toContain('Analysts only');
    expect(await names(viewer.token)).not.toContain('Analysts only');
    expect(await names(token)).toContain('Analysts only');
    expect((await server.request('GET', `/dashboards/dashboards/${secret.body.id}`, { token: viewer.token })).status).toBe(404);
    expect((await server.request('GET', `/dashboards/widgets?dashboard=${secret.body.id}`, { token: viewer.token })).body.count).toBe(0);
  });

  it('gives a company created later its own default dashboard and keeps the companies apart', async () => {
    const company = await server.request('POST', '/companies/companies', { token, body: { name: 'Company B' } });
    await server.request('POST', `/companies/companies/${company.body.id}/administrators`, { token, body: { username: 'b.admin', password: userPassword } });
    const tokenB = await server.signIn('b.admin', userPassword);
    const list = await server.request('GET', '/dashboards/dashboards?size=500', { token: tokenB });
    expect(list.body.results.map((dashboard: { name: string; is_default: boolean }) => [dashboard.name, dashboard.is_default])).toEqual([['Overview', true]]);
    expect(list.body.results[0].id).not.toBe(defaultId);
    expect((await server.request('GET', `/dashboards/dashboards/${defaultId}/data`, { token: tokenB })).status).toBe(404);
    expect(await server.request('POST', '/dashboards/widgets', { token: tokenB, body: { name: 'Steal', dashboard: defaultId, kind: 'totals' } })).toMatchObject({ status: 400, body: { dashboard: [`Invalid pk "${defaultId}" - object does not exist.`] } });
    const ownData = await server.request('GET', `/dashboards/dashboards/${list.body.results[0].id}/data`, { token: tokenB });
    const totals = ownData.body.tiles.find((tile: { data: { kind: string } }) => tile.data?.kind === 'totals');
    expect(totals.data).toMatchObject({ rows: [], message: expect.stringContaining('No discovery has completed yet') });
  });

  /**
   * A new company with a published snapshot whose dashboards were computed ahead; then one of its devices removed
   * behind the cache's back. Published snapshots never change, so cached results never read their rows again: a
   * first load that counts three Windows devices was computed ahead, one that counts two was computed now.
   */
  async function warmedCompany(name: string, username: string) {
    const company = await server.request('POST', '/companies/companies', { token, body: { name } });
    await server.request('POST', `/companies/companies/${company.body.id}/administrators`, { token, body: { username, password: userPassword } });
    const companyToken = await server.signIn(username, userPassword);
    const [overview] = (await server.request('GET', '/dashboards/dashboards?size=500', { token: companyToken })).body.results;
    const snapshot = await publishSnapshot(server.context.db, company.body.id, new Date(), 0, snapshotB);
    await warmDashboards(server.context, company.body.id);
    await server.context.db.query("delete from snapshot_assets where discovery_id = $1 and asset_id = 'd5'", [snapshot]);
    return { companyId: company.body.id as number, token: companyToken, dataUrl: `/dashboards/dashboards/${overview.id}/data` };
  }
  const windowsCount = (tiles: { name: string; data: { rows: object[] } }[]) => tiles.find((tile) => tile.name === 'Devices by operating system')!.data.rows[0];
  const computedAhead = { label: 'Windows', value: 3, query: 'OS.Type = "Windows"' };

  it('computes a company\'s dashboards ahead once a discovery has published, so the first load reads them', async () => {
    const company = await warmedCompany('Company W', 'w.admin');
    const data = await server.request('GET', company.dataUrl, { token: company.token });
    expect(windowsCount(data.body.tiles)).toEqual(computedAhead);
  });

  it('answers the first load of a restarted server from the results stored by the process that warmed them', async () => {
    const company = await warmedCompany('Company R', 'r.admin');
    const { db } = server.context;
    const stored = () => db.query<{ cache_key: string }>('select cache_key from widget_results where company_id = $1', [company.companyId]);
    expect((await stored()).length).toBeGreaterThan(0);
    // A fresh copy of every module is a restarted server: nothing of the first one's memory is left.
    vi.resetModules();
    const { startCartograph } = await import('../../src/server/server.js');
    const restarted = await startCartograph(server.config, { logger: false, database: db });
    try {
      const data = await restarted.app.inject({ method: 'GET', url: company.dataUrl, headers: { authorization: `Bearer ${company.token}` } });
      expect(windowsCount(data.json().tiles)).toEqual(computedAhead);
    } finally {
      await restarted.app.close();
      restarted.discoveries.stop();
      await restarted.context.jobs.stop();
    }
    // A newer publish makes the stored results of the older data go.
    const before = await stored();
    await publishSnapshot(db, company.companyId, new Date(), 0, snapshotB);
    await warmDashboards(server.context, company.companyId);
    const after = await stored();
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((row) => before.some((old) => old.cache_key === row.cache_key))).toEqual([]);
  });
});
