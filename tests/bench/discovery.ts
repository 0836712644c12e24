// Discovery figures for `npm run bench`: full discoveries of generated fleets across five sources, beside a bulk
// insert of the same final rows in the same run, and the device list API at 100k devices beside the same SQL sent
// directly. The five sources are real connections (Entra ID, CrowdStrike, Intune, Qualys, ServiceNow) fetching
// through the declarative HTTP engine and their adapters' manifests from a local replay server, which serves the
// generated fleet in vendor shapes from a child process (fleetReplay.ts) so the peak RSS is Cartograph's alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { readConfig } from '../../src/server/config.js';
import type { Database } from '../../src/server/db/database.js';
import { openPgliteDatabase } from '../../src/server/db/pgliteDatabase.js';
import { openPostgresDatabase } from '../../src/server/db/postgresDatabase.js';
import { correlate } from '../../src/server/discovery/correlation/correlate.js';
import { deviceCorrelationRules } from '../../src/server/discovery/correlation/deviceRules.js';
import { scoreClusters } from '../../src/server/discovery/correlation/scoring.js';
import { userCorrelationRules } from '../../src/server/discovery/correlation/userRules.js';
import { sealSecrets } from '../../src/server/auth/secretFields.js';
import { generateLabelledFleet } from '../../src/server/demo/fleet.js';
import { planSnapshotQuery, queryCondition } from '../../src/server/inventory/search.js';
import { startCartograph, type RunningCartograph } from '../../src/server/server.js';
import { createScratchPostgres } from '../server/harness.js';
import { benchFleet, replayConnections, startFleetReplay, vendorIdTruth } from './fleetReplay.js';
import { percentiles } from './measure.js';

type Engine = 'pglite' | 'postgresql';
const password = 'bench admin passphrase';
const listIterations = Number(process.env.BENCH_LIST_ITERATIONS) || 100;

/** Samples the process's memory while work runs; answers the peaks of its resident set and of the JS heap in use. */
export async function withPeakMemory<T>(work: () => Promise<T>): Promise<{ result: T; peakRssMb: number; peakHeapUsedMb: number }> {
  const peak = { rss: 0, heapUsed: 0 };
  const sample = () => {
    const { rss, heapUsed } = process.memoryUsage();
    peak.rss = Math.max(peak.rss, rss);
    peak.heapUsed = Math.max(peak.heapUsed, heapUsed);
  };
  sample();
  const timer = setInterval(sample, 50);
  try {
    const result = await work();
    sample();
    return { result, peakRssMb: Math.round(peak.rss / 2 ** 20), peakHeapUsedMb: Math.round(peak.heapUsed / 2 ** 20) };
  } finally {
    clearInterval(timer);
  }
}

export async function startOn(engine: Engine, devices: number, withSoftware = false) {
  const scratch = engine === 'postgresql' ? await createScratchPostgres() : null;
  const dataDir = mkdtempSync(join(tmpdir(), 'cartograph-bench-'));
  // PGlite in its data folder, as `npm start` runs it (an in-memory PGlite would count the whole database as RSS).
  const database: Database = scratch ? await openPostgresDatabase(scratch.url) : await openPgliteDatabase(join(dataDir, 'pglite'));
  const replay = await startFleetReplay(devices, withSoftware);
  const running = await startCartograph({ ...readConfig({}), outboundAllowLoopback: true, dataDir, adminPassword: password, secretKey: 'bench', signInRateLimitPerMinute: 100_000 }, { logger: false, database });
  const token: string = (await running.app.inject({ method: 'POST', url: '/api/token', payload: { username: 'admin', password } })).json().access;
  const stop = async () => {
    await replay.stop();
    await running.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { running, token, replay, stop };
}

/**
 * Adds the five replay connections to company 1, secrets sealed as the connections API seals them. Not through that
 * API: the CrowdStrike and Qualys forms choose the vendor's cloud from a list, which a local server is not on.
 */
export async function addReplayConnections(running: RunningCartograph, url: string, withSoftware = false): Promise<void> {
  const { db, adapters, keys } = running.context;
  for (const { adapter, name, config } of replayConnections(url, withSoftware)) {
    const secretFields = adapters.catalogue.get(adapter)!.secretFields;
    await db.query(
      'insert into connections (company_id, adapter, name, connector_id, config) values (1, $1, $2, (select id from connectors where company_id = 1 and is_default), $3)',
      [adapter, name, JSON.stringify(sealSecrets(keys.secretsKey, config, secretFields))],
    );
  }
}

type ConnectionOutcome = { name: string; state: string; records: number; error: string; warnings: string[]; duration_ms: number };
type DiscoveryOutcome = { id: number; progress: { assets: Record<string, number>; connections: ConnectionOutcome[]; stages: Record<string, { duration_ms: number }> } };

export async function discover(running: RunningCartograph, token: string): Promise<DiscoveryOutcome> {
  const headers = { authorization: `Bearer ${token}` };
  const started = await running.app.inject({ method: 'POST', url: '/discoveries/discoveries', headers });
  if (started.statusCode !== 202) throw new Error(`discovery did not start: ${started.body}`);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const last = (await running.app.inject({ method: 'GET', url: '/discoveries/last', headers })).json();
    if (last.status === 3) throw new Error(`discovery failed: ${last.error}`);
    if (last.status !== 2) continue;
    // A connection that failed leaves a smaller snapshot behind: figures of it would mislead.
    const failed = (last as DiscoveryOutcome).progress.connections.filter((connection) => connection.state === 'error' || connection.warnings.length);
    if (failed.length) throw new Error(`connections failed: ${failed.map((connection) => `${connection.name}: ${connection.error || connection.warnings[0]}`).join('; ')}`);
    return last;
  }
}

