import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueAdapter } from '../../src/server/adapters/catalogue.js';
import type { AdapterEngine, FetchedRecord } from '../../src/server/adapters/engine.js';
import { createAdapterRuntime } from '../../src/server/adapters/runtime.js';
import { computeWidget, widgetSettingsOf } from '../../src/server/dashboards/computeWidget.js';
import { loadMigrations, migrate } from '../../src/server/db/migrate.js';
import { runDiscoveryAndWait } from './discoveryFleet.js';
import { engines, openScratchDatabase, startTestServer, type TestServer } from './harness.js';
import { createReport } from './reportsSupport.js';

// A source whose inventory grows by one device per discovery: discovery n (from 1) reports n + 1 devices and one
// user, so each snapshot's counts say which discovery it was.
let devicesNext = 2;
const growingEngine: AdapterEngine = {
  name: 'growing',
  test: async () => ({ ok: true, detail: 'growing' }),
  async *fetch() {
    for (let index = 0; index < devicesNext; index += 1) {
      yield { entity: 'device', fields: { Hostname: `host-${index}`, SerialNumber: `serial-${index}` }, raw: { id: `host-${index}` } } satisfies FetchedRecord;
    }
    yield { entity: 'user', fields: { Username: 'only.user' }, raw: { id: 'only.user' } } satisfies FetchedRecord;
  },
};
const catalogue = new Map<string, CatalogueAdapter>([
  ['growing', { name: 'Growing', slug: 'growing', description: '', groups: [], categories: ['device', 'user'], engine: 'growing', connectionSchemaId: 'none', secretFields: new Set(), hasManifest: false }],
]);

const discoveries = 12;
const kept = 10;

