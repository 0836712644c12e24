// `npm run bench -- --devices 1000000 [--workers 2]`: the estate that outgrows one process, on PostgreSQL. The API runs in this
// process and runs no discovery step (CARTOGRAPH_RUN_DISCOVERIES=0); the discovery runs in `npm run worker`
// processes, once with one worker and once with two (or only with the `--workers` count), from the replay server (a child process, as in the discovery
// bench). Reports wall time and where it went, the peak RSS of every process, and the device list and the default
// dashboard at that size.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { readConfig } from '../../src/server/config.js';
import { openPostgresDatabase } from '../../src/server/db/postgresDatabase.js';
import { startCartograph, type RunningCartograph } from '../../src/server/server.js';
import { createScratchPostgres } from '../server/harness.js';
import { startWorker, type WorkerProcess } from '../support/workerProcess.js';
import { addReplayConnections, benchList, discover } from './discovery.js';
import { startFleetReplay } from './fleetReplay.js';
import { percentiles, time } from './measure.js';

const password = 'bench admin passphrase';
const secretKey = 'bench';
const seconds = (milliseconds: number) => Number((milliseconds / 1000).toFixed(1));
const ownPeakRssMb = () => Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024);

// Fetch lanes per worker: one worker runs two of the five connections at once, two workers four, as on two machines.
const fetchLanes = 2;

/**
 * Waits until the publish step's job has ended (the vacuum and statistics after the publish itself) and the jobs
 * that follow a publish (src/server/subscribers.ts) have all run.
 */
async function publishJobsDone(api: RunningCartograph) {
  const pending = () =>
    api.context.db.query<{ count: number }>(
      "select count(*)::int as count from pgboss.job where (name = 'discovery-publish' or name like 'published-%') and state in ('created', 'retry', 'active')",
    );
  while ((await pending())[0].count > 0) await new Promise((resolve) => setTimeout(resolve, 500));
}

/** One discovery run by `count` fresh workers: wall time, stages, and what each worker ran and peaked at. */
async function discoverWith(api: RunningCartograph, token: string, databaseUrl: string, dataDir: string, count: number) {
  const workers: WorkerProcess[] = [];
  for (let index = 0; index < count; index += 1) workers.push(await startWorker({ databaseUrl, secretKey, dataDir, fetchLanes }));
  try {
    const started = performance.now();
    const done = await discover(api, token);
    const wallMs = performance.now() - started;
    // The workers run what follows a publish (the dashboards' warming): stopping them first would leave it undone.
    await publishJobsDone(api);
    const steps = await api.context.db.query<{ step: string; worker: string }>('select step, worker from discovery_steps where discovery_id = $1 order by position', [done.id]);
    return {
      workers: count,
      fetch_lanes_per_worker: fetchLanes,
      discovery_id: done.id,
      wall_s: seconds(wallMs),
      stages_s: Object.fromEntries(Object.entries(done.progress.stages).map(([stage, { duration_ms }]) => [stage, seconds(duration_ms)])),
      fetch_s: Object.fromEntries(done.progress.connections.map((connection) => [connection.name, seconds(connection.duration_ms)])),
      processes: workers.map((worker) => ({
        worker: worker.name,
        peak_rss_mb: Math.round(worker.peakRssMb()),
        steps: steps.filter((step) => step.worker === worker.name).map((step) => step.step),
      })),
      source_records: done.progress.connections.reduce((sum, connection) => sum + connection.records, 0),
      assets: done.progress.assets,
    };
  } finally {
    for (const worker of workers) await worker.stop();
  }
}

/** The company's default dashboard through the API process: its first load (results the worker stored) and repeats. */
async function benchDefaultDashboard(api: RunningCartograph, token: string) {
  const headers = { authorization: `Bearer ${token}` };
  const [dashboard] = (await api.app.inject({ method: 'GET', url: '/dashboards/dashboards?size=1', headers })).json().results;
  const url = `/dashboards/dashboards/${dashboard.id}/data`;
  const firstStarted = performance.now();
  const first = await api.app.inject({ method: 'GET', url, headers });
  const firstMs = performance.now() - firstStarted;
  if (first.statusCode !== 200) throw new Error(`dashboard failed: ${first.body}`);
  const repeated = await time(20, () => api.app.inject({ method: 'GET', url, headers }));
  return { widgets: first.json().tiles.length, first_load_ms: Math.round(firstMs), repeated: percentiles(repeated) };
}

export async function scaleBench(devices: number, workerCounts = [1, 2]) {
  if (!process.env.DATABASE_URL) throw new Error('--devices runs on PostgreSQL only: set DATABASE_URL');
  const scratch = await createScratchPostgres();
  const dataDir = mkdtempSync(join(tmpdir(), 'cartograph-scale-'));
  const replay = await startFleetReplay(devices);
  const config = { ...readConfig({}), outboundAllowLoopback: true, dataDir, databaseUrl: scratch.url, adminPassword: password, secretKey, signInRateLimitPerMinute: 100_000, runDiscoveries: false };
  const api = await startCartograph(config, { logger: false, database: await openPostgresDatabase(scratch.url) });
  try {
    const token: string = (await api.app.inject({ method: 'POST', url: '/api/token', payload: { username: 'admin', password } })).json().access;
    await addReplayConnections(api, replay.url);
    const runs = [];
    for (const count of workerCounts) {
      runs.push(await discoverWith(api, token, scratch.url, dataDir, count));
      process.stderr.write(`${JSON.stringify(runs.at(-1))}\n`);
    }
    const latest = runs.at(-1)!.discovery_id;
    return {
      devices,
      source: 'local replay server (child process) answering the Entra ID, CrowdStrike, Intune, Qualys and ServiceNow manifests',
      runs,
      api_process_peak_rss_mb: ownPeakRssMb(),
      list_api_page_of_50_with_count: await benchList(api, token, latest),
      default_dashboard: await benchDefaultDashboard(api, token),
    };
  } finally {
    await api.close();
    await replay.stop();
    await scratch.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
