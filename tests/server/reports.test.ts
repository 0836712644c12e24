import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSmtpSettings, saveSmtpSettings } from '../../src/server/outbound/smtp.js';
import { sendDueSchedules } from '../../src/server/reports/reportJobs.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtpServer.js';
import { latestSnapshotAssets, publishSnapshot, snapshotB } from './dashboardsFixtures.js';
import { createUserWithGroups, engines, startTestServer, type TestServer } from './harness.js';
import { download, openWorkbook, pdfPageTexts, sheetRows, waitFor } from './reportsSupport.js';

const unmanaged = {
  name: 'Unmanaged devices', description: 'Devices no EDR reports', is_public: true, format: 'pdf', time_zone: 'Europe/Istanbul',
  sections: [
    { type: 'text', title: 'About', markdown: '## Why\nDevices **without** EDR. <script>alert(1)</script>' },
    { type: 'table', title: 'Devices', inventory: 'device', query: 'NOT Adapters = crowdstrike', columns: ['Hostname', 'OS.Type', 'SecurityScore'], sort: [{ field: 'Hostname', order: 'asc' }] },
    { type: 'chart', title: 'By OS', widget: { kind: 'group_by', inventory: 'device', field: 'OS.Type' } },
    { type: 'comparison', title: 'Since last time', inventory: 'device', columns: ['Hostname', 'Adapters'] },
  ],
};

