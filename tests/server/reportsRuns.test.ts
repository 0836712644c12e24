import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCsv } from '../../src/server/reports/csvOutput.js';
import type { RenderInput } from '../../src/server/reports/output.js';
import { writePdf } from '../../src/server/reports/pdfOutput.js';
import { reportDocumentOf } from '../../src/server/reports/reportDocuments.js';
import { createRun, pruneRuns } from '../../src/server/reports/reportRuns.js';
import { writeXlsx } from '../../src/server/reports/xlsxOutput.js';
import { latestSnapshotAssets, publishSnapshot, snapshotA, snapshotB } from './dashboardsFixtures.js';
import { createUserWithGroups, engines, startTestServer, type TestServer } from './harness.js';
import { createReport, download, openWorkbook, runReport, sheetRows } from './reportsSupport.js';

const byOs = { type: 'chart', title: 'By OS', widget: { kind: 'group_by', inventory: 'device', field: 'OS.Type' } };
const overTime = { type: 'chart', title: 'Over time', widget: { kind: 'query_historical', inventory: 'device', days: 30 } };
const devices = { type: 'table', title: 'Devices', inventory: 'device', columns: ['Hostname', 'OS.Type'], sort: [{ field: 'Hostname', order: 'asc' }] };
const sinceBefore = { type: 'comparison', title: 'Since before', inventory: 'device', columns: ['Hostname'] };
const snapshotReport = { name: 'Snapshot check', is_public: true, sections: [devices, byOs, overTime, sinceBefore] };

