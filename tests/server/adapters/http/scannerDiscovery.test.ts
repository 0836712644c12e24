// Scanners that misbehave inside a real discovery: an export job that never finishes ends that connection with a clear
// error, a host of 10 MB is kept within bounds with a warning, and the other sources' records are all published.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueAdapter } from '../../../../src/server/adapters/catalogue.js';
import { createHttpEngine } from '../../../../src/server/adapters/http/httpEngine.js';
import type { Manifest } from '../../../../src/server/adapters/http/manifest.js';
import { createAdapterRuntime } from '../../../../src/server/adapters/runtime.js';
import { engines, startTestServer, type TestServer } from '../../harness.js';
import { json, manifest, startServer, type TestServer as VendorServer } from './helpers.js';

const hostMapping = { Hostname: '{{ record.hostname }}', IpAddresses: '{{ record.ip }}', 'OS.FullOsString': '{{ record.output }}' };
const manifests: Record<string, Manifest> = {
  'stuck-scanner': manifest({
    base_url: '{{ config.base_url }}',
    streams: [
      {
        name: 'assets',
        entity: 'device',
        export: { start: { request: { method: 'POST', url: '/assets/export' }, job_id: '{{ response.body.export_uuid }}' }, poll: { request: { url: '/assets/export/{{ job.id }}/status' }, done: "{{ response.body.status == 'FINISHED' }}", status: '{{ response.body.status }}', chunks: '{{ response.body.chunks_available }}', interval_seconds: 0.05, max_interval_seconds: 0.1, max_wait_seconds: 0.5 } },
        request: { url: '/assets/export/{{ job.id }}/chunks/{{ chunk }}' },
        records: '{{ response.body }}',
        mapping: hostMapping,
      },
    ],
  }),
  'big-scanner': manifest({ base_url: '{{ config.base_url }}', streams: [{ name: 'hosts', entity: 'device', request: { url: '/hosts' }, records: '{{ response.body.hosts }}', mapping: hostMapping }] }),
  'edr-source': manifest({ base_url: '{{ config.base_url }}', streams: [{ name: 'machines', entity: 'device', request: { url: '/machines' }, records: '{{ response.body.value }}', mapping: hostMapping }] }),
};
const catalogue = new Map<string, CatalogueAdapter>(
  Object.keys(manifests).map((slug) => [slug, { name: slug, slug, description: '', groups: [], categories: ['device'], engine: 'http', connectionSchemaId: 'none', secretFields: new Set(), hasManifest: true }]),
);
const runtime = createAdapterRuntime({ http: createHttpEngine((slug) => manifests[slug] ?? null) }, catalogue);

describe.each(engines)('misbehaving scanners in a discovery on %s', (engine) => {
  let server: TestServer;
  let vendor: VendorServer;
  beforeAll(async () => {
    vendor = await startServer((request, response) => {
      if (request.url === '/assets/export') return json(response, 200, { export_uuid: 'never-1' });
      if (request.url?.startsWith('/assets/export/')) return json(response, 200, { status: 'PROCESSING', chunks_available: [] });
      if (request.url === '/hosts') return json(response, 200, { hosts: [{ id: 'h1', hostname: 'scan-1', ip: '10.9.0.1', output: 'Debian 12' }, { id: 'h2', hostname: 'scan-huge', ip: '10.9.0.2', output: 'x'.repeat(10 * 1024 * 1024) }] });
      return json(response, 200, { value: Array.from({ length: 20 }, (_, index) => ({ id: `m${index}`, hostname: `edr-${index}`, ip: `10.8.0.${index}`, output: 'Windows 11' })) });
    });
    server = await startTestServer(engine, {}, { adapters: runtime });
    for (const slug of Object.keys(manifests)) {
      await server.context.db.query("insert into connections (company_id, adapter, name, connector_id, config) values (1, $1, $1, (select id from connectors where company_id = 1 and is_default), $2)", [slug, JSON.stringify({ base_url: vendor.url })]);
    }
  });
  afterAll(async () => {
    await server.stop();
    await vendor.close();
  });

  it('fails only the stuck connection, bounds the huge host with a warning and publishes every other record', async () => {
    const started = await server.request('POST', '/discoveries/discoveries', { token: server.adminToken });
    expect(started.status).toBe(202);
    let done: { status: number; state: string; progress: { connections: { name: string; state: string; error?: string; warnings?: string[]; records: number }[] } } | null = null;
    for (let attempt = 0; attempt < 600 && !done; attempt += 1) {
      const last = await server.request('GET', '/discoveries/last', { token: server.adminToken });
      if (last.body.status !== 1) done = last.body;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(done).toMatchObject({ status: 2, state: 'done' });
    const byName = Object.fromEntries(done!.progress.connections.map((connection) => [connection.name, connection]));
    expect(byName['stuck-scanner']).toMatchObject({ state: 'error', error: expect.stringMatching(/the export job never-1 did not finish within 0.5 s of waiting \(last status PROCESSING, 0 chunks fetched\)/) });
    expect(byName['big-scanner']).toMatchObject({ state: 'warning', records: 2, warnings: [expect.stringMatching(/stream hosts: 1 record over the 1.0 MB record limit/)] });
    expect(byName['edr-source']).toMatchObject({ state: 'done', records: 20 });

    const search = await server.request('POST', '/devices/devices', { token: server.adminToken, body: { fields: ['Hostname', 'OS.FullOsString'], size: 50, ordering: [{ field: 'Hostname' }] } });
    expect(search.body.count).toBe(22);
    const huge = search.body.results.find((row: { Hostname: string[] }) => row.Hostname[0] === 'scan-huge');
    expect(huge['OS.FullOsString'][0]).toHaveLength(8193);
  });
});
