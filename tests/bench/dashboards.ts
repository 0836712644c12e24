// The dashboard figure: a dashboard of 12 widgets over a 100k-device snapshot (and two older snapshots for the
// widgets that read across snapshots). Server time for all widget data through the API, p50/p95, beside a
// baseline: one hand-written aggregate statement per widget sent straight to the database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { readConfig } from '../../src/server/config.js';
import type { Database } from '../../src/server/db/database.js';
import { openPgliteDatabase } from '../../src/server/db/pgliteDatabase.js';
import { openPostgresDatabase } from '../../src/server/db/postgresDatabase.js';
import { warmDashboards } from '../../src/server/dashboards/warmDashboards.js';
import { startCartograph } from '../../src/server/server.js';
import { seededRandom } from '../../src/server/demo/random.js';
import { createScratchPostgres } from '../server/harness.js';
import { percentiles, time } from './measure.js';

const password = 'bench admin passphrase';
const day = 86_400_000;

const operatingSystems = ['Windows', 'Windows', 'Windows', 'Linux', 'macOS', 'iOS', 'Android'];
const categories = ['Workstation', 'Laptop', 'Server', 'Virtual Machine', 'Mobile'];
const adapterNames = ['active-directory', 'crowdstrike', 'microsoft-intune', 'qualys', 'servicenow'];

/** Writes a published snapshot of `devices` devices (ids stable across snapshots, a share dropped per snapshot). */
async function writeSnapshot(db: Database, devices: number, daysAgo: number, seed: number): Promise<number> {
  const random = seededRandom(seed);
  const [{ id }] = await db.query<{ id: number }>(
    "insert into discoveries (company_id, status, start_time, end_time) values (1, 'done', now() - make_interval(days => $1), now() - make_interval(days => $1)) returning id",
    [daysAgo],
  );
  const batch = 5000;
  for (let start = 0; start < devices; start += batch) {
    const ids: string[] = [];
    const fields: string[] = [];
    for (let index = start; index < Math.min(devices, start + batch); index += 1) {
      if (random.chance(0.02)) continue;
      const adapters = adapterNames.filter(() => random.chance(0.5));
      ids.push(`device-${index}`);
      fields.push(JSON.stringify({
        PrimaryKey: [`device-${index}`], Hostname: [`host-${index}`], 'OS.Type': [random.pick(operatingSystems)], Category: [random.pick(categories)],
        Adapters: adapters.length ? adapters : ['servicenow'], SecurityScore: random.chance(0.8) ? [random.integer(101)] : [],
        'VulnerableSoftware.CveId': random.chance(0.4) ? [`CVE-2024-${random.integer(2000)}`, `CVE-2023-${random.integer(2000)}`] : [],
        LastSeen: [new Date(Date.now() - random.integer(60) * day).toISOString()],
      }));
    }
    await db.query(
      `insert into snapshot_assets (discovery_id, entity, asset_id, fields, preferred, record_keys, reasons)
       select $1, 'device', asset_id, fields, '{}'::jsonb, '{}'::text[], '[]'::jsonb from unnest($2::text[], $3::jsonb[]) as batch(asset_id, fields)`,
      [id, ids, fields],
    );
  }
  const vulnerabilities = Array.from({ length: 2000 }, (_, index) => JSON.stringify({ CveId: [`CVE-2024-${index}`], CvssScore: [Math.round(random.integer(100)) / 10], SoftwareName: [`software-${index % 50}`] }));
  await db.query(
    `insert into snapshot_assets (discovery_id, entity, asset_id, fields, preferred, record_keys, reasons)
     select $1, 'vulnerability', 'vulnerability-' || ordinality, fields, '{}'::jsonb, '{}'::text[], '[]'::jsonb from unnest($2::jsonb[]) with ordinality as batch(fields, ordinality)`,
    [id, vulnerabilities],
  );
  return id;
}

const benchWidgets = [
  { name: 'Totals', kind: 'totals', days: 7 },
  { name: 'Per adapter', kind: 'device_discovery' },
  { name: 'By OS', kind: 'group_by', field: 'OS.Type' },
  { name: 'Windows by category', kind: 'group_by', field: 'Category', query: 'OS.Type = Windows' },
  { name: 'Windows history', kind: 'query_historical', query: 'OS.Type = Windows', days: 30 },
  { name: 'Servers then and now', kind: 'time_differential', query: 'Category = Server', days: 7 },
  { name: 'Trend', kind: 'trend', days: 30 },
  { name: 'Lowest scores', kind: 'lowest_security_score' },
  { name: 'Security score', kind: 'security_score' },
  { name: 'Vulnerabilities by OS', kind: 'vulnerability_by_os' },
  { name: 'Vulnerabilities by severity', kind: 'vulnerability_by_severity' },
  { name: 'Stale devices trend', kind: 'query_trend', query: 'NOT LastSeen last now-30d', days: 30 },
];

