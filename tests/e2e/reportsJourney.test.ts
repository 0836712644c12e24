import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfPageTexts } from '../server/reportsSupport';
import { startSmtpServer, type TestSmtpServer } from '../support/smtpServer';
import { api, consolePath, defaultAdminPassword, launchBrowser, signInThroughApi, signInThroughForm, startServer, waitForLastDiscovery, watchConsole, type Browser, type RunningServer } from './harness';

// "Done when" of reports: on the demo a newcomer builds a weekly "Unmanaged devices" report with a table and a chart,
// previews it, downloads it as PDF and XLSX, schedules it, and the test SMTP server receives it.

let server: RunningServer;
let browser: Browser;
let token: string;
let page: Page;
let smtp: TestSmtpServer;
let watched: ReturnType<typeof watchConsole>;
let reportId = 0;
// Devices the table's query matches, as the builder's preview counts them.
let matching = 0;
const patiently = { timeout: 90_000 };
const number = (value: number) => value.toLocaleString('en-US');
// A 1×1 PNG: the company logo the journey uploads.
const logoPng = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

async function open(path: string): Promise<void> {
  await page.goto(`${server.baseUrl}/#${path}`);
  await page.locator('.top-bar__user', { hasText: 'Cartograph Administrator' }).waitFor();
}

/**
 * Runs the report from its row in one format and downloads the file the run produced through the browser, from the
 * page's own answer to "Run now" (issue 36: no search through the history), which also names the table cut at its limit.
 */
async function runAndDownload(format: 'pdf' | 'xlsx'): Promise<{ filename: string; content: Buffer; contentType: string }> {
  const row = page.locator('tr', { hasText: 'Unmanaged devices' });
  await row.getByLabel('Format of Unmanaged devices').selectOption(format);
  const [answer] = await Promise.all([
    page.waitForResponse((response) => response.request().method() === 'POST' && /^\/reports\/reports\/\d+\/run$/.test(new URL(response.url()).pathname)),
    row.getByRole('button', { name: 'Run now' }).click(),
  ]);
  const { id } = (await answer.json()) as { id: number };
  const result = page.getByRole('region', { name: 'Run of Unmanaged devices', exact: true });
  const button = result.getByRole('button', { name: new RegExp(`^Download .*\\.${format}$`) });
  await button.waitFor(patiently);
  await result.getByText(`Devices without EDR: 5 of ${number(matching)} rows (the table stops at its row limit)`).waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const content = await readFile((await download.path())!);
  const file = await fetch(`${server.baseUrl}/reports/runs/${id}/files/${format}`, { headers: { authorization: `Bearer ${token}` } });
  return { filename: download.suggestedFilename(), content, contentType: file.headers.get('content-type') ?? '' };
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startServer({ env: { CARTOGRAPH_DEMO: '1' } });
  browser = await launchBrowser();
  token = await signInThroughApi(server.baseUrl, 'admin', defaultAdminPassword);
  await waitForLastDiscovery(server.baseUrl, token, 170_000);
  const mail = await api(server.baseUrl, '/configurations/smtp-configuration', { method: 'PUT', token, body: {
    enabled: true, host: '127.0.0.1', port: smtp.port, security: 'none', username: '', password: '', from: 'cartograph@example.test', ca_certificate: '', verify_certificate: true,
  } });
  if (mail.status !== 200) throw new Error(`SMTP configuration refused: ${JSON.stringify(mail.body)}`);
  page = await browser.context.newPage();
  page.setDefaultTimeout(60_000);
  watched = watchConsole(page);
  await page.goto(`${server.baseUrl}/#/login?redirect=/reports`);
  await signInThroughForm(page, 'admin', defaultAdminPassword);
  await page.waitForURL(/#\/reports$/);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.close();
});

