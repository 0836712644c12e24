import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueAdapter } from '../../src/server/adapters/catalogue.js';
import type { AdapterEngine, FetchedRecord } from '../../src/server/adapters/engine.js';
import { createAdapterRuntime } from '../../src/server/adapters/runtime.js';
import { fleetSources, generateLabelledFleet } from '../../src/server/demo/fleet.js';
import { engines, startTestServer, type TestServer } from './harness.js';

// A source that replays one system's share of a labelled fleet, as an engine would stream it.
const fleet = generateLabelledFleet(300, 11);
const fleetEngine: AdapterEngine = {
  name: 'fleet',
  test: async () => ({ ok: true, detail: 'fleet' }),
  async *fetch({ config, warn, signal }) {
    if (config.fail_after !== undefined) {
      yield { entity: 'device', fields: { Hostname: 'partial-1' }, raw: { id: 'partial-1' } } satisfies FetchedRecord;
      throw new Error('HTTP 500 from the vendor after the first page');
    }
    if (config.hang) {
      await new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
    }
    for (const record of fleet.records.filter((candidate) => candidate.connectionId === config.source)) {
      yield { entity: 'device', fields: record.fields, raw: { id: record.key.split(':')[1], ...record.fields } };
    }
    yield { entity: 'user', fields: { Username: `user-${config.source}`, Email: 'shared.person@example.com' }, raw: {} };
    if (config.source === fleetSources.cmdb.connectionId) warn('line 17: unterminated quote, skipped');
  },
};

const catalogue = new Map<string, CatalogueAdapter>(
  Object.values(fleetSources).map((source) => [
    source.adapter,
    { name: source.label, slug: source.adapter, description: '', groups: [], categories: ['device', 'user'], engine: 'fleet', connectionSchemaId: 'none', secretFields: new Set(), hasManifest: false },
  ]),
);
const runtime = createAdapterRuntime({ fleet: fleetEngine }, catalogue);

async function addConnection(server: TestServer, adapter: string, name: string, config: object): Promise<number> {
  const [row] = await server.context.db.query<{ id: number }>(
    "insert into connections (company_id, adapter, name, connector_id, config) values (1, $1, $2, (select id from connectors where company_id = 1 and is_default), $3) returning id",
    [adapter, name, JSON.stringify(config)],
  );
  return row.id;
}