// One aggregate statement per widget above, written by hand: what the widget computes at its core.
// Parameters: all = every snapshot id, latest = the newest one's id, staleBefore = an ISO date 30 days ago.
type BaselineParameters = { all: number[]; latest: number; staleBefore: string };
const baselineStatements: [string, (parameters: BaselineParameters) => unknown[]][] = [
  ["select entity, count(*) from snapshot_assets where discovery_id = any($1) and entity in ('device', 'user') group by discovery_id, entity", ({ all }) => [all]],
  ["select value, count(*) from snapshot_assets, jsonb_array_elements_text(fields->'Adapters') value where discovery_id = $1 and entity = 'device' group by value", ({ latest }) => [latest]],
  ["select value, count(*) from snapshot_assets, jsonb_array_elements_text(fields->'OS.Type') value where discovery_id = $1 and entity = 'device' group by value", ({ latest }) => [latest]],
  ["select value, count(*) from snapshot_assets, jsonb_array_elements_text(fields->'Category') value where discovery_id = $1 and entity = 'device' and fields->'OS.Type' ? 'Windows' group by value", ({ latest }) => [latest]],
  ["select discovery_id, count(*) from snapshot_assets where discovery_id = any($1) and entity = 'device' and fields->'OS.Type' ? 'Windows' group by discovery_id", ({ all }) => [all]],
  ["select discovery_id, count(*) from snapshot_assets where discovery_id = any($1) and entity = 'device' and fields->'Category' ? 'Server' group by discovery_id", ({ all }) => [all]],
  ['select discovery_id, entity, count(*) from snapshot_assets where discovery_id = any($1) group by discovery_id, entity', ({ all }) => [all]],
  ["select asset_id, (fields->'SecurityScore'->>0)::int as score from snapshot_assets where discovery_id = $1 and entity = 'device' and jsonb_array_length(fields->'SecurityScore') > 0 order by score limit 10", ({ latest }) => [latest]],
  ["select avg((fields->'SecurityScore'->>0)::int) from snapshot_assets where discovery_id = $1 and entity = 'device' and jsonb_array_length(fields->'SecurityScore') > 0", ({ latest }) => [latest]],
  ["select fields->'OS.Type'->>0, sum(jsonb_array_length(fields->'VulnerableSoftware.CveId')) from snapshot_assets where discovery_id = $1 and entity = 'device' group by 1", ({ latest }) => [latest]],
  ["select (fields->'CvssScore'->>0)::numeric >= 7, count(*) from snapshot_assets where discovery_id = $1 and entity = 'vulnerability' group by 1", ({ latest }) => [latest]],
  ["select discovery_id, count(*) from snapshot_assets where discovery_id = any($1) and entity = 'device' and fields->'LastSeen'->>0 < $2 group by discovery_id", ({ all, staleBefore }) => [all, staleBefore]],
];

