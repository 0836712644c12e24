import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealSecrets } from '../../../src/server/auth/secretFields.js';
import { readConfig, type ServerConfig } from '../../../src/server/config.js';
import { openPostgresDatabase } from '../../../src/server/db/postgresDatabase.js';
import { startCartograph, type RunningCartograph } from '../../../src/server/server.js';
import { startWorker, type WorkerProcess } from '../../support/workerProcess.js';
import { adminPassword, createScratchPostgres } from '../harness.js';
import { labRuntime } from './actionFixtures.js';

// Action runs worked by `npm run worker` processes on PostgreSQL. A worker is killed (SIGKILL, as a crash or the
// out-of-memory killer would) while its run waits on the ticketing system: once the run's heartbeat is older than
// the (short, configured) timeout another worker takes it over, and no asset gets a second ticket. Two runs of one
// ticket action at once open one ticket between them.

const secretKey = 'action run recovery secret key';
const staleSeconds = '4';

type Held = { summary: string; answer: () => void };

/** A Jira stand-in that opens issues and holds the requests `holds` picks until the test releases them. */
async function startTicketServer() {
  const summaries: string[] = [];
  const held: Held[] = [];
  let holds: (summary: string, index: number) => boolean = () => false;
  let heldListeners: (() => void)[] = [];
  const server: Server = createServer((request, reply) => {
    let body = '';
    request.on('data', (part) => (body += part));
    request.on('end', () => {
      const summary = String(JSON.parse(body).fields?.summary ?? '');
      summaries.push(summary);
      const key = `SEC-${summaries.length}`;
      reply.on('error', () => undefined);
      const answer = () => reply.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: String(summaries.length), key }));
      if (holds(summary, summaries.length)) {
        held.push({ summary, answer });
        heldListeners.splice(0).forEach((listener) => listener());
      } else {
        answer();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    summaries,
    held,
    holdWhen: (rule: typeof holds) => (holds = rule),
    /** Resolves once `count` requests are held. */
    holding: (count: number) => new Promise<void>((resolve) => {
      const check = () => (held.length >= count ? resolve() : heldListeners.push(check));
      check();
    }),
    releaseAll: () => held.splice(0).forEach((request) => request.answer()),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

describe.skipIf(!process.env.DATABASE_URL)('action runs worked by killed and overlapping processes on postgresql', () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
  let tickets: Awaited<ReturnType<typeof startTicketServer>>;
  let api: RunningCartograph;
  let token: string;
  let jiraConnection: number;
  const workers: WorkerProcess[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'cartograph-action-runs-'));

  const configOf = (runDiscoveries: boolean): ServerConfig => ({ ...readConfig({}), dataDir, databaseUrl: scratch.url, adminPassword, secretKey, passwordExpiryDays: 0, runDiscoveries });
  const inject = (running: RunningCartograph, method: string, url: string, payload?: object) =>
    running.app.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${token}` }, ...(payload && { payload }) });

  beforeAll(async () => {
    tickets = await startTicketServer();
    scratch = await createScratchPostgres();
    // A first process discovers three lab hosts (its engine lives in this process), then gives way to an API process
    // that works no queues: every action run below goes to a worker process.
    const seed = await startCartograph(configOf(true), { logger: false, database: await openPostgresDatabase(scratch.url, 4), adapters: labRuntime() });
    token = (await seed.app.inject({ method: 'POST', url: '/api/token', payload: { username: 'admin', password: adminPassword } })).json().access;
    await seed.context.db.query(
      "insert into connections (company_id, adapter, name, connector_id, config) values (1, 'lab-hosts', 'Lab', (select id from connectors where company_id = 1 and is_default), $1)",
      [JSON.stringify({ count: 3 })],
    );
    expect((await inject(seed, 'POST', '/discoveries/discoveries')).statusCode).toBe(202);
    for (;;) {
      const last = (await inject(seed, 'GET', '/discoveries/last')).json();
      if (last.status !== 1) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // One target at a time, so the kill lands between a ticket opened and the next one.
    expect((await inject(seed, 'PUT', '/actions/settings', { concurrency: 1, target_timeout_seconds: 60, retries: 0, history_days: 90, allowed_destinations: ['127.0.0.1/32'] })).statusCode).toBe(200);
    const secretFields = seed.context.adapters.catalogue.get('jira')!.secretFields;
    [{ id: jiraConnection }] = await seed.context.db.query<{ id: number }>(
      "insert into connections (company_id, adapter, name, connector_id, config) values (1, 'jira', 'Jira', (select id from connectors where company_id = 1 and is_default), $1) returning id",
      [JSON.stringify(sealSecrets(seed.context.keys.secretsKey, { base_url: tickets.url, auth: { auth_type: 'cloud_api_token', email: 'bot@example.test', api_token: 'jira token' } }, secretFields))],
    );
    await seed.close();
    api = await startCartograph(configOf(false), { logger: false, database: await openPostgresDatabase(scratch.url, 4) });
  }, 180_000);
  afterAll(async () => {
    for (const worker of workers) await worker.kill();
    await api?.close();
    await scratch?.drop();
    await tickets?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const startOne = async () => {
    const worker = await startWorker({ databaseUrl: scratch.url, secretKey, dataDir, environment: { CARTOGRAPH_ACTION_RUN_STALE_SECONDS: staleSeconds } });
    workers.push(worker);
    return worker;
  };
  const createTicketAction = async (name: string, query: string) => {
    const created = await inject(api, 'POST', '/actions/actions', {
      name, trigger: 'manual', scope: { entity: 'device', query }, type: 'ticket',
      parameters: { connection: jiraConnection, project_key: 'SEC', summary_template: `${name} {{Hostname}}`, description_template: 'Asset {{PrimaryKey}}' },
    });
    expect(created.statusCode).toBe(201);
    return created.json().id as number;
  };
  const startRun = async (actionId: number) => {
    const started = await inject(api, 'POST', `/actions/actions/${actionId}/run`, {});
    expect(started.statusCode).toBe(202);
    return started.json().id as number;
  };
  const runRow = async (runId: number) => {
    const [run] = await api.context.db.query<{ status: string; attempt: number; worker: string; error: string | null; succeeded: number; skipped: number; failed: number }>('select * from action_runs where id = $1', [runId]);
    return run;
  };
  const ended = (run: { status: string }) => run.status !== 'queued' && run.status !== 'running';
  const waitForEnd = async (runId: number) => {
    for (;;) {
      const run = await runRow(runId);
      if (ended(run)) return run;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  const resultsOf = (runId: number) =>
    api.context.db.query<{ name: string; status: string; detail: string }>('select name, status, detail from action_run_results where run_id = $1 order by name', [runId]);

  it('takes over a run whose worker was killed mid-run and opens no asset’s ticket twice', async () => {
    const first = await startOne();
    const actionId = await createTicketAction('Killed', 'Hostname = host-*');
    // The second ticket's request is held: the worker is killed while it waits for Jira's answer.
    tickets.holdWhen((summary) => summary === 'Killed host-00001');
    const runId = await startRun(actionId);
    await tickets.holding(1);
    expect(await runRow(runId)).toMatchObject({ status: 'running', attempt: 1, worker: first.name });

    const second = await startOne();
    await first.kill();
    tickets.releaseAll();
    const run = await waitForEnd(runId);
    expect(run).toMatchObject({ status: 'done', attempt: 2, worker: second.name });

    // Each asset reached Jira once: the first opened before the kill, the second held when it landed, the third
    // opened by the worker that took over.
    const asked = tickets.summaries.filter((summary) => summary.startsWith('Killed '));
    expect(asked.sort()).toEqual(['Killed host-00000', 'Killed host-00001', 'Killed host-00002']);
    const results = await resultsOf(runId);
    expect(results.map((result) => [result.name, result.status])).toEqual([['host-00000', 'skipped'], ['host-00001', 'skipped'], ['host-00002', 'succeeded']]);
    expect(results[0].detail).toMatch(/^Ticket SEC-\d+ was opened earlier\.$/);
    expect(results[1].detail).toMatch(/stopped/);
    const claims = await api.context.db.query<{ asset_id: string; ticket: string | null }>('select asset_id, ticket from action_tickets where action_id = $1 order by asset_id', [actionId]);
    expect(claims).toHaveLength(3);
    const takenOver = await api.context.db.query("select 1 from system_log where event = 'action_run_taken_over'");
    expect(takenOver.length).toBeGreaterThan(0);
  }, 180_000);

  it('opens one ticket between two runs of an action that overlap', async () => {
    await startOne();
    const actionId = await createTicketAction('Overlap', 'Hostname = host-00000');
    tickets.holdWhen((summary) => summary.startsWith('Overlap '));
    const firstRun = await startRun(actionId);
    await tickets.holding(1);
    // The first run waits on Jira in one worker; the second goes to the other. It must end without asking Jira
    // (a second held request means a second ticket).
    const secondRun = await startRun(actionId);
    const secondEnded = waitForEnd(secondRun);
    const winner = await Promise.race([secondEnded.then(() => 'ended'), tickets.holding(2).then(() => 'asked twice')]);
    tickets.releaseAll();
    expect(winner).toBe('ended');
    const [first, second] = [await waitForEnd(firstRun), await secondEnded];
    expect(first).toMatchObject({ status: 'done', succeeded: 1 });
    expect(second).toMatchObject({ status: 'done', succeeded: 0, skipped: 1 });
    expect(tickets.summaries.filter((summary) => summary.startsWith('Overlap '))).toEqual(['Overlap host-00000']);
    const claims = await api.context.db.query<{ ticket: string | null }>('select ticket from action_tickets where action_id = $1', [actionId]);
    expect(claims).toEqual([{ ticket: expect.stringMatching(/^SEC-\d+$/) }]);
  }, 180_000);
});