async function runAndWait(server: TestServer) {
  const started = await server.request('POST', '/discoveries/discoveries', { token: server.adminToken });
  expect(started.status).toBe(202);
  for (let attempt = 0; attempt < 600; attempt += 1) {
    const last = await server.request('GET', '/discoveries/last', { token: server.adminToken });
    if (last.body.status !== 1) return last.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('discovery did not finish');
}

describe.each(engines)('discoveries on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine, {}, { adapters: runtime });
    for (const source of Object.values(fleetSources)) await addConnection(server, source.adapter, source.label, { source: source.connectionId });
    await addConnection(server, 'servicenow', 'Broken CMDB', { fail_after: 1 });
  });
  afterAll(() => server.stop());

  it('fetches every connection, survives a failing one, correlates and publishes a snapshot', async () => {
    const done = await runAndWait(server);
    expect(done).toMatchObject({ status: 2, state: 'done' });
    const connections = done.progress.connections;
    expect(connections.find((connection: { name: string }) => connection.name === 'Broken CMDB')).toMatchObject({ state: 'error', error: 'HTTP 500 from the vendor after the first page' });
    expect(connections.find((connection: { name: string }) => connection.name === 'CMDB')).toMatchObject({ state: 'warning', warnings: ['line 17: unterminated quote, skipped'] });
    expect(connections.find((connection: { name: string }) => connection.name === 'EDR')).toMatchObject({ state: 'done', by_entity: { device: expect.any(Number), user: 1 } });
    expect(done.progress.stages).toMatchObject({ fetch: { state: 'warning' }, correlate: { state: 'done' }, publish: { state: 'done' } });

    const search = await server.request('POST', '/devices/devices', { token: server.adminToken, body: { fields: ['Hostname', 'Adapters'], size: 5, ordering: [{ field: 'Hostname' }] } });
    expect(search.body.count).toBe(done.progress.assets.device);
    expect(search.body.count).toBeGreaterThan(280);
    expect(search.body.count).toBeLessThan(340);
    expect(search.body.results[0]).toEqual({ Hostname: expect.any(Array), Adapters: expect.any(Array), PrimaryKey: [expect.any(String)] });
    const users = await server.request('POST', '/userinventory/users', { token: server.adminToken, body: {} });
    expect(users.body.count).toBe(1);
    expect(users.body.results[0].Adapters).toHaveLength(Object.keys(fleetSources).length);
  });

  it('answers queries over the snapshot and explains each merged device', async () => {
    const merged = await server.request('POST', '/devices/devices', { token: server.adminToken, body: { query: 'AdapterCount >= 3 AND OS.Type = Windows', size: 1 } });
    expect(merged.body.count).toBeGreaterThan(0);
    const id = merged.body.results[0].PrimaryKey[0];
    const detail = await server.request('POST', `/devices/devices/${id}`, { token: server.adminToken, body: {} });
    expect(detail.body.sources.length).toBeGreaterThanOrEqual(3);
    expect(detail.body.merge_reasons.length).toBe(detail.body.sources.length - 1);
    expect(detail.body.preferred.Hostname).toEqual({ value: expect.any(String), adapter: expect.any(String) });
    expect(detail.body.sources[0].fields).toHaveProperty([`Specifics.${detail.body.sources[0].adapter}.id`]);
    expect(detail.body).toHaveProperty([`Specifics.${detail.body.sources[0].adapter}.id`]);

    // Vendors' raw fields are kept apart from the entity fields, and still queried, sorted and shown like them.
    const agentId = 'Specifics.crowdstrike.AgentId';
    const raw = await server.request('POST', '/devices/devices', { token: server.adminToken, body: { query: `${agentId} = *`, fields: ['Hostname', agentId], ordering: [{ field: agentId, order: 'desc' }], size: 3 } });
    const withAgents = await server.request('POST', '/devices/devices', { token: server.adminToken, body: { query: 'AgentId = * AND Adapters = crowdstrike', size: 1 } });
    expect(raw.body.count).toBe(withAgents.body.count);
    expect(raw.body.results[0][agentId]).toHaveLength(1);
    expect(raw.body.results.map((row: Record<string, string[]>) => row[agentId][0])).toEqual(raw.body.results.map((row: Record<string, string[]>) => row[agentId][0]).sort().reverse());
    const bad = await server.request('POST', '/devices/devices', { token: server.adminToken, body: { query: 'Hostname = ' } });
    expect(bad).toMatchObject({ status: 400, body: { query: [expect.stringContaining('Expected a value')], position: ['11'] } });
  });

  it('derives the field maps from the entity schemas and the adapters\' fields in the snapshot', async () => {
    const { body } = await server.request('GET', '/configurations/discovery', { token: server.adminToken });
    expect(body.field_map.Hostname).toEqual({ value_type: 'text', has_keyword: true, label: 'Hostname', adapter: 'cartograph' });
    expect(body.field_map.LastSeen).toMatchObject({ value_type: 'date' });
    expect(body.field_map['AdapterCount']).toMatchObject({ value_type: 'long' });
    expect(body.field_map['Specifics.crowdstrike.AgentId']).toEqual({ value_type: 'text', has_keyword: true, label: 'AgentId', adapter: 'crowdstrike', image: '/images/adapters/crowdstrike.svg' });
    expect(body.user_field_map.Email).toMatchObject({ value_type: 'text' });
    // Coded values carry their display names (the schema's x-enum-titles), so lists never show the raw code.
    expect(body.certificate_field_map.KeyAlgorithm).toMatchObject({ label: 'Key algorithm', value_titles: expect.objectContaining({ rsa: 'RSA' }) });
  });

  it('scrolls through every device for exports', async () => {
    const seen = new Set<string>();
    let scrollId: string | undefined;
    for (;;) {
      const step = await server.request('POST', '/devices/devices', { token: server.adminToken, body: { scrollable: true, size: 100, fields: ['Hostname'], ...(scrollId && { scroll_id: scrollId }) } });
      if (!step.body.results.length) break;
      for (const row of step.body.results) seen.add(row.PrimaryKey[0]);
      scrollId = step.body.scroll_id;
    }
    const total = await server.request('POST', '/devices/devices', { token: server.adminToken, body: { size: 1 } });
    expect(seen.size).toBe(total.body.count);
  });

  it('merges and unmerges devices at once, and later discoveries keep the decisions', async () => {
    const token = server.adminToken;
    const recommendations = await server.request('GET', '/devices/merge-recommendations?size=100', { token });
    const two = await server.request('POST', '/devices/devices', { token, body: { query: 'AdapterCount = 1', size: 2, ordering: [{ field: 'Hostname' }] } });
    const [first, second] = two.body.results.map((row: { PrimaryKey: string[] }) => row.PrimaryKey[0]);
    const before = (await server.request('POST', '/devices/devices', { token, body: { size: 1 } })).body.count;
    const merged = await server.request('POST', '/devices/merge', { token, body: { assets: [first, second] } });
    expect(merged.status).toBe(200);
    expect((await server.request('POST', '/devices/devices', { token, body: { size: 1 } })).body.count).toBe(before - 1);
    // The snapshot's typed index follows at once: the two single-source devices are gone, one two-source device came.
    const sourced = await server.request('POST', '/devices/devices', { token, body: { query: 'AdapterCount = 1', size: 1000, ordering: [{ field: 'Hostname' }] } });
    expect(sourced.body.results.map((row: { PrimaryKey: string[] }) => row.PrimaryKey[0])).not.toContain(first);
    expect(sourced.body.count).toBe(two.body.count - 2);
    expect((await server.request('POST', '/devices/devices', { token, body: { query: 'AdapterCount = 2', size: 1000 } })).body.results).toContainEqual(expect.objectContaining({ PrimaryKey: [merged.body.id] }));
    const detail = await server.request('POST', `/devices/devices/${merged.body.id}`, { token, body: {} });
    expect(detail.body.merge_reasons).toContainEqual(expect.objectContaining({ rule: 'manual' }));

    const several = await server.request('POST', '/devices/devices', { token, body: { query: 'AdapterCount >= 4', size: 1 } });
    const target = await server.request('POST', `/devices/devices/${several.body.results[0].PrimaryKey[0]}`, { token, body: {} });
    const separated = target.body.sources.at(-1).record_key;
    const unmerged = await server.request('POST', '/devices/unmerge', { token, body: { asset: several.body.results[0].PrimaryKey[0], records: [separated] } });
    expect(unmerged.body.devices).toHaveLength(2);

    const next = await runAndWait(server);
    const keysOf = async (recordKey: string) => {
      const { body } = await server.context.db.query<{ record_keys: string[] }>('select record_keys from snapshot_assets where discovery_id = $1 and $2 = any(record_keys)', [next.id, recordKey]).then((rows) => ({ body: rows[0] }));
      return body.record_keys;
    };
    expect(await keysOf(merged.body.record_keys[0])).toEqual(expect.arrayContaining(merged.body.record_keys));
    expect(await keysOf(separated)).toEqual([separated]);
    expect(recommendations.status).toBe(200);
  });

  it('moves relations to the merged device at once', async () => {
    const token = server.adminToken;
    const two = await server.request('POST', '/devices/devices', { token, body: { query: 'AdapterCount <= 2 AND LastUsedUsers = *', size: 2, ordering: [{ field: 'Hostname' }] } });
    const [first, second] = two.body.results.map((row: { PrimaryKey: string[] }) => row.PrimaryKey[0]);
    const { db } = server.context;
    const relationsOf = async (ids: string[]) =>
      (await db.query<{ device_asset: string; relation: string; related_name: string }>(
        "select device_asset, relation, related_name from snapshot_relations where discovery_id = (select max(id) from discoveries where status = 'done') and (device_asset = any($1::text[]) or related_asset = any($1::text[]))",
        [ids],
      ));
    const before = await relationsOf([first, second]);
    expect(before.length).toBeGreaterThan(0);
    const merged = await server.request('POST', '/devices/merge', { token, body: { assets: [first, second] } });
    const gone = [first, second].filter((id) => id !== merged.body.id);
    expect(await relationsOf(gone)).toEqual([]);
    const after = (await relationsOf([merged.body.id])).filter((row) => row.device_asset === merged.body.id).map((row) => `${row.relation} ${row.related_name}`);
    for (const row of before.filter((candidate) => candidate.device_asset === first || candidate.device_asset === second)) expect(after).toContain(`${row.relation} ${row.related_name}`);
  });

  it('accepts and rejects merge recommendations', async () => {
    const token = server.adminToken;
    const listed = await server.request('GET', '/devices/merge-recommendations', { token });
    const shortNames = (names: string[]) => names.map((name) => name.toLowerCase().split('.')[0]);
    for (const { left, right } of listed.body.results) expect(shortNames(left.Hostname).some((name) => shortNames(right.Hostname).includes(name))).toBe(true);
    expect(listed.body.count).toBeGreaterThanOrEqual(2);
    const accepted = await server.request('POST', `/devices/merge-recommendations/${listed.body.results[0].id}/accept`, { token });
    expect(accepted.status).toBe(200);
    // Accepting removes every recommendation about the two merged devices.
    const remaining = await server.request('GET', '/devices/merge-recommendations', { token });
    expect(remaining.body.results.map((row: { id: number }) => row.id)).not.toContain(listed.body.results[0].id);
    expect((await server.request('POST', `/devices/merge-recommendations/${remaining.body.results[0].id}/reject`, { token })).status).toBe(204);
    expect((await server.request('GET', '/devices/merge-recommendations', { token })).body.count).toBe(remaining.body.count - 1);
    expect((await server.request('POST', '/devices/merge-recommendations/999999/accept', { token })).status).toBe(404);
  });

  it('lists discoveries by status, named or numbered as the reference SDK sends it (1 running, 2 done, 3 error)', async () => {
    const token = server.adminToken;
    const list = async (status: string) => {
      const answer = await server.request('GET', `/discoveries/discoveries?status=${status}&size=100`, { token });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.results.map((row: { id: number }) => row.id) as number[];
    };
    const done = await list('done');
    expect(done.length).toBeGreaterThan(0);
    expect(await list('2')).toEqual(done);
    expect(await list('3')).toEqual(await list('error'));
    expect(await list('1')).toEqual([]);
    const refused = await server.request('GET', '/discoveries/discoveries?status=4', { token });
    expect(refused.status).toBe(400);
    expect(refused.body).toHaveProperty('status');
  });

  it('runs one discovery at a time per company', async () => {
    await server.context.db.query("insert into discoveries (company_id, status) values (1, 'running')");
    const second = await server.request('POST', '/discoveries/discoveries', { token: server.adminToken });
    expect(second).toMatchObject({ status: 409, body: { code: 'discovery_running' } });
    await server.context.db.query("delete from discoveries where status = 'running'");
  });
});

describe('a discovery interrupted by a crash', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cartograph-crash-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('leaves the previous snapshot served and is marked failed at the next start', async () => {
    const first = await startTestServer('pglite', {}, { adapters: runtime, dataDir });
    const edr = await addConnection(first, fleetSources.edr.adapter, 'EDR', { source: fleetSources.edr.connectionId });
    const good = await runAndWait(first);
    await first.context.db.query('update connections set config = $2 where id = $1', [edr, JSON.stringify({ hang: true })]);
    await first.request('POST', '/discoveries/discoveries', { token: first.adminToken });
    await first.stop();

    const second = await startTestServer('pglite', {}, { adapters: runtime, dataDir });
    try {
      const last = await second.request('GET', '/discoveries/last', { token: second.adminToken });
      expect(last.body).toMatchObject({ status: 3, state: 'error', error: expect.stringContaining('Interrupted') });
      const devices = await second.request('POST', '/devices/devices', { token: second.adminToken, body: { size: 1 } });
      expect(devices.body.index_id).toBe(good.id);
      expect(devices.body.count).toBeGreaterThan(0);
    } finally {
      await second.stop();
    }
  });
});
