import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reapStaleRuns } from '../../../src/server/actions/actionJobs.js';
import { sealSecrets } from '../../../src/server/auth/secretFields.js';
import { engines, startTestServer, type TestServer } from '../harness.js';
import { runDiscoveryAndWait } from '../discoveryFleet.js';
import { createAction, labRuntime, waitForRun } from './actionFixtures.js';

// What a stopped process leaves behind, met by the reaper in one process (tests/server/actions/actionRunRecovery.test.ts
// kills real worker processes on PostgreSQL): a run still `running` whose heartbeat is old. The timeout is an hour
// here, so no heartbeat of the test's own attempts moves while the test ages a run by hand.

/** A Jira stand-in holding every issue it is asked to open until the test lets it answer; other calls answer at once. */
async function startHeldJira() {
  const waiting: (() => void)[] = [];
  let onRequest: () => void = () => undefined;
  let count = 0;
  let refusing = false;
  const server: Server = createServer((request, reply) => {
    request.resume();
    request.on('end', () => {
      if (request.url !== '/rest/api/2/issue') {
        reply.writeHead(204).end();
        return;
      }
      count += 1;
      if (refusing) {
        reply.writeHead(400, { 'content-type': 'application/json' }).end('{"errorMessages":["Project is closed"]}');
        return;
      }
      const key = `SEC-${count}`;
      waiting.push(() => reply.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ key })));
      onRequest();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => count,
    refuse: (refuse: boolean) => (refusing = refuse),
    nextRequest: () => new Promise<void>((resolve) => (onRequest = resolve)),
    answerAll: () => waiting.splice(0).forEach((answer) => answer()),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

describe.each(engines)('action runs whose process stopped, on %s', (engine) => {
  let server: TestServer;
  let jira: Awaited<ReturnType<typeof startHeldJira>>;
  let jiraConnection: number;
  beforeAll(async () => {
    jira = await startHeldJira();
    server = await startTestServer(engine, { actionRunStaleSeconds: 3600 }, { adapters: labRuntime() });
    await server.context.db.query(
      "insert into connections (company_id, adapter, name, connector_id, config) values (1, 'lab-hosts', 'Lab', (select id from connectors where company_id = 1 and is_default), $1)",
      [JSON.stringify({ count: 2 })],
    );
    await runDiscoveryAndWait(server);
    const settings = await server.request('PUT', '/actions/settings', { token: server.adminToken, body: { concurrency: 1, target_timeout_seconds: 60, retries: 0, history_days: 90, allowed_destinations: ['127.0.0.1/32'] } });
    expect(settings.status).toBe(200);
    const secretFields = server.context.adapters.catalogue.get('jira')!.secretFields;
    [{ id: jiraConnection }] = await server.context.db.query<{ id: number }>(
      "insert into connections (company_id, adapter, name, connector_id, config) values (1, 'jira', 'Jira', (select id from connectors where company_id = 1 and is_default), $1) returning id",
      [JSON.stringify(sealSecrets(server.context.keys.secretsKey, { base_url: jira.url, auth: { auth_type: 'cloud_api_token', email: 'bot@example.test', api_token: 'jira token' } }, secretFields))],
    );
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await jira?.close();
  });

  const ageRun = (runId: number) => server.context.db.query("update action_runs set heartbeat_at = now() - interval '2 hours' where id = $1", [runId]);
  const reap = () => reapStaleRuns(server.context, server.context.jobs.send);
  /** A run as a killed process leaves it: running, its heartbeat two hours old. */
  const strandedRun = async (actionId: number, acting: boolean) => {
    const [run] = await server.context.db.query<{ id: number }>(
      `insert into action_runs (company_id, action_id, trigger, status, attempt, worker, started_at, heartbeat_at, acting_since)
       values (1, $1, 'manual', 'running', 1, 'gone:1', now() - interval '3 hours', now() - interval '2 hours', case when $2 then now() - interval '2 hours' end) returning id`,
      [actionId, acting],
    );
    return run.id;
  };

  it('fails a stopped run that had begun acting on targets it cannot tell apart, and takes over one that had not', async () => {
    const webhook = await createAction(server, { name: 'Hook', trigger: 'manual', scope: { entity: 'device' }, type: 'webhook', parameters: { url: `${jira.url}/hook`, body_template: '{}', batch_size: 1 } });
    const acted = await strandedRun(webhook, true);
    const notYet = await strandedRun(webhook, false);
    const tag = await createAction(server, { name: 'Tag', trigger: 'manual', scope: { entity: 'device' }, type: 'tag', parameters: { operation: 'add', tags: ['checked'] } });
    const tagging = await strandedRun(tag, true);
    expect(await reap()).toBe(3);
    expect(await reap()).toBe(0);

    const [failed] = await server.context.db.query<{ status: string; error: string }>('select status, error from action_runs where id = $1', [acted]);
    expect(failed.status).toBe('error');
    expect(failed.error).toMatch(/^The process running it stopped before it finished while it acted on its targets/);
    // The webhook run that had not begun acting is run again by a process that works the queue; so is the tag run
    // (tagging twice changes nothing).
    const resumed = await waitForRun(server, notYet);
    expect(resumed.run).toMatchObject({ status: 'done', attempt: 2, succeeded: 2 });
    expect((await waitForRun(server, tagging)).run).toMatchObject({ status: 'done', attempt: 2, succeeded: 2 });
    const events = await server.context.db.query<{ event: string }>("select event from system_log where event in ('action_run_taken_over', 'action_run_failed') order by id");
    expect(events.map((row) => row.event).sort()).toEqual(['action_run_failed', 'action_run_taken_over', 'action_run_taken_over']);
  });

  it('keeps an attempt that was taken over from writing its results, and opens its ticket once', async () => {
    const actionId = await createAction(server, { name: 'Once', trigger: 'manual', scope: { entity: 'device', query: 'Hostname = host-00000' }, type: 'ticket', parameters: { connection: jiraConnection, project_key: 'SEC', summary_template: 'Check {{Hostname}}', description_template: 'x' } });
    const before = jira.requests();
    const reached = jira.nextRequest();
    const started = await server.request('POST', `/actions/actions/${actionId}/run`, { token: server.adminToken, body: {} });
    expect(started.status).toBe(202);
    const runId = started.body.id as number;
    await reached;
    // Thought stopped while Jira holds its request: the run is queued again for attempt 2.
    await ageRun(runId);
    expect(await reap()).toBe(1);
    jira.answerAll();
    const { run, results } = await waitForRun(server, runId);
    expect(run).toMatchObject({ status: 'done', attempt: 2, succeeded: 0, skipped: 1 });
    // The first attempt opened the ticket (its claim holds the key) but wrote no result: the result is attempt 2's.
    expect(results).toEqual([expect.objectContaining({ name: 'host-00000', status: 'skipped', detail: expect.stringMatching(/^Ticket SEC-\d+ was opened earlier\.$/) })]);
    expect(jira.requests() - before).toBe(1);
  });

  it('gives back the claim of a ticket whose call failed, so a later run opens it', async () => {
    const actionId = await createAction(server, { name: 'Later', trigger: 'manual', scope: { entity: 'device', query: 'Hostname = host-00001' }, type: 'ticket', parameters: { connection: jiraConnection, project_key: 'SEC', summary_template: 'Check {{Hostname}}', description_template: 'x' } });
    jira.refuse(true);
    const refused = await server.request('POST', `/actions/actions/${actionId}/run`, { token: server.adminToken, body: {} });
    expect((await waitForRun(server, refused.body.id)).run).toMatchObject({ status: 'done', failed: 1 });
    expect(await server.context.db.query('select 1 from action_tickets where action_id = $1', [actionId])).toEqual([]);
    jira.refuse(false);
    const reached = jira.nextRequest();
    const later = await server.request('POST', `/actions/actions/${actionId}/run`, { token: server.adminToken, body: {} });
    await reached;
    jira.answerAll();
    expect((await waitForRun(server, later.body.id)).run).toMatchObject({ status: 'done', succeeded: 1 });
    expect(await server.context.db.query('select ticket from action_tickets where action_id = $1', [actionId])).toEqual([{ ticket: expect.stringMatching(/^SEC-\d+$/) }]);
  });
});