/**
 * Merge precision and recall of the replayed discovery against the fleet's truth (each fetched record traced by the
 * vendor id the replay emitted), beside the same fleet's records correlated directly as the fleet states them.
 */
async function replayedMergeScores(db: Database, discoveryId: number, devices: number) {
  const fleet = benchFleet(devices);
  const { idFields, truthById } = vendorIdTruth(fleet);
  const vendorId = `coalesce(${idFields.map((_, index) => `fields->$${index + 2}`).join(', ')})->>0`;
  const records = await db.query<{ record_key: string; adapter: string; vendor_id: string | null }>(
    `select record_key, adapter, ${vendorId} as vendor_id from snapshot_records where discovery_id = $1 and entity in ('device', 'user')`, [discoveryId, ...idFields],
  );
  const truth = new Map<string, string>();
  for (const record of records) {
    const real = truthById.get(`${record.adapter}:${record.vendor_id}`);
    if (!real) throw new Error(`fetched record ${record.record_key} carries no vendor id the replay emitted`);
    truth.set(record.record_key, real);
  }
  const assets = await db.query<{ entity: string; record_keys: string[] }>('select entity, record_keys from snapshot_assets where discovery_id = $1', [discoveryId]);
  const scoreOf = (entity: string) => {
    const clusters = assets.filter((asset) => asset.entity === entity).map((asset) => ({ records: asset.record_keys, reasons: [] }));
    const entityTruth = new Map(clusters.flatMap((cluster) => cluster.records.map((key) => [key, truth.get(key)!] as const)));
    return round(scoreClusters(clusters, entityTruth));
  };
  return {
    replayed: { device_merges: scoreOf('device'), user_merges: scoreOf('user') },
    fleet_records_correlated_directly: {
      device_merges: round(scoreClusters(correlate(fleet.records, deviceCorrelationRules(fleet.records)), fleet.truth)),
      user_merges: round(scoreClusters(correlate(fleet.users, userCorrelationRules()), fleet.userTruth)),
    },
  };
}

const seconds = (milliseconds: number) => Number((milliseconds / 1000).toFixed(2));
const round = (score: { precision: number; recall: number }) => ({ precision: Number(score.precision.toFixed(4)), recall: Number(score.recall.toFixed(4)) });

/** The baseline: the discovery's final rows (records and assets) written again with batched multi-row inserts. */
async function bulkInsertBaseline(db: Database, discoveryId: number): Promise<number> {
  await db.exec('create table bench_records (like snapshot_records); create table bench_assets (like snapshot_assets)');
  const records = await db.query<{ record_key: string; connection_id: number; adapter: string; entity: string; fields: string }>(
    'select record_key, connection_id, adapter, entity, fields::text as fields from snapshot_records where discovery_id = $1', [discoveryId],
  );
  const assets = await db.query<{ entity: string; asset_id: string; fields: string; specifics: string; preferred: string; record_keys: string[]; reasons: string }>(
    'select entity, asset_id, fields::text as fields, specifics::text as specifics, preferred::text as preferred, record_keys, reasons::text as reasons from snapshot_assets where discovery_id = $1', [discoveryId],
  );
  const started = performance.now();
  for (let start = 0; start < records.length; start += 2000) {
    const batch = records.slice(start, start + 2000);
    await db.query('insert into bench_records select $1, * from unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::jsonb[])', [
      discoveryId, batch.map((row) => row.record_key), batch.map((row) => row.connection_id), batch.map((row) => row.adapter), batch.map((row) => row.entity), batch.map((row) => row.fields),
    ]);
  }
  for (let start = 0; start < assets.length; start += 2000) {
    const batch = assets.slice(start, start + 2000);
    await db.query(
      `insert into bench_assets (discovery_id, entity, asset_id, fields, specifics, preferred, record_keys, reasons)
       select $1, entity, asset_id, fields, specifics, preferred, array(select jsonb_array_elements_text(keys)), reasons
         from unnest($2::text[], $3::text[], $4::jsonb[], $5::jsonb[], $6::jsonb[], $7::jsonb[], $8::jsonb[]) as batch(entity, asset_id, fields, specifics, preferred, keys, reasons)`,
      [discoveryId, batch.map((row) => row.entity), batch.map((row) => row.asset_id), batch.map((row) => row.fields), batch.map((row) => row.specifics), batch.map((row) => row.preferred), batch.map((row) => JSON.stringify(row.record_keys)), batch.map((row) => row.reasons)],
    );
  }
  const elapsed = performance.now() - started;
  await db.exec('drop table bench_records; drop table bench_assets');
  return elapsed;
}

