import type { AdapterEngine } from '../../../src/server/adapters/engine.js';
import { loadAdapterCatalogue } from '../../../src/server/adapters/catalogue.js';
import { fetchEngines } from '../../../src/server/adapters/engines.js';
import { createAdapterRuntime } from '../../../src/server/adapters/runtime.js';
import { runDiscoveryAndWait } from '../discoveryFleet.js';
import { startTestServer, type Engine, type TestServer } from '../harness.js';

/**
 * A lab of hosts for action tests: `count` devices, even ones Linux and odd ones Windows, all at 127.0.0.1 so SSH
 * commands reach the test's sshd. Served by a small engine beside the real catalogue (Jira and ServiceNow included).
 */
const labEngine: AdapterEngine = {
  name: 'lab',
  test: async () => ({ ok: true, detail: 'lab' }),
  async *fetch({ config }) {
    for (let index = 0; index < Number(config.count); index += 1) {
      const name = `host-${String(index).padStart(5, '0')}`;
      yield { entity: 'device', fields: { Hostname: name, IpAddresses: ['127.0.0.1'], 'OS.Type': index % 2 ? 'Windows' : 'Linux', SerialNumber: `SN${index}` }, raw: { id: name } };
    }
  },
};

export function labRuntime() {
  const catalogue = loadAdapterCatalogue();
  catalogue.set('lab-hosts', { name: 'Lab hosts', slug: 'lab-hosts', description: '', groups: [], categories: ['device'], engine: 'lab', connectionSchemaId: 'none', secretFields: new Set(), hasManifest: false });
  return createAdapterRuntime({ ...fetchEngines, lab: labEngine }, catalogue);
}

/** A server whose company 1 has `count` lab hosts discovered, and the action center allowed to reach loopback. */
export async function startLabServer(engine: Engine, count: number): Promise<TestServer> {
  const server = await startTestServer(engine, {}, { adapters: labRuntime() });
  await server.context.db.query(
    "insert into connections (company_id, adapter, name, connector_id, config) values (1, 'lab-hosts', 'Lab', (select id from connectors where company_id = 1 and is_default), $1)",
    [JSON.stringify({ count })],
  );
  await runDiscoveryAndWait(server);
  const settings = await server.request('PUT', '/actions/settings', { token: server.adminToken, body: { concurrency: 10, target_timeout_seconds: 10, retries: 2, history_days: 90, allowed_destinations: ['127.0.0.1/32'] } });
  if (settings.status !== 200) throw new Error(`settings: ${JSON.stringify(settings.body)}`);
  return server;
}

/** Runs an action through the API and waits for its run to end; answers the run and its results. */
export async function runAction(server: TestServer, actionId: number, body: object = {}, token = server.adminToken) {
  const started = await server.request('POST', `/actions/actions/${actionId}/run`, { token, body });
  if (started.status !== 202) throw new Error(`run: ${started.status} ${JSON.stringify(started.body)}`);
  return waitForRun(server, started.body.id, token);
}

export async function waitForRun(server: TestServer, runId: number, token = server.adminToken) {
  for (let attempt = 0; attempt < 1200; attempt += 1) {
    const run = await server.request('GET', `/actions/runs/${runId}`, { token });
    if (run.body.status === 'done' || run.body.status === 'error') {
      const results = await server.request('GET', `/actions/runs/${runId}/results?size=1000`, { token });
      return { run: run.body, results: results.body.results as { asset_id: string; name: string; status: string; detail: string; output: string; exit_code: number | null }[] };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`run ${runId} did not end`);
}

/** Creates an action through the API (failing the test on a refusal). */
export async function createAction(server: TestServer, body: object, token = server.adminToken): Promise<number> {
  const created = await server.request('POST', '/actions/actions', { token, body });
  if (created.status !== 201) throw new Error(`create action: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.id;
}