describe('reports in a real browser on the demo', () => {
  it('builds "Unmanaged devices" with a table and a chart in three steps, previewed by the server, surviving a reload', async () => {
    const connections = await api<{ results: { id: number; name: string }[] }>(server.baseUrl, '/adapters/connections?size=100', { token });
    const edr = connections.body.results.find((connection) => connection.name === 'EDR hosts (CSV export)')!;
    await page.getByText('No reports yet').waitFor();
    await page.getByRole('link', { name: 'New report' }).first().click();
    await page.waitForURL(/#\/reports\/builder/);
    await page.getByLabel(/^Name/).fill('Unmanaged devices');
    await page.getByLabel('Description').fill('Devices no EDR reports, weekly');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Orientation').selectOption('landscape');
    // The time zone is picked among the browser's IANA names.
    const zone = page.getByLabel('Time zone');
    expect(await zone.locator('option').count()).toBeGreaterThan(300);
    await zone.selectOption('Europe/Istanbul');
    // The snapshot is chosen among the finished discoveries (Latest kept), and the company's logo is uploaded here.
    const snapshots = page.getByLabel('Snapshot', { exact: true });
    await expect.poll(() => snapshots.locator('option').count()).toBeGreaterThan(1);
    expect(await snapshots.locator('option').first().textContent()).toBe('Latest');
    expect(await snapshots.locator('option').nth(1).textContent()).toMatch(/^#\d+ · /);
    await page.getByLabel('Company logo', { exact: true }).setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') });
    await page.getByText('The file is not a PNG or JPEG image.').waitFor();
    await page.getByLabel('Company logo', { exact: true }).setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logoPng });
    await page.getByRole('img', { name: "The company's report logo" }).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();

    await page.getByRole('button', { name: 'Add table' }).click();
    const table = page.locator('.report-section').nth(0);
    await table.getByLabel('Title').fill('Devices without EDR');
    await table.getByLabel('Query', { exact: true }).fill(`NOT Connections = ${edr.id}`);
    await table.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: 'Add chart' }).click();
    await page.locator('.report-section').nth(1).getByLabel('Title').fill('By operating system');

    const preview = page.getByRole('region', { name: 'Preview' });
    const tablePreview = preview.locator('.report-preview__section', { hasText: 'Devices without EDR' });
    // The preview keeps its last answer while the next is computed: wait for the count of this query, as the API gives it.
    const query = `NOT Connections = ${edr.id}`;
    matching = (await api<{ count: number }>(server.baseUrl, '/devices/devices', { method: 'POST', token, body: { query, fields: ['Hostname'], page: 1, size: 1, ordering: [] } })).body.count;
    expect(matching).toBeGreaterThan(5);
    await tablePreview.getByText(`First ${Math.min(20, matching)} of ${number(matching)} rows`, { exact: true }).waitFor(patiently);
    // Host names show their display form, not every spelling the sources gave joined.
    expect((await tablePreview.locator('tbody tr td:first-child').allTextContents()).filter((name) => name.includes(', '))).toEqual([]);
    // "Rows at most" starts empty (every matching row) and counts the matches; a limit below them says it cuts.
    const limit = table.getByLabel('Rows at most');
    expect(await limit.inputValue()).toBe('');
    await table.getByText(`${number(matching)} match now; the table holds them all.`).waitFor(patiently);
    await limit.fill('5');
    await table.getByText(`${number(matching)} match now; the table will hold 5 of them.`).waitFor(patiently);
    await tablePreview.getByText(`The report's table stops at 5 rows: it holds 5 of the ${number(matching)} that match.`).waitFor(patiently);
    await preview.locator('.report-preview__section', { hasText: 'By operating system' }).locator('.dashboard-vega svg').first().waitFor(patiently);
    expect(await preview.locator('.report-preview__section tbody tr').count()).toBeGreaterThan(0);

    // The step and the draft are in the URL: a reload shows the same work.
    expect(consolePath(page)).toMatch(/step=builder/);
    await page.reload();
    await page.getByRole('heading', { name: 'Section 2: chart' }).waitFor();
    expect(await page.locator('.report-section').nth(0).getByLabel('Title').inputValue()).toBe('Devices without EDR');
    expect(await page.getByRole('tab', { name: '3. Builder' }).getAttribute('aria-selected')).toBe('true');

    await page.getByRole('button', { name: 'Create report' }).click();
    await page.waitForURL(/#\/reports$/);
    await page.getByRole('button', { name: 'Unmanaged devices' }).waitFor();
    const reports = await api<{ results: { id: number; name: string; sections: { type: string }[]; orientation: string; time_zone: string }[] }>(server.baseUrl, '/reports/reports', { token });
    const saved = reports.body.results.find((report) => report.name === 'Unmanaged devices')!;
    expect(saved.sections.map((section) => section.type)).toEqual(['table', 'chart']);
    expect(saved).toMatchObject({ orientation: 'landscape', time_zone: 'Europe/Istanbul' });
    reportId = saved.id;
  }, 180_000);

  it('runs it and downloads the XLSX and the PDF, with who ran it and how long it took', async () => {
    await page.getByRole('button', { name: 'Unmanaged devices' }).click();
    const xlsx = await runAndDownload('xlsx');
    expect(xlsx.filename).toMatch(/\.xlsx$/);
    expect(xlsx.content.length).toBeGreaterThan(1000);
    expect(xlsx.content.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(xlsx.contentType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const pdf = await runAndDownload('pdf');
    expect(pdf.filename).toMatch(/\.pdf$/);
    expect(pdf.content.length).toBeGreaterThan(1000);
    expect(pdf.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.contentType).toMatch(/^application\/pdf/);
    expect(pdf.content.toString('latin1')).toMatch(/\/Subtype \/Image/);
    // Every page numbered out of the whole; the table says how many devices match and that it was cut.
    const pages = await pdfPageTexts(pdf.content);
    expect(pages.map((text) => text.match(/Page (\d+) of (\d+)/)?.slice(1))).toEqual(pages.map((_, index) => [String(index + 1), String(pages.length)]));
    expect(pages.join(' ')).toContain(`Showing 5 of ${number(matching)} devices (the table stops at 5 rows).`);
    // The list's last-run column comes with the list call and follows the run to its end.
    await expect.poll(() => page.locator('tr', { hasText: 'Unmanaged devices' }).locator('td').nth(3).textContent(), patiently).toMatch(/done/);
    await page.locator('.report-runs__item', { hasText: /by Cartograph Administrator/ }).first().getByText(/took \d+\.\d s/).waitFor();
  }, 240_000);

  it('schedules it weekly, refuses a bad address and a bad cron expression on their fields, and the message arrives', async () => {
    await open('/reports/schedules');
    await page.getByRole('link', { name: 'New schedule' }).click();
    await page.waitForURL(/#\/reports\/schedules\/edit\/new$/);
    await page.getByLabel(/^Name/).fill('Weekly unmanaged devices');
    await page.getByLabel(/^Report/).selectOption({ label: 'Unmanaged devices' });
    await page.getByLabel('Runs').selectOption('weekly');
    await page.getByLabel('Day of the week').selectOption({ label: 'Monday' });
    await page.getByLabel('Time of day').fill('08:00');
    await page.getByLabel('Time zone').selectOption('UTC');
    await page.getByRole('checkbox', { name: 'XLSX' }).check();
    await page.getByLabel('Other addresses').fill('it-managers@');
    await page.getByLabel('Subject').fill('Unmanaged devices this week');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await expect.poll(() => page.getByLabel('Other addresses').getAttribute('aria-invalid')).toBe('true');
    await page.getByText('Not an e-mail address: it-managers@.').waitFor();

    await page.getByLabel('Other addresses').fill('it-managers@example.test');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await page.waitForURL(/#\/reports\/schedules$/);
    const row = page.locator('tr', { hasText: 'Weekly unmanaged devices' });
    await row.getByText('Weekly on Monday at 08:00 (UTC)').waitFor();
    const schedules = await api<{ results: { id: number; report: number; formats: string[]; recipients: string[]; next_run_at: string }[] }>(server.baseUrl, '/reports/schedules', { token });
    const schedule = schedules.body.results[0]!;
    expect(schedule).toMatchObject({ report: reportId, formats: ['pdf', 'xlsx'], recipients: ['it-managers@example.test'] });
    expect(new Date(schedule.next_run_at).getUTCDay()).toBe(1);

    // The running server sends due slots every few seconds: a cron expression of every minute makes one due now.
    await row.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(/#\/reports\/schedules\/edit\/\d+$/);
    await page.getByLabel('Runs').selectOption('cron');
    await page.getByLabel('Cron expression').fill('61 * * * *');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByLabel('Cron expression').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Cron expression').fill('* * * * *');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/#\/reports\/schedules$/);

    await expect.poll(() => smtp.messages.find((mail) => mail.raw.includes('Unmanaged devices this week')), { timeout: 150_000, interval: 1000 }).toBeTruthy();
    const message = smtp.messages.find((mail) => mail.raw.includes('Unmanaged devices this week'))!;
    expect(message.to).toEqual(['it-managers@example.test']);
    expect(message.raw).toMatch(/filename=Unmanaged-devices\.xlsx/);
    expect(message.raw).toMatch(/filename=Unmanaged-devices\.pdf/);
    expect(message.raw).toMatch(/Content-Type: application\/pdf/i);

    // The schedule records the delivery, and its row in the list shows it once the page reads the list again.
    await expect.poll(async () => (await api<{ last_status: string }>(server.baseUrl, `/reports/schedules/${schedule.id}`, { token })).body.last_status, { timeout: 60_000, interval: 1000 }).toBe('sent');
    await page.reload();
    await page.locator('tr', { hasText: 'Weekly unmanaged devices' }).getByText('sent', { exact: true }).waitFor();
    expect(watched.errors).toEqual([]);
  }, 300_000);
});