describe.each(engines)('reports on %s', (engine) => {
  let server: TestServer;
  let smtp: TestSmtpServer;
  let reportId: number;
  beforeAll(async () => {
    server = await startTestServer(engine);
    smtp = await startSmtpServer({ refuse: ['nobody@example.test'] });
    const now = new Date();
    await publishSnapshot(server.context.db, 1, now, 10, snapshotB);
    await publishSnapshot(server.context.db, 1, now, 0, latestSnapshotAssets(now));
  }, 120_000);
  afterAll(async () => {
    await smtp?.close();
    await server?.stop();
  });
  const call = (method: string, url: string, body?: unknown) => server.request(method, url, { token: server.adminToken, body });

  it('refuses sections whose query does not parse or names a deleted saved query, naming the section', async () => {
    const broken = await call('POST', '/reports/reports', { name: 'Broken', sections: [{ type: 'table', query: 'Hostname = (' }, { type: 'table', saved_query: 999 }] });
    expect(broken.status).toBe(400);
    expect(Object.keys(broken.body)).toEqual(['sections.0.query', 'sections.1.query']);
    const noWidget = await call('POST', '/reports/reports', { name: 'No widget', sections: [{ type: 'chart' }] });
    expect(noWidget.body).toEqual({ 'sections.0.widget': ['A chart section needs a widget.'] });
  });

  it('refuses a time zone that is no IANA name it knows, under the field, when saving and when previewing', async () => {
    for (const time_zone of ['Mars/Olympus', '+03:00']) {
      for (const url of ['/reports/reports', '/reports/preview']) {
        const refused = await call('POST', url, { name: `Zone ${time_zone}`, time_zone, sections: [] });
        expect(refused.status, `${url} ${time_zone}`).toBe(400);
        expect(Object.keys(refused.body)).toEqual(['time_zone']);
      }
    }
    const accepted = await call('POST', '/reports/preview', { name: 'Zone', time_zone: 'America/Argentina/Buenos_Aires', sections: [] });
    expect(accepted.status).toBe(200);
  });

  it('previews a definition on the server: first rows, counts, chart data, Markdown as a tree', async () => {
    const preview = await call('POST', '/reports/preview', unmanaged);
    expect(preview.status).toBe(200);
    const [text, table, chart, comparison] = preview.body.sections;
    expect(text.blocks[0]).toMatchObject({ kind: 'heading', level: 2 });
    expect(JSON.stringify(text.blocks)).toContain('<script>alert(1)</script>');
    expect(table.rows).toEqual([['mac-1', 'macOS', ''], ['printer 6', '', ''], ['srv-1', 'Linux', '']]);
    expect(table.count).toBe(3);
    expect(chart.data.rows.length).toBeGreaterThan(0);
    // A spec that draws: one mark, or layers of them (a donut is its arcs and their values).
    expect(chart.spec.mark ?? chart.spec.layer?.[0]?.mark).toBeTruthy();
    expect(comparison.rows.map((row: string[]) => row[0]).sort()).toEqual(['Appeared', 'Changed', 'Disappeared']);
  });

  it('shows a section that broke after saving as an error in the preview', async () => {
    const preview = await call('POST', '/reports/preview', { name: 'x', sections: [{ type: 'table', saved_query: 4242 }] });
    expect(preview.body.sections[0].error).toMatch(/4242/);
  });

  it('runs a report as a job into PDF, XLSX (typed, frozen, filtered) and zipped CSV, kept in its history', async () => {
    const created = await call('POST', '/reports/reports', unmanaged);
    expect(created.status).toBe(201);
    reportId = created.body.id;
    const started = await call('POST', `/reports/reports/${reportId}/run`, { formats: ['pdf', 'xlsx', 'csv'] });
    expect(started.status).toBe(202);
    const run = await waitFor(async () => {
      const answer = await call('GET', `/reports/runs/${started.body.id}`);
      return answer.body.status === 'done' || answer.body.status === 'error' ? answer.body : null;
    }, 'the run');
    expect(run.error).toBe('');
    expect(run.status).toBe('done');
    expect(run.requested_by).toBeTruthy();
    expect(run.files.map((file: { format: string }) => file.format)).toEqual(['csv', 'pdf', 'xlsx']);
    const pdf = await download(server, server.adminToken, `/reports/runs/${run.id}/files/pdf`);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect((pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length).toBeGreaterThanOrEqual(5);
    const zip = await download(server, server.adminToken, `/reports/runs/${run.id}/files/csv`);
    expect(zip.subarray(0, 2).toString()).toBe('PK');
    const workbook = await openWorkbook(await download(server, server.adminToken, `/reports/runs/${run.id}/files/xlsx`));
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Devices', 'By OS', 'Since last time']);
    const devices = workbook.getWorksheet('Devices')!;
    expect(devices.getRow(1).values).toEqual([undefined, 'Hostname', 'OS type', 'Security score']);
    expect(devices.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(devices.autoFilter).toBeTruthy();
    const byOs = workbook.getWorksheet('By OS')!;
    expect(typeof byOs.getRow(2).getCell(2).value).toBe('number');
    const history = await call('GET', `/reports/reports/${reportId}/runs`);
    expect(history.body.results[0]).toMatchObject({ id: run.id, status: 'done' });
    expect(history.body.results[0].duration_seconds).toBeGreaterThanOrEqual(0);
  }, 120_000);

  it('answers each report\'s newest run in the list itself, and null for a report never run', async () => {
    const never = await call('POST', '/reports/reports', { name: 'Never run', sections: [] });
    const list = await call('GET', '/reports/reports');
    const runs = await call('GET', `/reports/reports/${reportId}/runs`);
    const listed = list.body.results.find((report: { id: number }) => report.id === reportId);
    expect(listed.last_run).toMatchObject({ id: runs.body.results[0].id, status: 'done', formats: ['pdf', 'xlsx', 'csv'] });
    expect(listed.last_run.finished_at).toBeTruthy();
    expect(list.body.results.find((report: { id: number }) => report.id === never.body.id).last_run).toBeNull();
  });

  it('takes a PNG or JPEG company logo, refuses other files, and prints it on the PDF title page of reports that show it', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    const upload = (content: Buffer) => call('PUT', '/reports/logo', { image: content.toString('base64') });
    const svg = await upload(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'));
    expect(svg.status).toBe(400);
    expect(svg.body.image[0]).toMatch(/not a PNG or JPEG/);
    const big = await upload(Buffer.concat([png.subarray(0, 8), Buffer.alloc(300 * 1024, 1)]));
    expect(big.status).toBe(400);
    expect(big.body.image[0]).toMatch(/at most 256 kB/);
    const broken = await upload(Buffer.concat([png.subarray(0, 8), Buffer.alloc(64, 7)]));
    expect(broken.status).toBe(400);
    expect(broken.body.image[0]).toMatch(/cannot be read/);
    expect((await call('PUT', '/reports/logo', { image: 'not base64!' })).status).toBe(400);
    expect((await call('GET', '/reports/logo')).body.image).toBeNull();

    const saved = await upload(png);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ content_type: 'image/png', size: png.length });
    expect(Buffer.from((await call('GET', '/reports/logo')).body.image, 'base64').equals(png)).toBe(true);
    const viewer = await createUserWithGroups(server, server.adminToken, `logo-viewer-${engine}`, ['Viewers']);
    expect((await server.request('GET', '/reports/logo', { token: viewer.token })).status).toBe(200);
    expect((await server.request('PUT', '/reports/logo', { token: viewer.token, body: { image: png.toString('base64') } })).status).toBe(403);

    const pdfOf = async (report: object) => {
      const created = await call('POST', '/reports/reports', report);
      const started = await call('POST', `/reports/reports/${created.body.id}/run`, { formats: ['pdf'] });
      const run = await waitFor(async () => {
        const answer = await call('GET', `/reports/runs/${started.body.id}`);
        return answer.body.status === 'done' || answer.body.status === 'error' ? answer.body : null;
      }, 'the run');
      expect(run.error).toBe('');
      return (await download(server, server.adminToken, `/reports/runs/${run.id}/files/pdf`)).toString('latin1');
    };
    const text = [{ type: 'text', title: 'About', markdown: 'Logo check.' }];
    expect(await pdfOf({ name: 'With logo', sections: text })).toMatch(/\/Subtype \/Image/);
    expect(await pdfOf({ name: 'Without logo', show_logo: false, sections: text })).not.toMatch(/\/Subtype \/Image/);
    expect((await call('DELETE', '/reports/logo')).status).toBeLessThan(300);
    expect((await call('GET', '/reports/logo')).body.image).toBeNull();
  }, 120_000);

  it('keeps private reports and their runs from other users, and downloads from those without the permission', async () => {
    const other = await createUserWithGroups(server, server.adminToken, `analyst-${engine}`, ['Viewers']);
    const mine = await call('POST', '/reports/reports', { name: 'Private one', sections: [] });
    expect((await server.request('GET', `/reports/reports/${mine.body.id}`, { token: other.token })).status).toBe(404);
    const runs = await call('GET', `/reports/reports/${reportId}/runs`);
    const file = runs.body.results[0].files[0].url;
    expect((await server.request('GET', file, { token: other.token })).status).toBe(403);
    expect((await server.request('GET', `/reports/reports/${reportId}/runs`, { token: other.token })).status).toBe(200);
  });

  it('refuses a schedule whose expression does not parse, whose zone is unknown or whose address is invalid', async () => {
    const bad = await call('POST', '/reports/schedules', { name: 'Bad', report: reportId, formats: ['pdf'], preset: 'cron', cron: '61 * * * *', timezone: 'Mars/Olympus', recipients: ['not an address'] });
    expect(bad.status).toBe(400);
    expect(bad.body.timezone[0]).toMatch(/Mars\/Olympus/);
    const badCron = await call('POST', '/reports/schedules', { name: 'Bad', report: reportId, formats: ['pdf'], preset: 'cron', cron: '61 * * * *', recipients: ['a@example.test'] });
    expect(badCron.body.cron[0]).toMatch(/cron/i);
    const badAddress = await call('POST', '/reports/schedules', { name: 'Bad', report: reportId, formats: ['pdf'], recipients: ['not an address'] });
    expect(badAddress.body.recipients[0]).toMatch(/not an address/);
  });

  it('e-mails a scheduled run through the SMTP configuration with its files attached', async () => {
    await saveSmtpSettings(server.context.db, server.context.keys.secretsKey, 1, { ...defaultSmtpSettings, enabled: true, host: '127.0.0.1', port: smtp.port, security: 'none', from: 'cartograph@example.test' });
    const schedule = await call('POST', '/reports/schedules', {
      name: 'Weekly unmanaged', report: reportId, preset: 'weekly', weekday: 1, time: '08:00', timezone: 'Europe/Istanbul', formats: ['xlsx', 'pdf'],
      recipients: ['it@example.test'], subject: 'Unmanaged devices this week', body: 'See attached.',
    });
    expect(schedule.status).toBe(201);
    expect(schedule.body.next_run_at).toMatch(/T05:00:00/);
    const monday = new Date(schedule.body.next_run_at);
    const sent = await sendDueSchedules(server.context, server.context.jobs.send, new Date(monday.getTime() - 60_000), new Date(monday.getTime() + 1000));
    expect(sent).toBe(1);
    const message = await waitFor(async () => smtp.messages.find((mail) => mail.parsed.subject === 'Unmanaged devices this week'), 'the e-mail');
    expect(message.to).toEqual(['it@example.test']);
    expect(message.parsed.text).toContain('See attached.');
    const attached = (filename: string) => message.parsed.attachments.find((file) => file.filename === filename)!.content;
    expect(message.parsed.attachments.map((file) => file.filename).sort()).toEqual(['Unmanaged-devices.pdf', 'Unmanaged-devices.xlsx']);
    const workbook = await openWorkbook(attached('Unmanaged-devices.xlsx'));
    expect(sheetRows(workbook.getWorksheet('Devices')!).map((row) => row[0])).toEqual(['mac-1', 'printer 6', 'srv-1']);
    const pdf = attached('Unmanaged-devices.pdf');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await pdfPageTexts(pdf)).join(' ')).toContain('Unmanaged devices');
    const read = await waitFor(async () => ((await call('GET', `/reports/schedules/${schedule.body.id}`)).body.last_status === 'sent' ? true : null), 'the schedule state');
    expect(read).toBe(true);
  }, 120_000);

  it('records a refused delivery on the schedule', async () => {
    const schedule = await call('POST', '/reports/schedules', { name: 'Refused', report: reportId, preset: 'daily', time: '07:00', formats: ['csv'], recipients: ['nobody@example.test'] });
    const next = new Date(schedule.body.next_run_at);
    await sendDueSchedules(server.context, server.context.jobs.send, new Date(next.getTime() - 60_000), new Date(next.getTime() + 1000));
    const state = await waitFor(async () => {
      const answer = await call('GET', `/reports/schedules/${schedule.body.id}`);
      return answer.body.last_status === 'failed' ? answer.body : null;
    }, 'the failure');
    expect(state.last_error).toMatch(/No such mailbox|recipients/i);
    expect(state.failures).toBeGreaterThanOrEqual(1);
  }, 120_000);
});