/** The device list a console page asks for: a filter, a sort and a page of 50 with the count. */
const listBody = (page: number) => ({ query: 'OS.Type = Windows AND AdapterCount >= 2', fields: ['Hostname', 'OS.Type', 'Adapters', 'LastSeen'], ordering: [{ field: 'Hostname', order: 'desc' }], size: 50, page });

export async function benchList(running: RunningCartograph, token: string, discoveryId: number) {
  const api: number[] = [];
  for (let run = 0; run < listIterations; run += 1) {
    const started = performance.now();
    const answer = await running.app.inject({ method: 'POST', url: '/devices/devices', headers: { authorization: `Bearer ${token}` }, payload: listBody(1 + (run % 20)) });
    api.push(performance.now() - started);
    if (answer.statusCode !== 200) throw new Error(`list failed: ${answer.body}`);
  }
  // Baseline: the same count, page and documents statements sent straight to the database (no HTTP, auth,
  // validation, JSON); and, for comparison, the same list answered from the assets' JSONB documents alone.
  const { db } = running.context;
  const body = listBody(1);
  const plan = await planSnapshotQuery(db, { companyId: 1, userId: null }, discoveryId, 'device', body.query, body.ordering as { field: string; order: 'desc' }[]);
  const documentsOnly = await queryCondition(db, { companyId: 1, userId: null }, body.query, 3);
  const timed = async (statements: (offset: number) => Promise<unknown>) => {
    const samples: number[] = [];
    for (let run = 0; run < listIterations; run += 1) {
      const started = performance.now();
      await statements(50 * (run % 20));
      samples.push(performance.now() - started);
    }
    return percentiles(samples);
  };
  const direct = await timed(async (offset) => {
    await db.query(`select count(*)::int from ${plan.table} where ${plan.countWhere}`, plan.params);
    const page = await db.query<{ asset_id: string }>(`select asset_id from ${plan.table} where ${plan.where} order by ${plan.orderSql} limit 50 offset ${offset}`, plan.params);
    await db.query("select asset_id, fields from snapshot_assets where discovery_id = $1 and entity = 'device' and asset_id = any($2::text[])", [discoveryId, page.map((row) => row.asset_id)]);
  });
  const documents = await timed(async (offset) => {
    const where = `discovery_id = $1 and entity = $2 and ${documentsOnly.sql}`;
    const params = [discoveryId, 'device', ...documentsOnly.params];
    await db.query(`select count(*)::int from snapshot_assets where ${where}`, params);
    await db.query(`select asset_id, fields from snapshot_assets where ${where} order by fields->'Hostname'->>0 desc nulls last, asset_id limit 50 offset ${offset}`, params);
  });
  return { api: percentiles(api), sql_baseline: direct, read_from: plan.table, jsonb_documents_before_typed_columns: documents };
}

async function benchDiscovery(engine: Engine, devices: number, withList: boolean, withSoftware = false) {
  const { running, token, replay, stop } = await startOn(engine, devices, withSoftware);
  try {
    await addReplayConnections(running, replay.url, withSoftware);
    const started = performance.now();
    const { result: done, peakRssMb, peakHeapUsedMb } = await withPeakMemory(() => discover(running, token));
    const wallMs = performance.now() - started;
    const records = done.progress.connections.reduce((sum, connection) => sum + connection.records, 0);
    // The baseline reads every record back into memory: for the millions of installations, the device-only
    // discovery beside it is the baseline instead.
    const bulkMs = withSoftware ? null : await bulkInsertBaseline(running.context.db, done.id);
    return {
      engine, devices, ...(withSoftware && { software: await softwareRows(running.context.db, done.id) }), source_records: records, records_served: replay.served, sources: 5, devices_in_two_or_more_sources: replay.devices_in_two_or_more_sources, assets: done.progress.assets,
      discovery: {
        wall_s: seconds(wallMs), records_per_s: Math.round(records / (wallMs / 1000)), peak_rss_mb: peakRssMb, peak_js_heap_used_mb: peakHeapUsedMb,
        // Where the time went: fetching (per connection, run four at a time), correlating, publishing.
        stages_s: Object.fromEntries(Object.entries(done.progress.stages).map(([stage, { duration_ms }]) => [stage, seconds(duration_ms)])),
        fetch_s: Object.fromEntries(done.progress.connections.map((connection) => [connection.name, seconds(connection.duration_ms)])),
      },
      ...(bulkMs !== null && { bulk_insert_of_final_rows_baseline: { wall_s: seconds(bulkMs) } }),
      ...(withList && { list_api_page_of_50_with_count: await benchList(running, token, done.id) }),
      merge_scores: await replayedMergeScores(running.context.db, done.id, devices),
    };
  } finally {
    await stop();
  }
}

