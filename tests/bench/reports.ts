// Reports at 100k devices: one report with a 100k-row device table, two charts and a snapshot comparison, written as
// CSV, XLSX and PDF by the run job's own code (renderRun); wall time and peak RSS above the idle process per format.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { readConfig } from '../../src/server/config.js';
import { openPgliteDatabase } from '../../src/server/db/pgliteDatabase.js';
import { openPostgresDatabase } from '../../src/server/db/postgresDatabase.js';
import { reportKind } from '../../src/server/reports/reportDocuments.js';
import { createRun, renderRun } from '../../src/server/reports/reportRuns.js';
import { startCartograph } from '../../src/server/server.js';
import { publishSnapshot, type KnownAsset } from '../server/dashboardsFixtures.js';
import { createScratchPostgres } from '../server/harness.js';
import { withPeakMemory } from './discovery.js';

const operatingSystems = ['Windows', 'Linux', 'macOS', 'iOS', 'Android'];
const adapters = ['crowdstrike', 'active-directory', 'intune', 'qualys', 'servicenow'];

function fleet(devices: number, generation: number): KnownAsset[] {
  return Array.from({ length: devices }, (_, index) => ({
    entity: 'device', id: `d${index + generation * 1000}`,
    fields: {
      Hostname: [`host-${String(index).padStart(6, '0')}`], 'OS.Type': [operatingSystems[index % 5]], Adapters: [adapters[index % 5], adapters[(index + generation) % 5]],
      SecurityScore: [index % 100], LastSeen: [new Date(Date.UTC(2026, 10, 1) + index * 1000).toISOString()], SerialNumber: [`SN${index}`],
    },
  }));
}

async function seed(db: Parameters<typeof publishSnapshot>[0], devices: number): Promise<void> {
  const now = new Date();
  for (const [daysAgo, generation] of [[7, 1], [0, 0]] as const) {
    // One discovery row per snapshot; the fixture writes assets in one statement, so write them in slices.
    const all = fleet(devices, generation);
    const id = await publishSnapshot(db, 1, now, daysAgo, all.slice(0, 10_000));
    for (let start = 10_000; start < all.length; start += 10_000) {
      const slice = all.slice(start, start + 10_000);
      await db.query(
        `insert into snapshot_assets (discovery_id, entity, asset_id, fields, preferred, record_keys, reasons)
         select $1, 'device', asset_id, fields, '{}'::jsonb, '{}'::text[], '[]'::jsonb from unnest($2::text[], $3::jsonb[]) as batch(asset_id, fields)`,
        [id, slice.map((asset) => asset.id), slice.map((asset) => JSON.stringify({ ...asset.fields, PrimaryKey: [asset.id] }))],
      );
    }
  }
}

/** The bench of one engine: each format rendered once from the same report. */
export async function benchReports(engine: 'pglite' | 'postgresql', devices = 100_000) {
  const scratch = engine === 'postgresql' ? await createScratchPostgres() : null;
  const dataDir = mkdtempSync(join(tmpdir(), 'cartograph-bench-'));
  const database = scratch ? await openPostgresDatabase(scratch.url) : await openPgliteDatabase(null);
  const running = await startCartograph({ ...readConfig({}), outboundAllowLoopback: true, dataDir, adminPassword: 'bench admin passphrase', secretKey: 'bench', runDiscoveries: false }, { logger: false, database });
  try {
    const { db } = running.context;
    await seed(db, devices);
    const report = {
      name: 'Fleet', description: '', is_public: true, format: 'pdf', page_size: 'A4', orientation: 'landscape', show_company: true, time_zone: 'UTC', index_id: null, owner_id: 1,
      sections: [
        { type: 'table', title: 'Devices', inventory: 'device', query: '', saved_query: null, columns: ['Hostname', 'OS.Type', 'Adapters', 'SecurityScore', 'LastSeen'], sort: [{ field: 'Hostname', order: 'asc' }], limit: devices, markdown: '', compare_to: null },
        { type: 'chart', title: 'By OS', widget: { kind: 'group_by', inventory: 'device', field: 'OS.Type' }, inventory: 'device', query: '', saved_query: null, columns: [], sort: [], limit: 10, markdown: '', compare_to: null },
        { type: 'chart', title: 'By adapter', widget: { kind: 'group_by', inventory: 'device', field: 'Adapters' }, inventory: 'device', query: '', saved_query: null, columns: [], sort: [], limit: 10, markdown: '', compare_to: null },
        { type: 'comparison', title: 'Changes', inventory: 'device', query: '', saved_query: null, columns: ['Hostname', 'Adapters'], sort: [], limit: 1000, markdown: '', compare_to: null },
      ],
    };
    const [{ id: reportId }] = await db.query<{ id: number }>('insert into resources (kind, company_id, document) values ($1, 1, $2) returning id', [reportKind, JSON.stringify(report)]);
    const results: Record<string, unknown> = { engine, devices };
    for (const format of ['csv', 'xlsx', 'pdf'] as const) {
      const run = await createRun(db, { companyId: 1, reportId, reportName: 'Fleet', scheduleId: null, formats: [format], indexId: null, userId: null, userName: 'bench' });
      global.gc?.();
      const idleRssMb = Math.round(process.memoryUsage().rss / 2 ** 20);
      const started = performance.now();
      const { result: succeeded, peakRssMb, peakHeapUsedMb } = await withPeakMemory(() => renderRun(running.context, run.id));
      const wallS = Number(((performance.now() - started) / 1000).toFixed(1));
      const [file] = await db.query<{ size: string }>('select size from report_files where run_id = $1', [run.id]);
      const [failed] = await db.query<{ error: string }>('select error from report_runs where id = $1', [run.id]);
      results[format] = { succeeded, error: failed.error || undefined, wall_s: wallS, idle_rss_mb: idleRssMb, peak_rss_mb: peakRssMb, peak_rss_above_idle_mb: peakRssMb - idleRssMb, peak_js_heap_used_mb: peakHeapUsedMb, file_mb: Number((Number(file?.size ?? 0) / 2 ** 20).toFixed(1)) };
    }
    return results;
  } finally {
    await running.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