describe.each(engines)('pruned snapshots on %s', (engine) => {
  let server: TestServer;
  const ids: number[] = [];

  beforeAll(async () => {
    server = await startTestServer(engine, {}, { adapters: createAdapterRuntime({ growing: growingEngine }, catalogue) });
    const saved = await server.request('PUT', '/configurations/discovery-settings', { token: server.adminToken, body: { concurrency: 1, connection_timeout_minutes: 30, snapshots_to_keep: kept } });
    expect(saved.status).toBe(200);
    await server.context.db.query(
      "insert into connections (company_id, adapter, name, connector_id, config) values (1, 'growing', 'Growing', (select id from connectors where company_id = 1 and is_default), '{}')",
    );
    for (let run = 1; run <= discoveries; run += 1) {
      devicesNext = run + 1;
      const done = await runDiscoveryAndWait(server);
      expect(done.state).toBe('done');
      ids.push(done.id);
    }
    // The prune follows the publish that made the snapshots old: wait until the two oldest have lost their rows.
    const pruned = ids.slice(0, discoveries - kept);
    const left = async () => (await server.context.db.query<{ count: number }>('select count(*)::int as count from snapshot_assets where discovery_id = any($1::int[])', [pruned]))[0].count;
    for (let waited = 0; waited < 20_000 && (await left()) > 0; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await left()).toBe(0);
  }, 240_000);
  afterAll(() => server.stop());

  const prunedAnswer = { status: 404, body: { detail: "This discovery's data was pruned.", code: 'snapshot_pruned' } };
  const missingAnswer = { status: 404, body: { detail: 'Not found.' } };

  it("answers a pruned snapshot's index with a 404 that says it was pruned, in the lists and the details", async () => {
    const token = server.adminToken;
    const [first] = ids;
    const devices = await server.request('POST', '/devices/devices', { token, body: { index_id: ids[2] } });
    expect(devices).toMatchObject({ status: 200, body: { count: 4 } });
    const id = devices.body.results[0].PrimaryKey[0];

    expect(await server.request('POST', '/devices/devices', { token, body: { index_id: first } })).toMatchObject(prunedAnswer);
    expect(await server.request('POST', `/devices/devices/${id}`, { token, body: { index_id: first } })).toMatchObject(prunedAnswer);
    expect(await server.request('POST', '/userinventory/users', { token, body: { index_id: ids[1] } })).toMatchObject(prunedAnswer);
    expect(await server.request('GET', `/devices/relations?index_id=${first}`, { token })).toMatchObject(prunedAnswer);
    expect(await server.request('GET', `/appinventory/installations?index_id=${first}`, { token })).toMatchObject(prunedAnswer);
    expect(await server.request('POST', '/appinventory/applications', { token, body: { index_id: first } })).toMatchObject(prunedAnswer);
    expect(await server.request('GET', `/securitymanager/devices/${id}/score?index_id=${first}`, { token })).toMatchObject(prunedAnswer);

    // The discovery itself is still listed, marked as pruned; the kept ones are not.
    const read = await server.request('GET', `/discoveries/discoveries/${first}`, { token });
    expect(read).toMatchObject({ status: 200, body: { id: first, status: 'done', pruned_at: expect.any(String) } });
    expect((await server.request('GET', `/discoveries/discoveries/${ids[2]}`, { token })).body.pruned_at).toBeNull();
  });

  it('refuses to report on a pruned snapshot or compare with one, and never takes one as the snapshot before', async () => {
    const devices = { type: 'table', title: 'Devices', inventory: 'device', columns: ['Hostname'] };
    const since = (compareTo?: number) => ({ type: 'comparison', title: 'Since', inventory: 'device', columns: ['Hostname'], ...(compareTo && { compare_to: compareTo }) });
    const reportId = await createReport(server, { name: 'Pruned', is_public: true, sections: [devices] });
    const run = await server.request('POST', `/reports/reports/${reportId}/run`, { token: server.adminToken, body: { formats: ['csv'], index_id: ids[0] } });
    expect(run).toMatchObject({ status: 400, body: { index_id: [`Snapshot ${ids[0]}'s data was pruned: choose a snapshot that is kept.`] } });
    const pruned = await server.request('POST', '/reports/preview', { token: server.adminToken, body: { name: 'Pruned', sections: [since(ids[1])] } });
    expect(pruned.body.sections[0]).toMatchObject({ error: `Snapshot ${ids[1]}'s data was pruned: compare with a snapshot that is kept.` });
    // The oldest kept snapshot has only pruned ones before it: nothing to compare with, rather than "everything appeared".
    const oldestKept = await server.request('POST', '/reports/preview', { token: server.adminToken, body: { name: 'Pruned', index_id: ids[2], sections: [since()] } });
    expect(oldestKept.body.sections[0]).toMatchObject({ error: 'There is no earlier snapshot to compare with.' });
  });

  it('answers an index that never existed with the plain 404', async () => {
    const token = server.adminToken;
    const never = ids.at(-1)! + 1000;
    expect(await server.request('POST', '/devices/devices', { token, body: { index_id: never } })).toMatchObject(missingAnswer);
    expect(await server.request('POST', '/devices/devices/host-0', { token, body: { index_id: never } })).toMatchObject(missingAnswer);
    expect(await server.request('GET', `/devices/relations?index_id=${never}`, { token })).toMatchObject(missingAnswer);
    expect((await server.request('POST', '/devices/devices', { token, body: { index_id: never } })).body.detail).not.toMatch(/pruned/);
  });

  it('keeps a point per discovery in the trend, with the counts each snapshot had', async () => {
    const data = await computeWidget({ db: server.context.db, companyId: 1, userId: null, now: new Date() }, widgetSettingsOf({ kind: 'trend', days: 30 }));
    const series = (label: string) => data.rows.filter((row) => row.series === label).map((row) => [row.index_id, row.value]);
    expect(series('Devices')).toEqual(ids.map((id, index) => [id, index + 2]));
    expect(series('Users')).toEqual(ids.map((id) => [id, 1]));

    // An "all records" history is the same count; the totals read it too.
    const history = await computeWidget({ db: server.context.db, companyId: 1, userId: null, now: new Date() }, widgetSettingsOf({ kind: 'query_historical', days: 30 }));
    expect(history.rows.map((row) => [row.index_id, row.value])).toEqual(ids.map((id, index) => [id, index + 2]));
    // A query's count needs the snapshot's rows: a pruned snapshot leaves a gap in its line, not a false zero.
    const queried = await computeWidget({ db: server.context.db, companyId: 1, userId: null, now: new Date() }, widgetSettingsOf({ kind: 'query_historical', query: 'Hostname = *', days: 30 }));
    expect(queried.rows.map((row) => [row.index_id, row.value])).toEqual(ids.map((id, index) => [id, index + 2]).slice(discoveries - kept));
  });

  it("follows an analyst's merge in the latest snapshot's point, and refuses to merge in a pruned one", async () => {
    const token = server.adminToken;
    const latest = ids.at(-1)!;
    const devices = await server.request('POST', '/devices/devices', { token, body: { size: 2, ordering: [{ field: 'Hostname' }] } });
    const pair = devices.body.results.map((row: { PrimaryKey: string[] }) => row.PrimaryKey[0]);
    expect(await server.request('POST', '/devices/merge', { token, body: { assets: pair, index_id: ids[0] } })).toMatchObject(prunedAnswer);
    expect(await server.request('POST', '/devices/merge', { token, body: { assets: pair } })).toMatchObject({ status: 200, body: { index_id: latest } });
    const data = await computeWidget({ db: server.context.db, companyId: 1, userId: null, now: new Date() }, widgetSettingsOf({ kind: 'trend', days: 30 }));
    expect(data.rows.filter((row) => row.series === 'Devices').at(-1)).toMatchObject({ index_id: latest, value: discoveries });
  });
});