describe.each(engines)('report runs on %s', (engine) => {
  let server: TestServer;
  let older: number;
  let latest: number;
  const call = (method: string, url: string, body?: unknown) => server.request(method, url, { token: server.adminToken, body });
  beforeAll(async () => {
    server = await startTestServer(engine);
    const now = new Date();
    await publishSnapshot(server.context.db, 1, now, 20, snapshotA);
    older = await publishSnapshot(server.context.db, 1, now, 10, snapshotB);
    latest = await publishSnapshot(server.context.db, 1, now, 0, latestSnapshotAssets(now));
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('reads a chosen older snapshot in every section: the table, the charts and the comparison', async () => {
    const reportId = await createReport(server, snapshotReport);
    const run = await runReport(server, reportId, { formats: ['xlsx'], index_id: older });
    expect(run.error).toBe('');
    expect(run.index_id).toBe(older);
    const workbook = await openWorkbook(await download(server, server.adminToken, run.files[0].url));
    // The older snapshot: ws-5 still there, no printer yet (the latest has it and not ws-5).
    expect(sheetRows(workbook.getWorksheet('Devices')!)).toEqual([['mac-1', 'macOS'], ['srv-1', 'Linux'], ['ws-1', 'Windows'], ['ws-2', 'Windows'], ['ws-5', 'Windows']]);
    expect(sheetRows(workbook.getWorksheet('By OS')!).map((row) => row.slice(0, 2))).toEqual([['Windows', 3], ['Linux', 1], ['macOS', 1]]);
    // A history chart ends at the chosen snapshot: the one before it and itself, not the latest.
    expect(sheetRows(workbook.getWorksheet('Over time')!).map((row) => row[2])).toEqual([4, 5]);
    // The comparison is with the snapshot before the chosen one.
    expect(sheetRows(workbook.getWorksheet('Since before')!)).toEqual([['Appeared', 'ws-5']]);

    const current = await runReport(server, reportId, { formats: ['xlsx'] });
    expect(current.index_id).toBe(latest);
    const now = await openWorkbook(await download(server, server.adminToken, current.files[0].url));
    expect(sheetRows(now.getWorksheet('By OS')!).map((row) => row.slice(0, 2))).toEqual([['Windows', 2], ['Linux', 1], ['macOS', 1], ['No value', 1]]);
    expect(sheetRows(now.getWorksheet('Over time')!).map((row) => row[2])).toEqual([4, 5, 5]);

    const preview = await call('POST', '/reports/preview', { ...snapshotReport, index_id: older });
    expect(preview.body.index_id).toBe(older);
    expect(preview.body.sections[1].data.rows.map((row: { label: string; value: number }) => [row.label, row.value])).toEqual([['Windows', 3], ['Linux', 1], ['macOS', 1]]);
    expect((await call('POST', `/reports/reports/${reportId}/run`, { formats: ['pdf'], index_id: 999_999 })).body).toEqual({ index_id: ['No published snapshot 999999.'] });
  }, 120_000);

  it('fails a run whose section broke after saving, naming the section in the run history', async () => {
    const saved = await call('POST', '/queries/queries', { name: 'Windows boxes', text: 'OS.Type = Windows', type: 'device', is_public: true });
    expect(saved.status).toBe(201);
    const reportId = await createReport(server, {
      name: 'Breaks later', is_public: true,
      sections: [{ type: 'text', title: 'Intro', markdown: 'Fine.' }, { type: 'table', title: 'Windows devices', saved_query: saved.body.id }, { ...devices, title: 'Typed query', query: 'Hostname = ws-1' }],
    });
    expect((await call('DELETE', `/queries/queries/${saved.body.id}`)).status).toBe(409);
    expect((await call('DELETE', `/queries/queries/${saved.body.id}?force=true`)).status).toBeLessThan(300);
    const deleted = await runReport(server, reportId, { formats: ['pdf'] });
    expect(deleted.status).toBe('error');
    expect(deleted.error).toMatch(new RegExp(`^Windows devices: .*${saved.body.id}`));
    expect(deleted.files).toEqual([]);

    // A stored query the query language no longer reads (saving refuses one, so the stored document is changed).
    await server.context.db.query(
      `update resources set document = jsonb_set(document, '{sections,2,query}', '"Hostname = ("') where id = $1`, [reportId],
    );
    const unparsed = await runReport(server, reportId, { formats: ['csv'] });
    expect(unparsed.status).toBe('error');
    expect(unparsed.error).toMatch(/Typed query: /);
    const history = await call('GET', `/reports/reports/${reportId}/runs`);
    expect(history.body.results.map((run: { id: number; status: string; error: string }) => [run.id, run.status, run.error])).toEqual([
      [unparsed.id, 'error', unparsed.error], [deleted.id, 'error', deleted.error],
    ]);
  }, 120_000);

  it('records a run\'s progress: formats, sections and rows done, and each table\'s rows out of those matching', async () => {
    const reportId = await createReport(server, { name: 'Progress', is_public: true, sections: [devices, byOs] });
    const run = await runReport(server, reportId, { formats: ['csv', 'xlsx'] });
    expect(run.status).toBe('done');
    expect(run.progress).toEqual({ format: 'xlsx', formats_done: 2, sections_done: 2, sections: 2, rows: 5, tables: [{ title: devices.title, shown: 5, matching: 5 }] });
  }, 120_000);

  it('keeps report settings within their schema and only changes them with the permission', async () => {
    expect((await call('GET', '/reports/settings')).body).toEqual({ retention_days: 30, attachment_limit_mb: 10, link_days: 7 });
    const refusals = [
      [{ retention_days: 0, attachment_limit_mb: 10 }, 'retention_days'], [{ retention_days: 'thirty', attachment_limit_mb: 10 }, 'retention_days'],
      [{ retention_days: 7, attachment_limit_mb: -1 }, 'attachment_limit_mb'], [{ retention_days: 7, attachment_limit_mb: 51 }, 'attachment_limit_mb'],
      [{ retention_days: 7, attachment_limit_mb: 10, link_days: 0 }, 'link_days'], [{ retention_days: 7, attachment_limit_mb: 10, link_days: 1.5 }, 'link_days'],
      [{ retention_days: 7, attachment_limit_mb: 10, extra: 1 }, 'extra'],
    ] as const;
    for (const [body, field] of refusals) {
      const refused = await call('PUT', '/reports/settings', body);
      expect(refused.status).toBe(400);
      expect(Object.keys(refused.body)).toEqual([field]);
    }
    expect((await call('GET', '/reports/settings')).body).toEqual({ retention_days: 30, attachment_limit_mb: 10, link_days: 7 });
    // A field left out takes its default.
    expect((await call('PUT', '/reports/settings', { retention_days: 14 })).body).toEqual({ retention_days: 14, attachment_limit_mb: 10, link_days: 7 });
    const viewer = await createUserWithGroups(server, server.adminToken, `settings-viewer-${engine}`, ['Viewers']);
    expect((await server.request('GET', '/reports/settings', { token: viewer.token })).status).toBe(200);
    expect((await server.request('PUT', '/reports/settings', { token: viewer.token, body: { retention_days: 1, attachment_limit_mb: 1 } })).status).toBe(403);
    expect((await call('PUT', '/reports/settings', { retention_days: 7, attachment_limit_mb: 0.5, link_days: 2 })).body).toEqual({ retention_days: 7, attachment_limit_mb: 0.5, link_days: 2 });
    expect((await call('GET', '/reports/settings')).body).toEqual({ retention_days: 7, attachment_limit_mb: 0.5, link_days: 2 });
  });

  it('deletes finished runs and their files older than the retention, and keeps the rest', async () => {
    const { db } = server.context;
    const reportId = await createReport(server, { name: 'Retention', is_public: true, sections: [devices] });
    await call('PUT', '/reports/settings', { retention_days: 7, attachment_limit_mb: 10 });
    const runAged = async (status: string, days: number) => {
      const run = await createRun(db, { companyId: 1, reportId, reportName: 'Retention', scheduleId: null, formats: ['csv'], indexId: null, userId: null, userName: 'test' });
      await db.query(`update report_runs set status = $2, queued_at = now() - make_interval(days => $3) where id = $1`, [run.id, status, days]);
      await db.query(`insert into report_files (run_id, format, filename, content_type, size, content) values ($1, 'csv', 'x.csv', 'text/csv', 1, '\\x41')`, [run.id]);
      return run.id;
    };
    const oldDone = await runAged('done', 8);
    const oldFailed = await runAged('error', 30);
    const oldWaiting = await runAged('queued', 8);
    const recent = await runAged('done', 6);
    await pruneRuns(db, 1);
    const kept = async () => (await db.query<{ id: number }>('select id from report_runs where report_id = $1 order by id', [reportId])).map((row) => row.id);
    expect(await kept()).toEqual([oldWaiting, recent]);
    expect(await db.query('select run_id from report_files where run_id = any($1::int[])', [[oldDone, oldFailed]])).toEqual([]);
    expect((await call('GET', `/reports/runs/${oldDone}`)).status).toBe(404);

    // A finished run prunes too: the retention shortened to 1 day, the next run leaves only the recent ones.
    await call('PUT', '/reports/settings', { retention_days: 1, attachment_limit_mb: 10 });
    const fresh = await runReport(server, reportId, { formats: ['csv'] });
    expect(await kept()).toEqual([oldWaiting, fresh.id]);
    await call('PUT', '/reports/settings', { retention_days: 30, attachment_limit_mb: 10 });
  }, 120_000);
});

describe('report writers', () => {
  const rowCount = 12_000;
  const inputWith = (onProgress: RenderInput['onProgress']): RenderInput => ({
    report: reportDocumentOf({ name: 'Progress' }), companyName: 'Example', logo: null, snapshot: { id: 1, start_time: new Date() }, now: new Date(), onProgress,
    sections: [{
      type: 'table', title: 'Numbers', noun: ['number', 'numbers'], columns: [{ field: 'N', label: 'N' }], limit: rowCount,
      rows: async function* () {
        for (let index = 1; index <= rowCount; index += 1) yield [index];
      },
      count: async () => rowCount, matching: rowCount, shown: rowCount,
    }],
  });

  it.each([['csv', writeCsv], ['xlsx', writeXlsx], ['pdf', writePdf]] as const)('report their progress every 5,000 rows and after each section (%s)', async (_format, write) => {
    const folder = await mkdtemp(join(tmpdir(), 'report-progress-'));
    try {
      const calls: { sections: number; rows: number }[] = [];
      await write(inputWith(async (done) => void calls.push(done)), join(folder, 'out'));
      expect(calls).toEqual([{ sections: 0, rows: 5000 }, { sections: 0, rows: 10_000 }, { sections: 1, rows: rowCount }]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 120_000);
});
