import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseQuery } from '../../src/core/query/index.js';
import { createFileEngines } from '../../src/server/adapters/files/fileEngines.js';
import { createAdapterRuntime } from '../../src/server/adapters/runtime.js';
import { queryHelpExamples } from '../../src/web/pages/inventories/queryHelpExamples.js';
import { waitForDiscoveries } from './discoveryFleet.js';
import { engines, startTestServer, type TestServer } from './harness.js';

// Every example the query bar's help offers to run parses, is accepted by its inventory and matches some of the demo's
// assets (but not all of them: an example that matched everything would teach nothing).
const searchPaths: Record<string, string> = {
  device: '/devices/devices', user: '/userinventory/users', software: '/appinventory/applications', vulnerability: '/avm/vulnerabilities',
  service: '/services/services', license: '/licenses/licenses', certificate: '/certificates/certificates',
};

describe.each(engines)('the query help examples on the demo on %s', (engine) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cartograph-help-'));
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine, {}, { dataDir, adapters: createAdapterRuntime(createFileEngines({ dataDir, importRoots: [] })) });
    expect((await server.request('POST', '/discoveries/demo', { token: server.adminToken })).status).toBe(202);
    expect(await waitForDiscoveries(server)).toMatchObject({ state: 'done' });
  }, 300_000);
  afterAll(async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('covers every inventory, and each example parses and finds some assets but not all', async () => {
    expect(Object.keys(queryHelpExamples).sort()).toEqual(Object.keys(searchPaths).sort());
    const count = async (path: string, query: string) => {
      const answer = await server.request('POST', path, { token: server.adminToken, body: { query, size: 1, fields: [] } });
      expect(answer.status, `${query}: ${JSON.stringify(answer.body)}`).toBe(200);
      return answer.body.count as number;
    };
    for (const [entity, examples] of Object.entries(queryHelpExamples)) {
      const all = await count(searchPaths[entity], '');
      for (const { query } of examples) {
        expect(() => parseQuery(query), query).not.toThrow();
        const matched = await count(searchPaths[entity], query);
        expect(matched, `${entity}: ${query}`).toBeGreaterThan(0);
        expect(matched, `${entity}: ${query}`).toBeLessThan(all);
      }
    }
  }, 120_000);
});
