import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAdapterCatalogue } from '../../src/server/adapters/catalogue.js';
import { fetchEngines } from '../../src/server/adapters/engines.js';
import { createAdapterRuntime } from '../../src/server/adapters/runtime.js';
import { engines, startTestServer, type TestServer } from './harness.js';

// The catalogue is honest: each adapter says what it fetches and whether a replay verifies it, and an adapter
// Cartograph cannot fetch from yet says so, fetches nothing, and keeps refusing connections.

type AdapterFolder = { engine: string | null; categories: string[]; manifestEntities?: string[]; fixture?: boolean };
const folders: Record<string, AdapterFolder> = {
  replayed: { engine: 'http', categories: ['device', 'user', 'vulnerability'], manifestEntities: ['device', 'vulnerability', 'device'], fixture: true },
  unreplayed: { engine: 'http', categories: ['device'], manifestEntities: ['device'] },
  manifestless: { engine: 'http', categories: ['device', 'application'] },
  engineless: { engine: null, categories: ['device'] },
  directory: { engine: 'ldap', categories: ['device', 'user'] },
};

function writeCatalogue(root: string): void {
  for (const [slug, folder] of Object.entries(folders)) {
    const dir = join(root, slug);
    mkdirSync(join(dir, 'fixtures'), { recursive: true });
    writeFileSync(join(dir, 'adapter.json'), JSON.stringify({ name: `${slug} adapter`, slug, description: '', groups: [], categories: folder.categories, engine: folder.engine }));
    writeFileSync(join(dir, 'connection.schema.json'), JSON.stringify({ $id: `cartograph:adapters/${slug}/connection`, type: 'object', properties: { url: { type: 'string' } } }));
    if (folder.manifestEntities) {
      const streams = folder.manifestEntities.map((entity, index) => ({ name: `${entity}-${index}`, entity, request: { path: '/items' }, mapping: {} }));
      writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ version: 1, base_url: '{{url}}', streams }));
    }
    if (folder.fixture) writeFileSync(join(dir, 'fixtures', 'replay.json'), JSON.stringify({ config: {}, exchanges: [], expected: { count: 0, records: [] } }));
  }
}

describe.each(engines)('the adapter catalogue on %s', (engine) => {
  let server: TestServer;
  let root: string;
  const list = async () => {
    const answer = await server.request('GET', '/adapters/adapters?size=1000', { token: server.adminToken });
    expect(answer.status).toBe(200);
    return new Map<string, Record<string, unknown>>(answer.body.results.map((adapter: { slug: string }) => [adapter.slug, adapter]));
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'cartograph-catalogue-'));
    writeCatalogue(root);
    server = await startTestServer(engine, {}, { adapters: createAdapterRuntime(fetchEngines, loadAdapterCatalogue(root)) });
  });
  afterAll(async () => {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it("lists an HTTP adapter's entities from its manifest's streams, verified by its replay fixture", async () => {
    expect((await list()).get('replayed')).toMatchObject({ can_fetch: true, entities: ['device', 'vulnerability'], verified_by_replay: true });
    const one = await server.request('GET', '/adapters/adapters/replayed', { token: server.adminToken });
    expect(one.body).toMatchObject({ can_fetch: true, entities: ['device', 'vulnerability'], verified_by_replay: true });
  });

  it('does not call an HTTP adapter without a replay fixture verified', async () => {
    expect((await list()).get('unreplayed')).toMatchObject({ can_fetch: true, entities: ['device'], verified_by_replay: false });
  });

  it("lists a code engine adapter's categories as its entities", async () => {
    expect((await list()).get('directory')).toMatchObject({ can_fetch: true, entities: ['device', 'user'], verified_by_replay: true });
  });

  it('marks adapters with no engine, or HTTP without a manifest, as fetching nothing', async () => {
    const adapters = await list();
    for (const slug of ['manifestless', 'engineless']) expect(adapters.get(slug), slug).toMatchObject({ can_fetch: false, entities: [], verified_by_replay: false });
  });

  it('refuses to save or test a connection of an adapter that cannot fetch, with a field error', async () => {
    for (const slug of ['manifestless', 'engineless']) {
      const body = { adapter: slug, name: `${slug} connection`, option_connections: [{ name: 'url', typed_value: 'https://inventory.example.com' }] };
      const created = await server.request('POST', '/adapters/connections', { token: server.adminToken, body });
      expect(created.status, slug).toBe(400);
      expect(created.body.adapter[0], slug).toMatch(/cannot fetch yet/);
      const tested = await server.request('POST', '/adapters/test', { token: server.adminToken, body });
      expect(tested.status, slug).toBe(400);
    }
    const [{ count }] = await server.context.db.query<{ count: number }>('select count(*)::int as count from connections where adapter in ($1, $2)', ['manifestless', 'engineless']);
    expect(count).toBe(0);
  });
});
