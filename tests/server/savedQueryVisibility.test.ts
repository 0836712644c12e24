import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inventorySchemas } from '../../src/server/inventory/indexedFields.js';
import { buildSnapshotIndex } from '../../src/server/inventory/snapshotIndex.js';
import { rescoreLatestSnapshot } from '../../src/server/security/rescore.js';
import { publishSnapshot } from './dashboardsFixtures.js';
import { createUserWithGroups, engines, startTestServer, type TestServer } from './harness.js';

// `Query is <id>` expands only the saved queries the caller may read (public ones and their own) wherever query text
// is compiled; background work reads as the owner of what runs. A saved query something uses is deleted only when
// the caller says so (409 naming its users otherwise).

describe.each(engines)('saved queries respect visibility on %s', (engine) => {
  let server: TestServer;
  let admin: string;
  let other: { id: number; token: string };
  let privateId: number;
  let publicId: number;
  let dashboard: number;

  beforeAll(async () => {
    server = await startTestServer(engine);
    admin = server.adminToken;
    await publishSnapshot(server.context.db, 1, new Date(), 0, [
      { entity: 'device', id: 'd1', fields: { Hostname: ['ws-1'], 'OS.Type': ['Windows'] } },
      { entity: 'device', id: 'd2', fields: { Hostname: ['srv-1'], 'OS.Type': ['Linux'] } },
    ]);
    other = await createUserWithGroups(server, admin, 'other-analyst', ['Administrators']);
    const mine = await server.request('POST', '/queries/queries', { token: admin, body: { name: 'Admin windows', text: 'OS.Type = Windows', is_public: false } });
    const shared = await server.request('POST', '/queries/queries', { token: admin, body: { name: 'Shared linux', text: 'OS.Type = Linux', is_public: true } });
    expect([mine.status, shared.status]).toEqual([201, 201]);
    privateId = mine.body.id;
    publicId = shared.body.id;
    dashboard = (await server.request('POST', '/dashboards/dashboards', { token: admin, body: { name: 'Shared board', is_public: true, groups: [] } })).body.id;
  });
  afterAll(() => server.stop());

  const missing = (id: number) => [`Saved query ${id} does not exist.`];

  it('expands another user\'s private query nowhere, and public or own queries everywhere', async () => {
    const search = (token: string, query: string) => server.request('POST', '/devices/devices', { token, body: { query, size: 10 } });
    expect(await search(admin, `Query is ${privateId}`)).toMatchObject({ status: 200, body: { count: 1 } });
    expect(await search(other.token, `Query is ${privateId}`)).toMatchObject({ status: 400, body: { query: missing(privateId) } });
    expect(await search(other.token, `Query is ${publicId}`)).toMatchObject({ status: 200, body: { count: 1 } });
    // Nor through a public query of the other user's that names it, nor in a query, chart, widget or policy they save.
    expect(await server.request('POST', '/queries/queries', { token: other.token, body: { name: 'Wrapped', text: `Query is ${privateId} OR Hostname = x` } }))
      .toMatchObject({ status: 400, body: { text: missing(privateId) } });
    expect(await server.request('POST', '/dashboards/widgets/preview', { token: other.token, body: { name: 'W', dashboard, kind: 'group_by', field: 'OS.Type', query: `Query is ${privateId}` } }))
      .toMatchObject({ status: 400, body: { query: missing(privateId) } });
    expect(await server.request('POST', '/dashboards/charts', { token: other.token, body: { name: 'C', dashboard, kind: 'number', group_by_query: privateId } }))
      .toMatchObject({ status: 400, body: { group_by_query: [expect.stringContaining('does not exist')] } });
    expect(await server.request('POST', '/securitymanager/security-policies', { token: other.token, body: { name: 'P', query: `Query is ${privateId}`, severity: 'low' } }))
      .toMatchObject({ status: 400, body: { query: missing(privateId) } });
    expect(await server.request('POST', '/devices/export', { token: other.token, body: { query: `Query is ${privateId}`, fields: ['Hostname'], format: 'csv' } }))
      .toMatchObject({ status: 400 });
  });

  it('computes a shared dashboard\'s tile for each viewer with the queries that viewer may read', async () => {
    const chart = await server.request('POST', '/dashboards/charts', { token: admin, body: { name: 'Admin windows count', dashboard, kind: 'number', group_by_query: privateId } });
    expect(chart.status).toBe(201);
    expect((await server.request('GET', `/dashboards/charts/${chart.body.id}/data`, { token: admin })).body.rows[0]).toMatchObject({ value: 1 });
    // The owner's result is cached: the other viewer must not be answered from it.
    expect(await server.request('GET', `/dashboards/charts/${chart.body.id}/data`, { token: other.token })).toMatchObject({ status: 400, body: { query: missing(privateId) } });
    const tiles = await server.request('GET', `/dashboards/dashboards/${dashboard}/data`, { token: other.token });
    expect(tiles.body.tiles.find((tile: { id: number }) => tile.id === chart.body.id).error).toEqual({ query: missing(privateId) });
    await server.request('DELETE', `/dashboards/charts/${chart.body.id}`, { token: admin });
  });

  it('scores a policy with the saved queries of the user who saved it', async () => {
    const policy = await server.request('POST', '/securitymanager/security-policies', { token: admin, body: { name: 'Windows only', query: `Query is ${privateId}`, severity: 'low', enabled: true } });
    expect(policy.status).toBe(201);
    expect(policy.body).not.toHaveProperty('owner_id');
    const db = server.context.db;
    // The other inventories' index, then the scores, as the publish does (pipeline.ts). Saving the policy queued a
    // rescore of the latest snapshot (rescore.ts), which may pick this one up too: scoring as that job does takes
    // its lock and replaces its scores rather than writing them a second time.
    const score = async () => {
      const id = await publishSnapshot(db, 1, new Date(), 0, [{ entity: 'device', id: 'd1', fields: { Hostname: ['ws-1'], 'OS.Type': ['Windows'] } }]);
      await buildSnapshotIndex(db, id, Object.keys(inventorySchemas).filter((entity) => entity !== 'device'));
      expect(await rescoreLatestSnapshot(db, 1)).toBe(id);
      return id;
    };
    const discoveryId = await score();
    const [result] = await db.query<{ error: string | null; applicable: number }>('select error, applicable from security_policy_results where discovery_id = $1 and policy_id = $2', [discoveryId, policy.body.id]);
    expect(result).toMatchObject({ error: null, applicable: 1 });
    // Saved by a user who may not read the query (as a document from before owners were kept would be): it fails.
    await db.query("update resources set document = document || jsonb_build_object('owner_id', $2::int) where id = $1", [policy.body.id, other.id]);
    const next = await score();
    const [refused] = await db.query<{ error: string | null }>('select error from security_policy_results where discovery_id = $1 and policy_id = $2', [next, policy.body.id]);
    expect(refused.error).toContain(`Saved query ${privateId} does not exist.`);
    await server.request('DELETE', `/securitymanager/security-policies/${policy.body.id}`, { token: admin });
  });

  it('refuses a self-reference, a chain too deep and a fan-out of saved queries early, with a 400', async () => {
    const db = server.context.db;
    const insert = async (text: string) =>
      (await db.query<{ id: number }>("insert into resources (kind, company_id, document) values ('cartograph:entities/saved-query', 1, $1) returning id", [JSON.stringify({ name: `q${Math.random()}`, text, is_public: true })]))[0].id;
    // Stored rows a check would have refused (written before the checks, or by hand): expansion still refuses them.
    const [{ id: selfId }] = await db.query<{ id: number }>("select nextval(pg_get_serial_sequence('resources', 'id'))::int as id");
    await db.query("insert into resources (id, kind, company_id, document) values ($1, 'cartograph:entities/saved-query', 1, $2)", [selfId, JSON.stringify({ name: 'Self', text: `Query is ${selfId}`, is_public: true })]);
    const search = (query: string) => server.request('POST', '/devices/devices', { token: admin, body: { query, size: 1 } });
    expect(await search(`Query is ${selfId}`)).toMatchObject({ status: 400, body: { query: [expect.stringContaining('refers to itself')] } });
    // Each query names the next twice: 2^9 leaves when expanded naively, past the limit of 200 conditions.
    let fanned = await insert('OS.Type = Windows');
    for (let level = 0; level < 9; level += 1) fanned = await insert(`Query is ${fanned} OR Query is ${fanned}`);
    expect(await search(`Query is ${fanned}`)).toMatchObject({ status: 400, body: { query: [expect.stringContaining('at most 200 conditions')] } });
    let chained = await insert('OS.Type = Windows');
    for (let level = 0; level < 12; level += 1) chained = await insert(`Query is ${chained}`);
    expect(await search(`Query is ${chained}`)).toMatchObject({ status: 400, body: { query: [expect.stringContaining('deep')] } });
  });

  it('deletes a saved query something uses only when told to, naming its users otherwise', async () => {
    const query = await server.request('POST', '/queries/queries', { token: admin, body: { name: 'Laptops', text: 'OS.Type = Windows', is_public: true } });
    const id = query.body.id;
    const action = await server.request('POST', '/actions/actions', {
      token: admin, body: { name: 'Isolate laptops', trigger: 'manual', type: 'tag', scope: { entity: 'device', saved_query: id }, parameters: { operation: 'add', tags: ['isolated'] } },
    });
    expect(action.status).toBe(201);
    const report = await server.request('POST', '/reports/reports', { token: admin, body: { name: 'Weekly', sections: [{ type: 'table', title: 'Laptops', inventory: 'device', query: `Query is ${id} AND Hostname = ws-*` }] } });
    expect(report.status).toBe(201);
    const widget = await server.request('POST', '/dashboards/widgets', { token: admin, body: { name: 'Laptop trend', dashboard, kind: 'query_trend', saved_queries: [id] } });
    expect(widget.status).toBe(201);
    const refused = await server.request('DELETE', `/queries/queries/${id}`, { token: admin });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain("the action 'Isolate laptops'");
    expect(refused.body.detail).toContain("the report 'Weekly'");
    expect(refused.body.detail).toContain("the widget 'Laptop trend'");
    expect(refused.body.code).toBe('saved_query_in_use');
    expect((await server.request('GET', `/queries/queries/${id}`, { token: admin })).status).toBe(200);
    expect((await server.request('DELETE', `/queries/queries/${id}?force=maybe`, { token: admin })).status).toBe(400);
    expect((await server.request('DELETE', `/queries/queries/${id}?force=true`, { token: admin })).status).toBe(204);
    expect((await server.request('GET', `/queries/queries/${id}`, { token: admin })).status).toBe(404);
    // An unused query goes without being told.
    const unused = await server.request('POST', '/queries/queries', { token: admin, body: { name: 'Unused', text: 'Hostname = x' } });
    expect((await server.request('DELETE', `/queries/queries/${unused.body.id}`, { token: admin })).status).toBe(204);
  });
});