/** Runs the dashboard bench on one engine and answers its figures. */
export async function benchDashboards(engine: 'pglite' | 'postgresql', options: { devices?: number; runs?: number; coldRuns?: number } = {}) {
  const devices = options.devices ?? 100_000;
  const runs = options.runs ?? 20;
  const coldRuns = options.coldRuns ?? 5;
  const scratch = engine === 'postgresql' ? await createScratchPostgres() : null;
  const dataDir = mkdtempSync(join(tmpdir(), 'cartograph-bench-'));
  // PGlite in its data folder, as `npm start` runs it, so the server can be restarted on the same data.
  const start = async () =>
    startCartograph(
      { ...readConfig({}), outboundAllowLoopback: true, dataDir, adminPassword: password, secretKey: 'bench', signInRateLimitPerMinute: 100_000 },
      { logger: false, database: scratch ? await openPostgresDatabase(scratch.url) : await openPgliteDatabase(join(dataDir, 'pglite')) },
    );
  let running = await start();
  try {
    const { db } = running.context;
    const seeded = performance.now();
    const snapshots = [await writeSnapshot(db, devices, 20, 1), await writeSnapshot(db, devices, 10, 2), await writeSnapshot(db, devices, 0, 3)];
    await db.query('analyze snapshot_assets');
    const seedSeconds = Number(((performance.now() - seeded) / 1000).toFixed(1));
    const access = (await running.app.inject({ method: 'POST', url: '/api/token', payload: { username: 'admin', password } })).json().access;
    const headers = { authorization: `Bearer ${access}` };
    const dashboard = (await running.app.inject({ method: 'POST', url: '/dashboards/dashboards', headers, payload: { name: 'Bench' } })).json();
    for (const widget of benchWidgets) {
      const created = await running.app.inject({ method: 'POST', url: '/dashboards/widgets', headers, payload: { ...widget, dashboard: dashboard.id } });
      if (created.statusCode !== 201) throw new Error(`Widget ${widget.name}: ${created.body}`);
    }
    const dataUrl = `/dashboards/dashboards/${dashboard.id}/data`;
    const check = (await running.app.inject({ method: 'GET', url: dataUrl, headers })).json();
    const failed = check.tiles.filter((tile: { error?: unknown }) => tile.error);
    if (check.tiles.length !== 12 || failed.length) throw new Error(`Dashboard data incomplete: ${JSON.stringify(failed)}`);
    // Cold: every run follows a change of the data the widgets depend on (a saved query edited), so all 12 are
    // computed from the snapshots. Warm: the same request again, answered from results kept for unchanged data.
    const saved = (await running.app.inject({ method: 'POST', url: '/queries/queries', headers, payload: { name: 'Touched', text: 'OS.Type = Linux' } })).json();
    let edits = 0;
    const cold = await time(coldRuns, async () => {
      edits += 1;
      await running.app.inject({ method: 'PATCH', url: `/queries/queries/${saved.id}`, headers, payload: { tags: [`edit-${edits}`] } });
      const started = performance.now();
      await running.app.inject({ method: 'GET', url: dataUrl, headers });
      return performance.now() - started;
    });
    // After a publish, the discovery computes the company's dashboards in the background (warmDashboards) before
    // anyone asks: `warming` is that background work (one tile at a time), `first_load_after_warming` the request
    // that follows it. The saved-query edit stands in for the publish as the change of data.
    const warming: number[] = [];
    const afterWarming = await time(coldRuns, async () => {
      edits += 1;
      await running.app.inject({ method: 'PATCH', url: `/queries/queries/${saved.id}`, headers, payload: { tags: [`edit-${edits}`] } });
      const started = performance.now();
      await warmDashboards(running.context, 1);
      warming.push(performance.now() - started);
      const loaded = performance.now();
      await running.app.inject({ method: 'GET', url: dataUrl, headers });
      return performance.now() - loaded;
    });
    const warm = await time(runs, () => running.app.inject({ method: 'GET', url: dataUrl, headers }));
    // A restarted server (or a second API process) has nothing in memory: its first load reads the results the
    // warming stored in the database.
    const afterRestart = await time(coldRuns, async () => {
      await running.close();
      running = await start();
      const started = performance.now();
      const answer = await running.app.inject({ method: 'GET', url: dataUrl, headers });
      if (answer.statusCode !== 200) throw new Error(`Dashboard data after a restart: ${answer.body}`);
      return performance.now() - started;
    });
    const staleBefore = new Date(Date.now() - 30 * day).toISOString();
    const parameters = { all: snapshots, latest: snapshots[2], staleBefore };
    const direct = await time(coldRuns, async () => {
      for (const [statement, parametersOf] of baselineStatements) await running.context.db.query(statement, parametersOf(parameters));
    });
    return { engine, devices_per_snapshot: devices, snapshots: snapshots.length, widgets: benchWidgets.length, seed_seconds: seedSeconds, dashboard_data_cold: percentiles(cold), dashboard_data_warm: percentiles(warm),
      warming: percentiles(warming), first_load_after_warming: percentiles(afterWarming), first_load_after_restart: percentiles(afterRestart), aggregate_sql_baseline: percentiles(direct) };
  } finally {
    await running.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// `tsx tests/bench/dashboards.ts [pglite|postgresql]` runs these figures alone (PostgreSQL needs DATABASE_URL);
// BENCH_DASHBOARD_RUNS shortens the cold runs while iterating.
if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.argv.slice(2).find((argument): argument is 'pglite' | 'postgresql' => argument === 'pglite' || argument === 'postgresql');
  const engines = only ? [only] : process.env.DATABASE_URL ? (['pglite', 'postgresql'] as const) : (['pglite'] as const);
  const coldRuns = process.env.BENCH_DASHBOARD_RUNS ? Number(process.env.BENCH_DASHBOARD_RUNS) : undefined;
  for (const engine of engines) process.stdout.write(`${JSON.stringify(await benchDashboards(engine, { coldRuns }))}\n`);
}
