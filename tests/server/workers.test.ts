import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/server/config.js';
import { openPostgresDatabase } from '../../src/server/db/postgresDatabase.js';
import { startCartograph, type RunningCartograph } from '../../src/server/server.js';
import { addReplayConnections } from '../bench/discovery.js';
import { benchFleet } from '../bench/fleetReplay.js';
import { startFleetReplayServer } from '../bench/fleetReplayRoutes.js';
import { startWorker, type WorkerProcess } from '../support/workerProcess.js';
import { postgresTestsRun } from '../support/postgresRequired.js';
import { adminPassword, createScratchPostgres } from './harness.js';

// One discovery shared by `npm run worker` processes on PostgreSQL: the API process runs none of its steps, a worker
// is killed (SIGKILL, as a crash or the out-of-memory killer would) while it is in the middle of fetching a
// connection, and another worker takes the step over. The discovery must publish once, whole: the same inventory a
// discovery nobody killed publishes.

// Requests of the vulnerability scanner's host pages let through before the gate closes: the worker is then
// provably mid-fetch (several pages written) when it is killed.
const pagesBeforeGate = 4;
const secretKey = 'workers test secret key';

/**
 * A proxy in front of the replay server that holds the scanner's pages after the first few while `closed`. Answers
 * name the proxy where they named the replay server (next-page links), so paging goes through it too.
 */
async function startGate(target: string) {
  let url = '';
  let scannerPages = 0;
  let closed = true;
  let onHeld: () => void = () => undefined;
  const held: (() => void)[] = [];
  const server: Server = createServer((incoming, reply) => {
    const pass = () => {
      const upstream = forward(`${target}${incoming.url}`, { method: incoming.method, headers: incoming.headers }, async (answer) => {
        const chunks: Buffer[] = [];
        for await (const chunk of answer) chunks.push(chunk as Buffer);
        const body = Buffer.concat(chunks).toString('utf8').split(target).join(url);
        const { 'content-length': _length, ...headers } = answer.headers;
        reply.writeHead(answer.statusCode ?? 502, headers).end(body);
      });
      upstream.on('error', () => reply.destroy());
      incoming.pipe(upstream);
    };
    if (incoming.url?.startsWith('/qps/rest/2.0/search/am/hostasset') && ++scannerPages > pagesBeforeGate && closed) {
      held.push(pass);
      onHeld();
      return;
    }
    pass();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    reached: new Promise<void>((resolve) => (onHeld = resolve)),
    open: () => {
      closed = false;
      held.splice(0).forEach((pass) => pass());
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

describe.runIf(postgresTestsRun())('a discovery shared by worker processes on postgresql', () => {
  const fleet = benchFleet(2000);
  let replay: Awaited<ReturnType<typeof startFleetReplayServer>>;
  let gate: Awaited<ReturnType<typeof startGate>>;
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
  let api: RunningCartograph;
  let token: string;
  const workers: WorkerProcess[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'cartograph-workers-'));

  beforeAll(async () => {
    replay = await startFleetReplayServer(fleet);
    gate = await startGate(replay.url);
    scratch = await createScratchPostgres();
    const config = { ...readConfig({}), dataDir, databaseUrl: scratch.url, adminPassword, secretKey, passwordExpiryDays: 0, runDiscoveries: false };
    api = await startCartograph(config, { logger: false, database: await openPostgresDatabase(scratch.url, 4) });
    token = (await api.app.inject({ method: 'POST', url: '/api/token', payload: { username: 'admin', password: adminPassword } })).json().access;
    await addReplayConnections(api, gate.url);
  });
  afterAll(async () => {
    for (const worker of workers) await worker.kill();
    await api?.close();
    await scratch?.drop();
    await gate?.close();
    await replay?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const startOne = async () => {
    const worker = await startWorker({ databaseUrl: scratch.url, secretKey, dataDir });
    workers.push(worker);
    return worker;
  };
  const headers = () => ({ authorization: `Bearer ${token}` });
  const startDiscovery = async () => {
    const started = await api.app.inject({ method: 'POST', url: '/discoveries/discoveries', headers: headers() });
    expect(started.statusCode).toBe(202);
  };
  const waitForEnd = async () => {
    for (;;) {
      const last = (await api.app.inject({ method: 'GET', url: '/discoveries/last', headers: headers() })).json();
      if (last.status !== 1) return last;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  const steps = (discoveryId: number) =>
    api.context.db.query<{ step: string; state: string; attempt: number; worker: string }>('select step, state, attempt, worker from discovery_steps where discovery_id = $1 order by position', [discoveryId]);

  it('hands a killed worker’s fetch to another worker and publishes once, the same inventory as an undisturbed run', async () => {
    const first = await startOne();
    await startDiscovery();
    await gate.reached;
    const [running] = await api.context.db.query<{ id: number }>("select id from discoveries where status = 'running'");
    const [scanner] = await api.context.db.query<{ id: number }>("select id from connections where adapter = 'qualys'");
    const scannerStep = (await steps(running.id)).find((step) => step.step === `fetch:${scanner.id}`);
    expect(scannerStep).toMatchObject({ state: 'running', attempt: 1, worker: first.name });
    const [{ count: writtenBeforeKill }] = await api.context.db.query<{ count: string }>('select count(*) from snapshot_records where discovery_id = $1', [running.id]);
    expect(Number(writtenBeforeKill)).toBeGreaterThan(0);

    const second = await startOne();
    await first.kill();
    gate.open();
    const taken = await waitForEnd();
    expect(taken).toMatchObject({ id: running.id, status: 2 });
    const after = await steps(running.id);
    expect(taken.progress.connections.every((connection: { state: string }) => connection.state === 'done')).toBe(true);
    expect(after.find((step) => step.step === scannerStep!.step)).toMatchObject({ state: 'done', attempt: 2, worker: second.name });
    expect(after.find((step) => step.step === 'publish')).toMatchObject({ state: 'done', attempt: 1, worker: second.name });

    // An undisturbed discovery of the same sources, by the surviving worker alone.
    await startDiscovery();
    const undisturbed = await waitForEnd();
    expect(undisturbed.status).toBe(2);
    expect(taken.progress.assets).toEqual(undisturbed.progress.assets);
    expect(taken.progress.connections.map((connection: { records: number }) => connection.records)).toEqual(undisturbed.progress.connections.map((connection: { records: number }) => connection.records));
    const counts = await api.context.db.query<{ discovery_id: number; records: string }>(
      'select discovery_id, count(*) as records from snapshot_records where discovery_id = any($1::int[]) group by discovery_id order by discovery_id',
      [[taken.id, undisturbed.id]],
    );
    expect(counts[0].records).toBe(counts[1].records);
    const published = await api.context.db.query("select id from discoveries where status = 'done'");
    expect(published).toHaveLength(2);
    const takenOver = await api.context.db.query("select 1 from system_log where event = 'discovery_step_taken_over'");
    expect(takenOver.length).toBeGreaterThan(0);
    // Two worker processes start (tsx compiles each) and two discoveries run: on a busy 2-core machine that alone
    // can pass the default minute.
  }, 180_000);
});