describe.each(engines)('snapshot summaries from before migration 0116 on %s', (engine) => {
  it('counts kept snapshots from their rows, marks snapshots already pruned and takes their counts from their progress', async () => {
    const { db, close } = await openScratchDatabase(engine);
    try {
      await migrate(db, loadMigrations().filter((migration) => migration.version < 116));
      const [{ id: companyId }] = await db.query<{ id: number }>("insert into companies (name) values ('Before') returning id");
      await db.query("insert into resources (company_id, kind, document) values ($1, 'cartograph:settings/discovery-settings', $2)", [companyId, JSON.stringify({ concurrency: 4, connection_timeout_minutes: 30, snapshots_to_keep: 2 })]);
      const discovery = async (status: string, assets: object) => (await db.query<{ id: number }>(
        'insert into discoveries (company_id, status, progress) values ($1, $2, $3) returning id', [companyId, status, JSON.stringify({ assets })],
      ))[0].id;
      const asset = (discoveryId: number, entity: string, id: string) => db.query(
        "insert into snapshot_assets (discovery_id, entity, asset_id, fields, preferred, record_keys, reasons) values ($1, $2, $3, '{}', '{}', '{}', '[]')", [discoveryId, entity, id],
      );
      const prunedWithCounts = await discovery('done', { device: 7, user: 2 });
      const prunedEmpty = await discovery('done', {});
      const failed = await discovery('error', { device: 3 });
      const emptyKept = await discovery('done', {});
      const kept = await discovery('done', { device: 9 });
      await asset(kept, 'device', 'd1');
      await asset(kept, 'device', 'd2');
      await asset(kept, 'user', 'u1');
      await migrate(db);

      const marked = await db.query<{ id: number; pruned: boolean }>('select id, pruned_at is not null as pruned from discoveries where company_id = $1 order by id', [companyId]);
      expect(marked).toEqual([
        { id: prunedWithCounts, pruned: true }, { id: prunedEmpty, pruned: true }, { id: failed, pruned: false }, { id: emptyKept, pruned: false }, { id: kept, pruned: false },
      ]);
      const summaries = await db.query('select discovery_id, company_id, entity, assets from snapshot_summaries order by discovery_id, entity');
      expect(summaries).toEqual([
        { discovery_id: prunedWithCounts, company_id: companyId, entity: 'device', assets: 7 },
        { discovery_id: prunedWithCounts, company_id: companyId, entity: 'user', assets: 2 },
        { discovery_id: kept, company_id: companyId, entity: 'device', assets: 2 },
        { discovery_id: kept, company_id: companyId, entity: 'user', assets: 1 },
      ]);
    } finally {
      await close();
    }
  });
});
