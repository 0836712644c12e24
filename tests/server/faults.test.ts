import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueAdapter } from '../../src/server/adapters/catalogue.js';
import type { AdapterEngine } from '../../src/server/adapters/engine.js';
import { createAdapterRuntime } from '../../src/server/adapters/runtime.js';
import { fleetSources, generateLabelledFleet } from '../../src/server/demo/fleet.js';
import { fleetEngine, runDiscoveryAndWait, waitForDiscoveries } from './discoveryFleet.js';
import { startTestServer, type TestServer } from './harness.js';
import { postgresTestsRun, requirePostgresUrl } from '../support/postgresRequired.js';

// The database going away in the middle of a discovery: every server connection of Cartograph's database is
// terminated (what a PostgreSQL restart or a failover does to its clients) while a connection is half fetched.
// The published snapshot must stay served, the discovery must end either published whole or failed with nothing of
// it left behind, and the pools must reconnect so the server carries on. PGlite lives in the process: no such fault.

const fleet = generateLabelledFleet(200, 5);
const replay = fleetEngine(fleet);

// A source that hands out half its records, then waits until the test lets it go on: "mid-fetch" by construction.
let reachedMiddle: () => void = () => undefined;
let letGo: () => void = () => undefined;
const gatedEngine: AdapterEngine = {
  name: 'gated',
  test: async () => ({ ok: true, detail: 'gated' }),
  async *fetch(options) {
    const records = [];
    for await (const record of replay.fetch(options)) records.push(record);
    const middle = Math.floor(records.length / 2);
    yield* records.slice(0, middle);
    await new Promise<void>((resolve) => {
      letGo = resolve;
      reachedMiddle();
    });
    yield* records.slice(middle);
  },
};

const catalogue = new Map<string, CatalogueAdapter>(
  Object.values(fleetSources).map((source) => [
    source.adapter,
    { name: source.label, slug: source.adapter, description: '', groups: [], categories: ['device', 'user'], engine: source === fleetSources.edr ? 'gated' : 'fleet', connectionSchemaId: 'none', secretFields: new Set(), hasManifest: false },
  ]),
);
const runtime = createAdapterRuntime({ fleet: replay, gated: gatedEngine }, catalogue);

describe.runIf(postgresTestsRun())('a discovery whose database connections are cut on postgresql', () => {
  let server: TestServer;
  let admin: pg.Client;
  let database: string;
  beforeAll(async () => {
    server = await startTestServer('postgresql', {}, { adapters: runtime });
    for (const source of Object.values(fleetSources)) {
      await server.context.db.query(
        "insert into connections (company_id, adapter, name, connector_id, config) values (1, $1, $2, (select id from connectors where company_id = 1 and is_default), $3)",
        [source.adapter, source.label, JSON.stringify({ source: source.connectionId })],
      );
    }
    [{ database }] = await server.context.db.query<{ database: string }>('select current_database() as database');
    // A session of its own in Cartograph's database, as an operator's would be.
    const url = new URL(requirePostgresUrl());
    url.pathname = `/${database}`;
    admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await server?.stop();
  });

  const devices = () => server.request('POST', '/devices/devices', { token: server.adminToken, body: { size: 1 } });
  const gate = () => new Promise<void>((resolve) => (reachedMiddle = resolve));
  const cutConnections = async () => {
    const cut = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database]);
    expect(cut.rowCount).toBeGreaterThan(0);
  };
  const discoveryThroughGate = async () => {
    const reached = gate();
    const run = runDiscoveryAndWait(server);
    await reached;
    letGo();
    return run;
  };
  const leftoversOf = async (discoveryId: number) => {
    const [row] = await server.context.db.query<{ count: string }>(
      `select (select count(*) from snapshot_assets where discovery_id = $1) + (select count(*) from snapshot_records where discovery_id = $1)
            + (select count(*) from snapshot_index where discovery_id = $1) as count`,
      [discoveryId],
    );
    return Number(row.count);
  };

  it('keeps serving the last snapshot while a fetch loses its connections, and ends the discovery whole or failed', async () => {
    expect((await discoveryThroughGate()).status).toBe(2);
    const before = await devices();
    expect(before.body.count).toBeGreaterThan(0);

    const reached = gate();
    expect((await server.request('POST', '/discoveries/discoveries', { token: server.adminToken })).status).toBe(202);
    await reached;
    await cutConnections();
    const during = await devices();
    expect(during.status).toBe(200);
    expect(during.body).toMatchObject({ index_id: before.body.index_id, count: before.body.count });
    letGo();
    // A progress write on a cut connection fails the discovery; otherwise it goes on over fresh connections and
    // publishes. Either way the answer is one whole snapshot and nothing half-written is left.
    const ended = await waitForDiscoveries(server);
    if (ended.status === 3) {
      expect(await leftoversOf(ended.id)).toBe(0);
      expect((await devices()).body).toMatchObject({ index_id: before.body.index_id, count: before.body.count });
    } else {
      expect(ended.status).toBe(2);
      expect((await devices()).body).toMatchObject({ index_id: ended.id, count: before.body.count });
    }
  });
});