/** What a discovery with the EDR's software published: installation, software, finding and vulnerability rows. */
async function softwareRows(db: Database, discoveryId: number) {
  const [row] = await db.query<Record<string, number>>(
    `select (select count(*)::int from snapshot_installations where discovery_id = $1) as installations,
            (select count(*)::int from snapshot_findings where discovery_id = $1) as findings,
            (select count(*)::int from snapshot_assets where discovery_id = $1 and entity = 'software') as software,
            (select count(*)::int from snapshot_assets where discovery_id = $1 and entity = 'vulnerability') as vulnerabilities`,
    [discoveryId],
  );
  return row;
}

/**
 * The 100k discovery again with the EDR's installed software (~40 per device, 4M records) and Spotlight findings
 * (~3 per device, 300k) fetched, correlated and published; beside it in the same run, the device-only discovery.
 */
export async function softwareDiscoveryBench(devices = 100_000, only?: Engine) {
  const engines: Engine[] = only ? [only] : process.env.DATABASE_URL ? ['pglite', 'postgresql'] : ['pglite'];
  const runs = [];
  for (const engine of engines) {
    for (const withSoftware of [false, true]) {
      const { discovery, software, source_records } = await benchDiscovery(engine, devices, false, withSoftware);
      runs.push({ engine, devices, with_software: withSoftware, source_records, ...(software && { published: software }), discovery });
      process.stderr.write(`${JSON.stringify(runs.at(-1))}\n`);
    }
  }
  return runs;
}

/** Merge precision and recall on labelled fleets (devices and people), adversarial cases included. */
export function correctnessReport(sizes = [2_000, 10_000, 100_000]) {
  return sizes.map((devices) => {
    const fleet = generateLabelledFleet(devices, 7);
    const deviceScore = scoreClusters(correlate(fleet.records, deviceCorrelationRules(fleet.records)), fleet.truth);
    const userScore = scoreClusters(correlate(fleet.users, userCorrelationRules()), fleet.userTruth);
    return { devices, device_merges: round(deviceScore), users: fleet.users.length, user_merges: round(userScore) };
  });
}

/** Every discovery figure; PostgreSQL rows when DATABASE_URL is set. */
export async function discoveryBench(sizes = [10_000, 100_000], only?: Engine) {
  const engines: Engine[] = only ? [only] : process.env.DATABASE_URL ? ['pglite', 'postgresql'] : ['pglite'];
  const runs = [];
  for (const engine of engines) {
    for (const devices of sizes) {
      runs.push(await benchDiscovery(engine, devices, devices === Math.max(...sizes)));
      // Each run as it finishes, so a long bench shows its figures early.
      process.stderr.write(`${JSON.stringify(runs.at(-1))}\n`);
    }
  }
  const goals = runs.filter((run) => run.devices === 100_000).map((run) => ({
    engine: run.engine,
    discovery_100k_within_60_s: run.discovery.wall_s <= 60,
    list_p95_within_100_ms: run.list_api_page_of_50_with_count ? run.list_api_page_of_50_with_count.api.p95_ms <= 100 : null,
    peak_rss_within_1_5_gb: run.discovery.peak_rss_mb <= 1536,
  }));
  const source = 'local replay server (child process) answering the real Entra ID, CrowdStrike, Intune, Qualys and ServiceNow manifests with the generated fleet in vendor shapes (fields the manifests cannot carry: tests/bench/fleetVendors.ts)';
  return { source, runs, goals, correctness: correctnessReport() };
}

// `tsx tests/bench/discovery.ts [devices...] [pglite|postgresql] [software]` runs these figures alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv.slice(2).map(Number).filter((size) => size > 0);
  const only = process.argv.slice(2).find((argument): argument is Engine => argument === 'pglite' || argument === 'postgresql');
  const figures = process.argv.includes('software') ? await softwareDiscoveryBench(sizes[0], only) : await discoveryBench(sizes.length ? sizes : undefined, only);
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
}
