import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeChart } from '../../src/server/dashboards/computeChart.js';
import { computeWidget, widgetComputations, widgetSettingsOf } from '../../src/server/dashboards/computeWidget.js';
import type { WidgetContext } from '../../src/server/dashboards/widgetData.js';
import { discoveryScheduleKind } from '../../src/server/discovery/settings.js';
import { saveSettingsDocument } from '../../src/server/settings/settingsStore.js';
import { createCompany } from '../../src/server/identity/companies.js';
import { latestFindings, latestRecords, latestSnapshotAssets, publishFindings, publishSnapshot, snapshotA, snapshotB } from './dashboardsFixtures.js';
import { engines, startTestServer, type TestServer } from './harness.js';

describe.each(engines)('widget computations over known snapshots on %s', (engine) => {
  let server: TestServer;
  let context: WidgetContext;
  let emptyContext: WidgetContext;
  let snapshots: { a: number; b: number; c: number; failed: number };
  const now = new Date();
  const widget = (kind: string, settings: Record<string, unknown> = {}) => computeWidget(context, widgetSettingsOf({ kind, ...settings }));

  beforeAll(async () => {
    server = await startTestServer(engine);
    const { db } = server.context;
    snapshots = {
      a: await publishSnapshot(db, 1, now, 40, snapshotA),
      b: await publishSnapshot(db, 1, now, 10, snapshotB),
      c: await publishSnapshot(db, 1, now, 1 / 24, latestSnapshotAssets(now), latestRecords),
      failed: await publishSnapshot(db, 1, now, 0, [], [], 'error'),
    };
    await publishFindings(db, snapshots.c, latestFindings);
    const connector = "(select id from connectors where company_id = 1 and is_default)";
    for (const [name, status, enabled] of [['EDR', 1, true], ['Directory', 1, true], ['Scanner', 3, true], ['Old CMDB', 1, false]] as const) {
      await db.query(`insert into connections (company_id, adapter, name, connector_id, config, status, enabled) values (1, 'csv', $1, ${connector}, '{}', $2, $3)`, [name, status, enabled]);
    }
    await saveSettingsDocument(db, 1, discoveryScheduleKind, { enabled: true, cron: '0 2 * * *', timezone: 'UTC' });
    // Widgets expand the saved queries of the user they are computed for: the administrator, who saves them below.
    const [admin] = await db.query<{ id: number }>("select id from users where username = 'admin'");
    context = { db, companyId: 1, userId: admin.id, now };
    emptyContext = { db, companyId: await createCompany(db, { name: 'Empty company' }), userId: null, now };
  });
  afterAll(() => server.stop());

  it('groups the latest snapshot by a field, with a segment for records without a value and the query behind each segment', async () => {
    const data = await widget('group_by', { field: 'OS.Type' });
    expect(data).toMatchObject({ display: 'pie', index_id: snapshots.c, total: 5 });
    expect(data.rows).toEqual([
      { label: 'Windows', value: 2, query: 'OS.Type = "Windows"' },
      { label: 'Linux', value: 1, query: 'OS.Type = "Linux"' },
      { label: 'macOS', value: 1, query: 'OS.Type = "macOS"' },
      { label: 'No value', value: 1, query: 'NOT OS.Type = *' },
    ]);
    const narrowed = await widget('group_by', { field: 'Adapters', query: 'OS.Type = Windows', limit: 1 });
    expect(narrowed.rows).toEqual([{ label: 'crowdstrike', value: 2, query: 'OS.Type = Windows AND Adapters = "crowdstrike"' }]);
  });

  it('counts devices and users now and in the snapshot the chosen days before', async () => {
    const data = await widget('totals', { days: 7 });
    expect(data.rows).toEqual([
      { label: 'Devices', inventory: 'device', value: 5, previous: 5, query: '' },
      { label: 'Users', inventory: 'user', value: 2, previous: 1, query: '' },
    ]);
  });

  it('counts devices per reporting adapter beside the unique devices', async () => {
    const data = await widget('device_discovery');
    expect(data.rows).toEqual([
      { label: 'crowdstrike', value: 2, query: 'Adapters = "crowdstrike"' },
      { label: 'active-directory', value: 1, query: 'Adapters = "active-directory"' },
      { label: 'jamf', value: 1, query: 'Adapters = "jamf"' },
      { label: 'qualys', value: 1, query: 'Adapters = "qualys"' },
      { label: 'servicenow', value: 1, query: 'Adapters = "servicenow"' },
      { label: 'Unique devices', value: 5, query: '' },
    ]);
  });

  it('draws one query across every snapshot of the period, oldest first', async () => {
    const data = await widget('query_historical', { query: 'OS.Type = Windows', days: 60 });
    expect(data.display).toBe('line');
    expect(data.rows.map((row) => [row.index_id, row.value])).toEqual([[snapshots.a, 2], [snapshots.b, 3], [snapshots.c, 2]]);
    const recent = await widget('query_historical', { query: 'OS.Type = Windows', days: 30 });
    expect(recent.rows.map((row) => row.index_id)).toEqual([snapshots.b, snapshots.c]);
  });

  it('draws a line per saved query in a query trend', async () => {
    const saved = await server.request('POST', '/queries/queries', { token: server.adminToken, body: { name: 'Linux servers', text: 'OS.Type = Linux' } });
    const data = await widget('query_trend', { saved_queries: [saved.body.id], query: 'Adapters = crowdstrike', days: 60 });
    expect(data.rows.filter((row) => row.series === 'Linux servers').map((row) => row.value)).toEqual([1, 1, 1]);
    expect(data.rows.filter((row) => row.series === 'Adapters = crowdstrike').map((row) => row.value)).toEqual([1, 2, 2]);
    expect(data.rows[0].query).toBe(`Query is ${saved.body.id}`);
  });

  it('follows the size of every inventory that has records across the period', async () => {
    const data = await widget('trend', { days: 30 });
    const series = (name: string) => data.rows.filter((row) => row.series === name).map((row) => row.value);
    expect(series('Devices')).toEqual([5, 5]);
    expect(series('Users')).toEqual([1, 2]);
    expect(series('Vulnerabilities')).toEqual([0, 3]);
    expect(series('Certificates')).toEqual([0, 5]);
    expect(series('Applications')).toEqual([]);
  });

  it('compares now with the newest snapshot the chosen days older, with the records added and removed', async () => {
    const data = await widget('time_differential', { days: 7 });
    expect(data.rows.map((row) => [row.label, row.value])).toEqual([['Now', 5], ['7 days before', 5], ['Added', 1], ['Removed', 1]]);
    expect(data.rows[1].index_id).toBe(snapshots.b);
    const windows = await widget('time_differential', { days: 7, query: 'OS.Type = Windows' });
    expect(windows.rows.map((row) => row.value)).toEqual([2, 3, 0, 1]);
    const tooFar = await widget('time_differential', { days: 90 });
    expect(tooFar).toMatchObject({ rows: [], message: expect.stringContaining('No snapshot is 90 days older') });
  });

  it('sorts certificates by how soon they expire', async () => {
    const data = await widget('certificate_expiry');
    expect(data.rows.map((row) => [row.label, row.value])).toEqual([['Expired', 1], ['Within 30 days', 1], ['Within 90 days', 1], ['Later', 1], ['No expiry date', 1]]);
    expect(data).toMatchObject({ inventory: 'certificate', total: 5 });
    expect(data.rows[0].query).toBe(`NotAfter < "${now.toISOString()}"`);
  });

  it('lists the devices with the lowest security scores and averages the scores', async () => {
    const lowest = await widget('lowest_security_score', { limit: 1 });
    expect(lowest.rows).toEqual([{ Hostname: 'ws-1', 'OS.Type': 'Windows', SecurityScore: 42, query: 'PrimaryKey = "d1"' }]);
    const score = await widget('security_score');
    expect(score.rows.map((row) => [row.label, row.value])).toEqual([['Average score', 65], ['Devices scored', 2], ['Scoring below 50', 1]]);
  });

  it('reads security scores a source reports as text, and leaves out values that are not numbers', async () => {
    const { db } = server.context;
    const companyId = await createCompany(db, { name: 'Scored company' });
    await publishSnapshot(db, companyId, now, 0, [
      { entity: 'device', id: 's1', fields: { Hostname: ['text-score'], SecurityScore: ['35'] } },
      { entity: 'device', id: 's2', fields: { Hostname: ['number-score'], SecurityScore: [70.5] } },
      { entity: 'device', id: 's3', fields: { Hostname: ['word-score'], SecurityScore: ['high'] } },
      { entity: 'device', id: 's4', fields: { Hostname: ['no-score'] } },
    ]);
    const scored = { ...context, companyId };
    const lowest = await computeWidget(scored, widgetSettingsOf({ kind: 'lowest_security_score' }));
    expect(lowest.rows.map((row) => [row.Hostname, row.SecurityScore])).toEqual([['text-score', 35], ['number-score', 70.5]]);
    const score = await computeWidget(scored, widgetSettingsOf({ kind: 'security_score' }));
    expect(score.rows.map((row) => [row.label, row.value])).toEqual([['Average score', 52.8], ['Devices scored', 2], ['Scoring below 50', 1]]);
  });

  it('counts open vulnerability findings by operating system and source, and vulnerabilities by severity and software', async () => {
    expect((await widget('vulnerability_by_os')).rows).toEqual([
      { label: 'Windows', value: 3, devices: 2, query: 'Vulnerability.Status = open AND OS.Type = "Windows"' },
      { label: 'Linux', value: 1, devices: 1, query: 'Vulnerability.Status = open AND OS.Type = "Linux"' },
    ]);
    expect((await widget('vulnerability_by_severity')).rows).toEqual([
      { label: 'Critical', value: 1, query: 'NOT Severity = * AND Score >= 9' },
      { label: 'High', value: 1, query: 'Severity = "High"' },
      { label: 'Low', value: 1, query: 'Severity = "Low"' },
    ]);
    expect((await widget('vulnerability_by_software')).rows).toEqual([
      { label: 'OpenSSL', value: 2, query: 'AffectedSoftware = "OpenSSL"' },
      { label: 'Chrome', value: 1, query: 'AffectedSoftware = "Chrome"' },
    ]);
    expect((await widget('vulnerability_by_source')).rows).toEqual([
      { label: 'qualys', value: 3, devices: 2, query: 'Vulnerability.Status = open AND Vulnerability.Source = "qualys"' },
      { label: 'crowdstrike', value: 2, devices: 2, query: 'Vulnerability.Status = open AND Vulnerability.Source = "crowdstrike"' },
    ]);
  });

  it('reports connection statuses, the latest discovery and the next scheduled ones', async () => {
    expect((await widget('connection_statuses')).rows).toEqual([{ label: 'Done', value: 2 }, { label: 'Error', value: 1 }, { label: 'Disabled', value: 1 }]);
    const info = await widget('discovery_info');
    expect(info.index_id).toBeNull();
    expect(info.rows).toContainEqual({ label: 'Status', value: 'Failed' });
    expect(info.rows).toContainEqual({ label: 'Error', value: 'Every connection failed' });
    expect(info.rows).toContainEqual({ label: 'Duration (seconds)', value: 90 });
    const next = await widget('next_discoveries', { limit: 3 });
    const runs = next.rows.map((row) => Date.parse(String(row.value)));
    expect(next.rows.map((row) => String(row.value).slice(10))).toEqual(['T02:00:00.000Z', 'T02:00:00.000Z', 'T02:00:00.000Z']);
    expect(runs[0]).toBeGreaterThan(now.getTime());
    expect(runs[0] - now.getTime()).toBeLessThanOrEqual(86_400_000);
    expect(runs[1] - runs[0]).toBe(86_400_000);
  });

  it('computes score, number and table charts over query text and saved queries', async () => {
    const chart = { inventory: 'device', query: '', group_by_query: null, group_by_data: '', fields: ['Hostname'], limit: 10 };
    const score = await computeChart(context, { ...chart, kind: 'score', query: 'Adapters = crowdstrike' });
    expect(score.rows).toEqual([{ label: 'Score', value: 40, matched: 2, total: 5, query: 'Adapters = crowdstrike' }]);
    const saved = await server.request('POST', '/queries/queries', { token: server.adminToken, body: { name: 'Windows', text: 'OS.Type = Windows' } });
    const number = await computeChart(context, { ...chart, kind: 'number', group_by_query: saved.body.id, query: 'SecurityScore < 50' });
    expect(number.rows).toEqual([{ label: 'Records', value: 1, total: 5, query: `Query is ${saved.body.id} AND SecurityScore < 50` }]);
    const grouped = await computeChart(context, { ...chart, kind: 'table', group_by_data: 'OS.Type' });
    expect(grouped.rows.map((row) => [row['OS.Type'], row.Count])).toEqual([['Windows', 2], ['Linux', 1], ['macOS', 1], ['No value', 1]]);
    const records = await computeChart(context, { ...chart, kind: 'table', fields: ['Hostname', 'OS.Type'], limit: 2 });
    expect(records).toMatchObject({ columns: ['Hostname', 'OS.Type'], rows: [{ Hostname: ['ws-1'], 'OS.Type': ['Windows'] }, { Hostname: ['ws-2'], 'OS.Type': ['Windows'] }] });
  });

  it('answers every kind for a company without data with no rows and a sentence saying what fills it', async () => {
    for (const kind of Object.keys(widgetComputations)) {
      const data = await computeWidget(emptyContext, widgetSettingsOf({ kind, field: 'OS.Type', query: kind === 'query_trend' ? 'OS.Type = Windows' : '' }));
      expect(data.rows, kind).toEqual([]);
      expect(data.message, kind).toMatch(/\w+.*: .+/);
    }
  });

  it('says what fills the security widgets when the inventory holds devices but no scores, certificates or vulnerabilities', async () => {
    await publishSnapshot(server.context.db, emptyContext.companyId, now, 0, [{ entity: 'device', id: 'x1', fields: { Hostname: ['x1'], 'OS.Type': ['Windows'] } }]);
    for (const kind of ['certificate_expiry', 'lowest_security_score', 'security_score', 'vulnerability_by_os', 'vulnerability_by_severity', 'vulnerability_by_software', 'vulnerability_by_source']) {
      const data = await computeWidget(emptyContext, widgetSettingsOf({ kind }));
      expect(data.rows, kind).toEqual([]);
      expect(data.message, kind).toMatch(/connection|enrichment|adapter/);
    }
    expect((await computeWidget(emptyContext, widgetSettingsOf({ kind: 'group_by', field: 'OS.Type' }))).rows).toHaveLength(1);
  });
});
