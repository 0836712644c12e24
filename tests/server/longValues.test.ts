import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueAdapter } from '../../src/server/adapters/catalogue.js';
import type { AdapterEngine } from '../../src/server/adapters/engine.js';
import { createAdapterRuntime } from '../../src/server/adapters/runtime.js';
import { runDiscoveryAndWait } from './discoveryFleet.js';
import { engines, startTestServer, type TestServer } from './harness.js';

// A source may report any text: an id, a host name or a date running to thousands of characters that hardly
// compress must not fail the publish (keys and ordering entries are B-tree entries of at most 2,704 bytes), and the
// device must be listed, found and sorted like any other.

const long = (prefix: string) => `${prefix}${randomBytes(4_500).toString('base64')}`;
const odd = { id: long('id-'), fields: { Hostname: long('host-'), SerialNumber: long('sn-'), LastSeen: long('2026-'), 'OS.Type': long('os-') } };
const plain = { id: 'p-1', fields: { Hostname: 'ws-1', SerialNumber: 'SN-1', LastSeen: '2026-11-08T00:00:00.000Z', 'OS.Type': 'Windows' } };
const replayEngine: AdapterEngine = {
  name: 'replay',
  test: async () => ({ ok: true, detail: 'replay' }),
  async *fetch() {
    for (const record of [odd, plain]) yield { entity: 'device', fields: record.fields, raw: { id: record.id } };
  },
};
const catalogue = new Map<string, CatalogueAdapter>([
  ['crowdstrike', { name: 'crowdstrike', slug: 'crowdstrike', description: '', groups: ['edr'], categories: ['device'], engine: 'replay', connectionSchemaId: 'none', secretFields: new Set(), hasManifest: false }],
]);

describe.each(engines)('values too long for an index entry on %s', (engine) => {
  let server: TestServer;
  const search = (body: object) => server.request('POST', '/devices/devices', { token: server.adminToken, body: { fields: ['Hostname'], ...body } });

  beforeAll(async () => {
    server = await startTestServer(engine, {}, { adapters: createAdapterRuntime({ replay: replayEngine }, catalogue) });
    await server.context.db.query("insert into connections (company_id, adapter, name, connector_id, config) values (1, 'crowdstrike', 'EDR', (select id from connectors where company_id = 1 and is_default), '{}')");
  });
  afterAll(() => server.stop());

  it('publishes the discovery, and lists the device in every order and finds it', async () => {
    expect(await runDiscoveryAndWait(server)).toMatchObject({ state: 'done' });
    for (const field of ['Hostname', 'LastSeen', 'OS.Type']) {
      const sorted = await search({ ordering: [{ field, order: 'desc' }] });
      expect(sorted.body.results.map((row: { Hostname: string[] }) => row.Hostname[0]).sort(), field).toEqual([odd.fields.Hostname, plain.fields.Hostname].sort());
    }
    const found = await search({ query: `SerialNumber = "${odd.fields.SerialNumber.slice(0, 200)}*"` });
    expect(found.body).toMatchObject({ count: 1, results: [{ Hostname: [odd.fields.Hostname] }] });
  });

  it('leaves the snapshot out of the covering index its long OS type cannot enter, and counts from the rows', async () => {
    const [{ covered }] = await server.context.db.query<{ covered: unknown }>("select indexed_fields->'device.covered' as covered from discoveries where status = 'done'");
    expect(covered).toBe(false);
    for (const query of ['OS.Type = "os-*"', 'OS.Type = windows', 'AdapterCount = 1']) {
      expect((await search({ query })).body.count, query).toBe(query === 'AdapterCount = 1' ? 2 : 1);
    }
  });
});
