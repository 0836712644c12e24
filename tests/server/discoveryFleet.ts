import type { CatalogueAdapter } from '../../src/server/adapters/catalogue.js';
import type { AdapterEngine, FetchedRecord } from '../../src/server/adapters/engine.js';
import { createAdapterRuntime } from '../../src/server/adapters/runtime.js';
import { fleetSources, generateLabelledFleet, type LabelledFleet } from '../../src/server/demo/fleet.js';
import type { Queryable } from '../../src/server/db/database.js';
import type { TestServer } from './harness.js';

/** An engine replaying one source's share of a labelled fleet (devices and people), as an engine would stream it. */
export function fleetEngine(fleet: LabelledFleet): AdapterEngine {
  return {
    name: 'fleet',
    test: async () => ({ ok: true, detail: 'fleet' }),
    async *fetch({ config }) {
      for (const record of fleet.records.filter((candidate) => candidate.connectionId === config.source)) {
        yield { entity: 'device', fields: record.fields, raw: { id: record.key.split(':')[1], ...record.fields } } satisfies FetchedRecord;
      }
      for (const record of fleet.users.filter((candidate) => candidate.connectionId === config.source)) {
        yield { entity: 'user', fields: record.fields, raw: { id: record.key.split(':')[1] } } satisfies FetchedRecord;
      }
    },
  };
}

/** An adapter runtime whose five fleet adapters replay a generated fleet. */
export function fleetRuntime(count: number, seed: number) {
  const fleet = generateLabelledFleet(count, seed);
  return { fleet, runtime: runtimeFor(fleet) };
}

/** An adapter runtime whose five fleet adapters replay the given fleet. */
export function runtimeFor(fleet: LabelledFleet) {
  const catalogue = new Map<string, CatalogueAdapter>(
    Object.values(fleetSources).map((source) => [
      source.adapter,
      { name: source.label, slug: source.adapter, description: '', groups: [], categories: ['device', 'user'], engine: 'fleet', connectionSchemaId: 'none', secretFields: new Set(), hasManifest: false },
    ]),
  );
  return createAdapterRuntime({ fleet: fleetEngine(fleet) }, catalogue);
}

/** Adds one connection per fleet source to company 1. */
export async function addFleetConnections(server: { context: { db: Queryable } }): Promise<void> {
  for (const source of Object.values(fleetSources)) {
    await server.context.db.query(
      "insert into connections (company_id, adapter, name, connector_id, config) values (1, $1, $2, (select id from connectors where company_id = 1 and is_default), $3)",
      [source.adapter, source.label, JSON.stringify({ source: source.connectionId })],
    );
  }
}

/** Starts a discovery through the API and waits for it to finish; answers the last-discovery body. */
export async function runDiscoveryAndWait(server: TestServer) {
  const started = await server.request('POST', '/discoveries/discoveries', { token: server.adminToken });
  if (started.status !== 202) throw new Error(`discovery did not start: ${started.status} ${JSON.stringify(started.body)}`);
  return waitForDiscoveries(server);
}

/** Waits until no discovery runs; answers the last-discovery body. */
export async function waitForDiscoveries(server: TestServer) {
  for (let attempt = 0; attempt < 1800; attempt += 1) {
    const last = await server.request('GET', '/discoveries/last', { token: server.adminToken });
    if (last.status === 200 && last.body.status !== 1) return last.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('discovery did not finish');
}
