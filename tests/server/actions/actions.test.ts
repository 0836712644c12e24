import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureOf } from '../../../src/server/actions/runners/webhookRunner.js';
import { runDiscoveryAndWait } from '../discoveryFleet.js';
import { createUserWithGroups, engines, userPassword, type TestServer } from '../harness.js';
import { openSecrets } from '../../../src/server/auth/secretFields.js';
import { createAction, runAction, startLabServer, waitForRun } from './actionFixtures.js';
import type { JobSend } from '../../../src/server/jobs/queueWorkers.js';

type Received = { headers: IncomingMessage['headers']; body: string };

/** A webhook receiver on loopback: records every call; answers 503 to the first `failFirst` calls. */
async function startReceiver(failFirst = 0): Promise<{ url: string; calls: Received[]; close: () => Promise<void> }> {
  const calls: Received[] = [];
  let seen = 0;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (part) => (body += part));
    request.on('end', () => {
      seen += 1;
      if (seen <= failFirst) return void response.writeHead(503).end('busy');
      calls.push({ headers: request.headers, body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/hook`, calls, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const linux = { entity: 'device', query: 'OS.Type = Linux' };

describe.each(engines)('the action center on %s', (engine) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startLabServer(engine, 20);
    token = server.adminToken;
  }, 120_000);
  afterAll(() => server.stop());

  it('checks an action against its type schema, seals its secrets and answers them masked', async () => {
    const bad = await server.request('POST', '/actions/actions', { token, body: { name: 'x', trigger: 'manual', scope: linux, type: 'webhook', parameters: { url: 'ftp://x', body_template: '{}', batch_size: 1 } } });
    expect(bad).toMatchObject({ status: 400, body: { 'parameters.url': [expect.any(String)] } });
    const notJson = await server.request('POST', '/actions/actions', { token, body: { name: 'x', trigger: 'manual', scope: linux, type: 'webhook', parameters: { url: 'http://a.example/', body_template: '{"a": ', batch_size: 1 } } });
    expect(notJson).toMatchObject({ status: 400, body: { 'parameters.body_template': [expect.stringContaining('not JSON')] } });
    const badQuery = await server.request('POST', '/actions/actions', { token, body: { name: 'x', trigger: 'manual', scope: { entity: 'device', query: 'Hostname = (' }, type: 'tag', parameters: { operation: 'add', tags: ['a'] } } });
    expect(badQuery).toMatchObject({ status: 400, body: { 'scope.query': [expect.any(String)] } });

    const body = { name: 'Signed hook', trigger: 'manual', scope: linux, type: 'webhook', parameters: { url: 'http://a.example/', body_template: '{"h": "{{Hostname}}"}', batch_size: 1, signing_secret: 'hmac key 1' } };
    const id = await createAction(server, body);
    const read = await server.request('GET', `/actions/actions/${id}`, { token });
    expect(read.body.parameters.signing_secret).toBe('**********');
    const [row] = await server.context.db.query<{ document: { parameters: { signing_secret: string } } }>('select document from resources where id = $1', [id]);
    expect(row.document.parameters.signing_secret).not.toContain('hmac key 1');
    // Saving the answer back keeps the secret.
    const saved = await server.request('PUT', `/actions/actions/${id}`, { token, body: { ...read.body, name: 'Signed hook 2' } });
    expect(saved.status).toBe(200);
    const [after] = await server.context.db.query<{ document: { parameters: { signing_secret: string } } }>('select document from resources where id = $1', [id]);
    expect(openSecrets(server.context.keys.secretsKey, after.document.parameters, new Set(['signing_secret']))).toMatchObject({ signing_secret: 'hmac key 1' });
    expect(JSON.stringify((await server.request('GET', '/actions/actions', { token })).body)).not.toContain('hmac key 1');
    expect(await server.request('POST', '/actions/actions', { token, body: { ...body, name: 'SIGNED HOOK 2' } })).toMatchObject({ status: 400, body: { name: [expect.stringContaining('already exists')] } });
  });

  it('dry-runs a webhook action, then posts each Linux host signed, retrying a busy receiver, and batches', async () => {
    const receiver = await startReceiver(2);
    try {
      const id = await createAction(server, { name: 'Linux → webhook', trigger: 'manual', scope: linux, type: 'webhook', parameters: { url: receiver.url, body_template: '{"host": "{{Hostname}}", "ips": "{{IpAddresses}}", "note": "on {{Hostname}}"}', batch_size: 1, signing_secret: 'shared secret' } });
      const dry = await runAction(server, id, { dry_run: true });
      expect(dry.run).toMatchObject({ status: 'done', dry_run: true, targets: 10, succeeded: 0, started_by_name: 'admin' });
      expect(dry.results.every((result) => result.status === 'planned')).toBe(true);
      expect(receiver.calls).toHaveLength(0);

      const { run, results } = await runAction(server, id);
      expect(run).toMatchObject({ status: 'done', targets: 10, succeeded: 10, failed: 0 });
      expect(results[0]).toMatchObject({ name: 'host-00000', status: 'succeeded' });
      expect(receiver.calls).toHaveLength(10);
      const first = receiver.calls.map((call) => JSON.parse(call.body)).find((body) => body.host === 'host-00000');
      expect(first).toEqual({ host: 'host-00000', ips: '127.0.0.1', note: 'on host-00000' });
      for (const call of receiver.calls) expect(call.headers['x-cartograph-signature']).toBe(signatureOf('shared secret', call.body));
      expect(results.some((result) => result.detail.includes('after 2 attempts') || result.detail.includes('after 3 attempts'))).toBe(true);

      const batched = await createAction(server, { name: 'Linux → webhook in threes', trigger: 'manual', scope: linux, type: 'webhook', parameters: { url: receiver.url, body_template: '{"host": "{{Hostname}}"}', batch_size: 3 } });
      receiver.calls.length = 0;
      expect((await runAction(server, batched)).run).toMatchObject({ succeeded: 10 });
      expect(receiver.calls.map((call) => JSON.parse(call.body).assets.length).sort()).toEqual([1, 3, 3, 3]);
      expect(receiver.calls[0].headers['x-cartograph-signature']).toBeUndefined();
    } finally {
      await receiver.close();
    }
  });

  it('refuses loopback and metadata destinations the allow-list does not name, and re-runs only the failed targets', async () => {
    const receiver = await startReceiver();
    try {
      const id = await createAction(server, { name: 'To metadata', trigger: 'manual', scope: linux, type: 'webhook', parameters: { url: 'http://169.254.169.254/latest', body_template: '{}', batch_size: 1 } });
      const refused = await runAction(server, id);
      expect(refused.run).toMatchObject({ failed: 10, succeeded: 0 });
      expect(refused.results[0].detail).toMatch(/169.254.169.254 is a link-local or cloud-metadata address; Cartograph never calls it/);

      await server.request('PUT', '/actions/settings', { token, body: { concurrency: 10, target_timeout_seconds: 10, retries: 0, history_days: 90, allowed_destinations: [] } });
      const local = await createAction(server, { name: 'To loopback', trigger: 'manual', scope: linux, type: 'webhook', parameters: { url: receiver.url, body_template: '{"h": "{{Hostname}}"}', batch_size: 1 } });
      const first = await runAction(server, local);
      expect(first.run.failed).toBe(10);
      expect(receiver.calls).toHaveLength(0);

      await server.request('PUT', '/actions/settings', { token, body: { concurrency: 10, target_timeout_seconds: 10, retries: 2, history_days: 90, allowed_destinations: ['127.0.0.1/32'] } });
      const again = await runAction(server, local, { rerun_of: first.run.id });
      expect(again.run).toMatchObject({ trigger: 'rerun', targets: 10, succeeded: 10 });
      const none = await runAction(server, local, { rerun_of: again.run.id });
      expect(none.run).toMatchObject({ targets: 0 });
    } finally {
      await receiver.close();
    }
  });

  it('tags the devices in scope, and with "only new" acts on none the second time', async () => {
    const id = await createAction(server, { name: 'Tag Linux', trigger: 'manual', scope: { ...linux, only_new: true }, type: 'tag', parameters: { operation: 'add', tags: ['linux-fleet'] } });
    expect((await runAction(server, id)).run).toMatchObject({ status: 'done', targets: 10, succeeded: 10 });
    const tagged = await server.request('POST', '/devices/devices', { token, body: { query: 'Tags = linux-fleet', size: 1 } });
    expect(tagged.body.count).toBe(10);
    expect((await runAction(server, id)).run).toMatchObject({ status: 'done', targets: 0 });
    const untag = await createAction(server, { name: 'Untag Linux', trigger: 'manual', scope: linux, type: 'tag', parameters: { operation: 'remove', tags: ['linux-fleet'] } });
    await runAction(server, untag);
    expect((await server.request('POST', '/devices/devices', { token, body: { query: 'Tags = linux-fleet', size: 1 } })).body.count).toBe(0);
  });

  it('runs actions triggered by discoveries once per snapshot, and keeps a history per action', async () => {
    const id = await createAction(server, { name: 'After discovery', trigger: 'discovery', scope: { entity: 'device', query: 'OS.Type = Windows' }, type: 'tag', parameters: { operation: 'add', tags: ['windows-fleet'] } });
    const discovery = await runDiscoveryAndWait(server);
    let runs: { results: { trigger: string; discovery_id: number; status: string }[] } = { results: [] };
    for (let attempt = 0; attempt < 300 && !(runs.results[0]?.status === 'done'); attempt += 1) {
      runs = (await server.request('GET', `/actions/runs?action=${id}`, { token })).body;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(runs.results).toEqual([expect.objectContaining({ trigger: 'discovery', discovery_id: discovery.id, status: 'done' })]);
    // The same snapshot heard of twice (a subscriber job delivered again) runs nothing more.
    const { runDiscoveryActions } = await import('../../../src/server/actions/actionJobs.js');
    await runDiscoveryActions(server.context, { companyId: 1, discoveryId: discovery.id });
    expect((await server.request('GET', `/actions/runs?action=${id}`, { token })).body.count).toBe(1);
    const activities = await server.context.db.query<{ action: string; target_id: string }>("select action, target_id from activities where target_type = 'actions/runs'");
    expect(activities.length).toBeGreaterThan(3);
  });

  it('queues a scheduled action once per slot, however many processes tick', async () => {
    const id = await createAction(server, { name: 'Every minute', trigger: 'schedule', cron: '* * * * *', timezone: 'UTC', scope: linux, type: 'tag', parameters: { operation: 'add', tags: ['scheduled'] } });
    const { queueScheduledActions } = await import('../../../src/server/actions/actionJobs.js');
    const now = new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 1000);
    const since = new Date(now.getTime() - 30_000);
    const send: JobSend = (queue, data, options) => server.context.jobs.send(queue, data, options);
    expect(await queueScheduledActions(server.context, send, now, since)).toBe(1);
    expect(await queueScheduledActions(server.context, send, now, since)).toBe(0);
    let runs = (await server.request('GET', `/actions/runs?action=${id}`, { token })).body;
    expect(runs.results).toEqual([expect.objectContaining({ trigger: 'schedule' })]);
    await waitForRun(server, runs.results[0].id);
    runs = (await server.request('GET', `/actions/runs?action=${id}`, { token })).body;
    expect(runs.results[0]).toMatchObject({ status: 'done', succeeded: 10 });
    // A run's results page like every list: the next page's link while rows are left, none on the last page.
    const firstPage = (await server.request('GET', `/actions/runs/${runs.results[0].id}/results?size=4`, { token })).body;
    expect(firstPage).toMatchObject({ count: 10, previous: null, next: expect.stringContaining('page=2') });
    const lastPage = (await server.request('GET', `/actions/runs/${runs.results[0].id}/results?size=4&page=3`, { token })).body;
    expect(lastPage.results).toHaveLength(2);
    expect(lastPage).toMatchObject({ next: null, previous: expect.stringContaining('page=2') });
    expect((await server.request('POST', '/actions/actions', { token, body: { name: 'Bad zone', trigger: 'schedule', timezone: 'Mars/Olympus', scope: linux, type: 'tag', parameters: { operation: 'add', tags: ['x'] } } })).body).toMatchObject({ timezone: [expect.any(String)] });
    await server.request('DELETE', `/actions/actions/${id}`, { token });
  });

  it('enforces the workflow permissions and the company boundary', async () => {
    const viewer = await createUserWithGroups(server, token, 'action-viewer', ['Viewers']);
    const id = await createAction(server, { name: 'Viewer test', trigger: 'manual', scope: linux, type: 'tag', parameters: { operation: 'add', tags: ['v'] } });
    expect((await server.request('GET', '/actions/actions', { token: viewer.token })).status).toBe(200);
    expect((await server.request('POST', `/actions/actions/${id}/run`, { token: viewer.token, body: {} })).status).toBe(403);
    expect((await server.request('DELETE', `/actions/actions/${id}`, { token: viewer.token })).status).toBe(403);
    expect((await server.request('PUT', '/actions/settings', { token: viewer.token, body: { concurrency: 1, target_timeout_seconds: 1, retries: 0, history_days: 1, allowed_destinations: [] } })).status).toBe(403);
    const company = await server.request('POST', '/companies/companies', { token, body: { name: 'Other company' } });
    expect(company.status).toBe(201);
    const administrator = await server.request('POST', `/companies/companies/${company.body.id}/administrators`, { token, body: { username: 'other.admin', password: userPassword } });
    expect(administrator.status).toBe(201);
    const other = { token: await server.signIn('other.admin', userPassword) };
    expect((await server.request('GET', `/actions/actions/${id}`, { token: other.token })).status).toBe(404);
    expect((await server.request('POST', `/actions/actions/${id}/run`, { token: other.token, body: {} })).status).toBe(404);
    const runs = await server.request('GET', '/actions/runs', { token: other.token });
    expect(runs.body.count).toBe(0);
    await waitForRun(server, (await server.request('POST', `/actions/actions/${id}/run`, { token, body: { dry_run: true } })).body.id);
  });
});
