import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/server/config.js';
import { defaultSmtpSettings, saveSmtpSettings } from '../../src/server/outbound/smtp.js';
import { sendDueSchedules } from '../../src/server/reports/reportJobs.js';
import { startSilentServer, startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../support/smtpServer.js';
import { latestSnapshotAssets, publishSnapshot } from './dashboardsFixtures.js';
import { createUserWithGroups, engines, startTestServer, type TestServer } from './harness.js';
import { createReport, csvRows, download, openWorkbook, pdfPageTexts, sheetRows, waitFor } from './reportsSupport.js';

const publicUrl = 'https://cartograph.example.test';
const inventoryMail = {
  name: 'Inventory mail', is_public: true,
  sections: [
    { type: 'text', title: 'About', markdown: 'The devices we know.' },
    { type: 'table', title: 'Devices', inventory: 'device', columns: ['Hostname', 'OS.Type'], sort: [{ field: 'Hostname', order: 'asc' }] },
  ],
};
const deviceRows = [['mac-1', 'macOS'], ['printer 6', ''], ['srv-1', 'Linux'], ['ws-1', 'Windows'], ['ws-2', 'Windows']];

type Schedule = { id: number; next_run_at: string; last_status: string; last_error: string; failures: number };

describe.each(engines)('scheduled report delivery on %s', (engine) => {
  let server: TestServer;
  let smtp: TestSmtpServer;
  let reportId: number;
  const call = (method: string, url: string, body?: unknown) => server.request(method, url, { token: server.adminToken, body });
  const useSmtpServer = (port: number) =>
    saveSmtpSettings(server.context.db, server.context.keys.secretsKey, 1, { ...defaultSmtpSettings, enabled: true, host: '127.0.0.1', port, security: 'none', from: 'cartograph@example.test' });

  /** Creates a schedule and sends its next slot at once, as the tick does when it falls due. */
  const scheduleNow = async (schedule: object): Promise<Schedule> => {
    const created = await call('POST', '/reports/schedules', { report: reportId, preset: 'daily', ...schedule });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const slot = new Date(created.body.next_run_at);
    await sendDueSchedules(server.context, server.context.jobs.send, new Date(slot.getTime() - 60_000), new Date(slot.getTime() + 1000));
    return created.body;
  };
  const scheduleState = (id: number) => async () => (await call('GET', `/reports/schedules/${id}`)).body as Schedule;
  const mailWithSubject = (subject: string) => waitFor(async () => smtp.messages.find((mail) => mail.parsed.subject === subject), `the e-mail "${subject}"`);
  const attachment = (mail: ReceivedMail, filename: string) => {
    const found = mail.parsed.attachments.find((file) => file.filename === filename);
    expect(found, `${filename} among ${mail.parsed.attachments.map((file) => file.filename).join(', ')}`).toBeTruthy();
    return found!.content;
  };

  beforeAll(async () => {
    // Small waits so a silent server and a retry are seen within a test: 1 s for SMTP answers, 1 s before a retry.
    server = await startTestServer(engine, { publicUrl, smtpTimeoutSeconds: 1, reportRetrySeconds: 1 });
    smtp = await startSmtpServer();
    await publishSnapshot(server.context.db, 1, new Date(), 0, latestSnapshotAssets(new Date()));
    reportId = await createReport(server, inventoryMail);
    await useSmtpServer(smtp.port);
  }, 120_000);
  afterAll(async () => {
    await smtp?.close();
    await server?.stop();
  });

  it('attaches the files, whose decoded content holds the report: CSV rows, XLSX rows, a PDF', async () => {
    await scheduleNow({ name: 'Attached', time: '06:00', formats: ['csv', 'xlsx', 'pdf'], recipients: ['it@example.test'], subject: 'Attached files', body: 'Here they are.' });
    const mail = await mailWithSubject('Attached files');
    expect(mail.to).toEqual(['it@example.test']);
    expect(mail.parsed.text).toContain('Here they are.');
    expect(mail.parsed.attachments.map((file) => [file.filename, file.contentType]).sort()).toEqual([
      ['Inventory-mail.csv', 'text/csv'], ['Inventory-mail.pdf', 'application/pdf'], ['Inventory-mail.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ]);
    expect(csvRows(attachment(mail, 'Inventory-mail.csv'))).toEqual([['Hostname', 'OS type'], ...deviceRows]);
    const workbook = await openWorkbook(attachment(mail, 'Inventory-mail.xlsx'));
    expect(sheetRows(workbook.getWorksheet('Devices')!)).toEqual(deviceRows.map(([host, os]) => (os ? [host, os] : [host])));
    const pdf = attachment(mail, 'Inventory-mail.pdf');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await pdfPageTexts(pdf)).join(' ')).toContain('srv-1');
  }, 120_000);

  it('links each file over the attachment limit with a signed link that downloads it without signing in', async () => {
    // About 1 kB: the five-row CSV fits, the XLSX and the PDF do not.
    await call('PUT', '/reports/settings', { retention_days: 30, attachment_limit_mb: 0.001, link_days: 3 });
    try {
      const sentAfter = Date.now();
      await scheduleNow({ name: 'Linked', time: '06:30', formats: ['csv', 'xlsx', 'pdf'], recipients: ['it@example.test'], subject: 'Linked files' });
      const mail = await mailWithSubject('Linked files');
      expect(mail.parsed.attachments.map((file) => file.filename)).toEqual(['Inventory-mail.csv']);
      const text = mail.parsed.text ?? '';
      const links = [...text.matchAll(/https:\/\/cartograph\.example\.test\/reports\/runs\/\d+\/files\/(pdf|xlsx)\/signed\?\S+/g)];
      expect(links.map((link) => link[1]).sort()).toEqual(['pdf', 'xlsx']);
      expect(text).toContain(`${publicUrl}/#/reports`);
      expect(text).toContain('without signing in until');
      expect(text).not.toMatch(/token/i);
      const linkOf = (format: string) => new URL(links.find((link) => link[1] === format)![0]);

      // Each link works for the settings' link_days from when the mail was sent.
      const expires = Number(linkOf('pdf').searchParams.get('expires')) * 1000;
      expect(expires).toBeGreaterThanOrEqual(sentAfter + 3 * 86_400_000 - 1000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 3 * 86_400_000);

      // Opened as a mail client or browser opens it: no token.
      const open = async (format: string) => {
        const answer = await server.app.inject({ method: 'GET', url: linkOf(format).pathname + linkOf(format).search });
        expect(answer.statusCode, answer.body.slice(0, 200)).toBe(200);
        expect(answer.headers['content-disposition']).toBe(`attachment; filename="Inventory-mail.${format}"`);
        return answer.rawPayload;
      };
      const pdf = await open('pdf');
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect((await pdfPageTexts(pdf)).join(' ')).toContain('ws-2');
      const workbook = await openWorkbook(await open('xlsx'));
      expect(sheetRows(workbook.getWorksheet('Devices')!).map((row) => row[0])).toEqual(deviceRows.map((row) => row[0]));

      // The authenticated download of the same file is unchanged: a user holding reports.download_report, no one else.
      const permissions = await call('GET', '/users/permissions?size=1000');
      const downloadPermission = permissions.body.results.find((permission: { app: string; codename: string }) => permission.app === 'reports' && permission.codename === 'download_report');
      await call('POST', '/users/groups', { name: `Report downloaders ${engine}`, permissions: [downloadPermission.id] });
      const downloader = await createUserWithGroups(server, server.adminToken, `downloader-${engine}`, [`Report downloaders ${engine}`]);
      const viewer = await createUserWithGroups(server, server.adminToken, `link-viewer-${engine}`, ['Viewers']);
      const authenticatedPath = linkOf('pdf').pathname.replace(/\/signed$/, '');
      expect((await download(server, downloader.token, authenticatedPath)).subarray(0, 5).toString()).toBe('%PDF-');
      expect((await server.request('GET', authenticatedPath, { token: viewer.token })).status).toBe(403);
      expect((await server.request('GET', authenticatedPath)).status).toBe(401);
    } finally {
      await call('PUT', '/reports/settings', { retention_days: 30, attachment_limit_mb: 10 });
    }
  }, 120_000);

  it('records a refused delivery on the schedule and retries it with backoff until the server accepts', async () => {
    smtp.busy.add('flaky@example.test');
    const schedule = await scheduleNow({ name: 'Flaky', time: '07:00', formats: ['csv'], recipients: ['flaky@example.test'], subject: 'After a retry' });
    const failed = await waitFor(async () => {
      const state = await scheduleState(schedule.id)();
      return state.last_status === 'failed' ? state : null;
    }, 'the recorded failure');
    expect(failed.failures).toBeGreaterThanOrEqual(1);
    expect(failed.last_error).toMatch(/Mailbox busy, try again later/);
    const runs = await call('GET', `/reports/reports/${reportId}/runs`);
    const run = runs.body.results.find((candidate: { schedule: number }) => candidate.schedule === schedule.id);
    expect(run).toMatchObject({ status: 'done', delivery_status: 'failed' });

    smtp.busy.delete('flaky@example.test');
    const mail = await mailWithSubject('After a retry');
    expect(mail.to).toEqual(['flaky@example.test']);
    expect(smtp.refused.filter((address) => address === 'flaky@example.test').length).toBeGreaterThanOrEqual(1);
    const sent = await waitFor(async () => {
      const state = await scheduleState(schedule.id)();
      return state.last_status === 'sent' ? state : null;
    }, 'the delivery after the retry');
    expect(sent).toMatchObject({ failures: 0, last_error: '' });
  }, 120_000);

  it('fails the delivery with a clear recorded error when the SMTP server accepts the connection and never answers', async () => {
    const silent = await startSilentServer();
    try {
      await useSmtpServer(silent.port);
      const schedule = await scheduleNow({ name: 'Silent', time: '07:30', formats: ['csv'], recipients: ['it@example.test'], subject: 'Never sent' });
      const failed = await waitFor(async () => {
        const state = await scheduleState(schedule.id)();
        return state.last_status === 'failed' ? state : null;
      }, 'the recorded timeout', 30_000);
      expect(failed.last_error).toBe(`The SMTP server 127.0.0.1:${silent.port} did not answer within 1 s (Greeting never received).`);
      expect(silent.connections).toBeGreaterThanOrEqual(1);
      const runs = await call('GET', `/reports/reports/${reportId}/runs`);
      expect(runs.body.results.find((run: { schedule: number }) => run.schedule === schedule.id)).toMatchObject({ delivery_status: 'failed', delivery_error: failed.last_error });
    } finally {
      await useSmtpServer(smtp.port);
      await silent.close();
    }
  }, 120_000);
});

describe('the console\'s public address in e-mailed links', () => {
  it('is CARTOGRAPH_PUBLIC_URL without its trailing slash, else where the console listens, and refuses what is no web address', () => {
    expect(readConfig({ CARTOGRAPH_PUBLIC_URL: 'https://cartograph.example.test/it/' }).publicUrl).toBe('https://cartograph.example.test/it');
    expect(readConfig({ HOST: '10.0.0.5', PORT: '9000' }).publicUrl).toBe('http://10.0.0.5:9000');
    expect(readConfig({}).publicUrl).toBe('http://127.0.0.1:8080');
    expect(readConfig({ HOST: '0.0.0.0' }).publicUrl).toBe(`http://${hostname()}:8080`);
    expect(readConfig({ HOST: '::1' }).publicUrl).toBe('http://[::1]:8080');
    expect(() => readConfig({ CARTOGRAPH_PUBLIC_URL: 'cartograph.example.test' })).toThrow(/CARTOGRAPH_PUBLIC_URL/);
    expect(() => readConfig({ CARTOGRAPH_PUBLIC_URL: 'ftp://cartograph.example.test' })).toThrow(/CARTOGRAPH_PUBLIC_URL/);
  });
});
