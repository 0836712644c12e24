import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, defaultAdminPassword, launchBrowser, signInThroughApi, signInThroughForm, startServer, watchConsole, type Browser, type RunningServer } from './harness';

// An administrator defines a source of their own from a sample CSV (types read from its rows, columns mapped to
// device fields), uploads the source's data file into the adapter's connection, runs a discovery and finds the
// devices of that file in the device inventory with the mapped fields.

let server: RunningServer;
let browser: Browser;
let adminToken: string;
let page: Page;
let watched: ReturnType<typeof watchConsole>;

const sampleCsv = 'Asset Name,Serial,IP,Purchased,Room\nfac-ws-1,FAC-0001,10.40.0.1,2024-03-01,B-12\nfac-ws-2,FAC-0002,10.40.0.2,2025-01-15,C-01\n';
const dataCsv = 'Asset Name,Serial,IP,Purchased,Room\nfac-srv-1,FAC-1001,10.41.0.1,2022-05-05,DC-1\nfac-srv-2,FAC-1002,10.41.0.2,2022-06-06,DC-2\nfac-srv-3,FAC-1003,10.41.0.3,2022-07-07,DC-2\n';

async function open(path: string): Promise<void> {
  await page.goto(`${server.baseUrl}/#${path}`);
  await page.locator('.top-bar__user', { hasText: 'Cartograph Administrator' }).waitFor();
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  adminToken = await signInThroughApi(server.baseUrl, 'admin', defaultAdminPassword);
  page = await browser.context.newPage();
  page.setDefaultTimeout(60_000);
  watched = watchConsole(page);
  await page.goto(`${server.baseUrl}/#/login`);
  await signInThroughForm(page, 'admin', defaultAdminPassword);
  await page.waitForURL((url) => !url.hash.startsWith('#/login'));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('a custom adapter from a sample to the inventory', () => {
  it('defines the adapter from a sample CSV, with the types read from its rows and the columns mapped', async () => {
    await open('/settings/custom-adapter');
    await page.getByRole('heading', { name: 'Custom adapters', level: 1 }).waitFor();
    await page.getByText('No custom adapter yet: define one from a sample file.').waitFor();
    await page.getByRole('link', { name: 'Define from a sample' }).click();
    await page.waitForURL(/#\/settings\/custom-adapter\/upload\/import-fields$/);
    await page.getByLabel('Sample file', { exact: true }).setInputFiles({ name: 'register.csv', mimeType: 'text/csv', buffer: Buffer.from(sampleCsv) });

    await page.getByRole('table', { name: 'Field mapping' }).waitFor();
    expect(await page.getByLabel('Type of Purchased').inputValue()).toBe('date');
    expect(await page.getByLabel('Type of IP').inputValue()).toBe('ip');
    expect(await page.getByLabel('Field of Asset Name').inputValue()).toBe('Hostname');
    expect(await page.getByLabel('Field of Room').inputValue()).toBe('');
    expect(await page.getByLabel('Asset Name identifies the record').isChecked()).toBe(true);
    await page.getByRole('table', { name: 'First rows of the sample' }).getByRole('cell', { name: 'fac-ws-2' }).waitFor();

    await page.getByLabel('Field of Purchased').selectOption('FirstSeen');
    await page.getByLabel(/^Name/).first().fill('Facilities register');
    await page.getByRole('button', { name: 'Create adapter' }).click();
    await page.waitForURL(/#\/settings\/custom-adapter\/upload\/initial-data\?adapter=\d+$/);

    const listed = await api<{ results: { name: string; custom: boolean; status: number; fields: { column: string; type: string; field: string | null }[] }[] }>(server.baseUrl, '/customs/adapters', { token: adminToken });
    expect(listed.body.results).toHaveLength(1);
    expect(listed.body.results[0]).toMatchObject({ name: 'Facilities register', custom: true, status: 1 });
    expect(listed.body.results[0].fields.find((field) => field.column === 'Purchased')).toMatchObject({ type: 'date', field: 'FirstSeen' });
  }, 120_000);

  it('uploads the data file into a new connection of the adapter, listed on the adapters page as done', async () => {
    await page.getByRole('heading', { name: 'Upload data of a custom adapter' }).waitFor();
    expect(await page.getByLabel('Custom adapter', { exact: true }).evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent)).toBe('Facilities register');
    await page.getByLabel('Data file (CSV or XLSX)').setInputFiles({ name: 'servers.csv', mimeType: 'text/csv', buffer: Buffer.from(dataCsv) });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('servers.csv is stored in a new connection of Facilities register: the next discovery imports it.').waitFor();

    await open('/adapters');
    const card = page.locator('.adapter-card', { hasText: 'Facilities register' });
    await card.waitFor();
    expect(await card.innerText()).toContain('Done');
    await card.getByRole('link', { name: 'Upload data' }).waitFor();
  }, 120_000);

  it('runs a discovery that imports the file, and the device inventory shows its devices', async () => {
    await open('/discoveries');
    const start = page.getByRole('button', { name: 'Start discovery' });
    await start.click();
    await page.waitForURL(/#\/discovery\/detail\/\d+$/);
    await page.locator('.ui-page-header__meta', { hasText: 'Done' }).waitFor({ timeout: 120_000 });
    const row = page.getByRole('table', { name: 'Connections of this discovery' }).locator('tbody tr', { hasText: 'Facilities register data' });
    await row.waitFor();

    await open('/device-inventory');
    await page.locator('.ui-page-header__meta', { hasText: '3 devices · snapshot #' }).waitFor();
    for (const hostname of ['fac-srv-1', 'fac-srv-2', 'fac-srv-3']) await page.locator('.inventory-page tbody tr', { hasText: hostname }).first().waitFor();

    const devices = await api<{ results: Record<string, unknown[]>[] }>(server.baseUrl, '/devices/devices', {
      method: 'POST', token: adminToken, body: { fields: ['Hostname', 'SerialNumber', 'IpAddresses', 'FirstSeen'], page: 1, size: 10, ordering: [{ field: 'Hostname' }] },
    });
    expect(devices.body.results.map((device) => [device.Hostname?.[0], device.SerialNumber?.[0], device.IpAddresses, String(device.FirstSeen?.[0]).slice(0, 10)])).toEqual([
      ['fac-srv-1', 'FAC-1001', ['10.41.0.1'], '2022-05-05'],
      ['fac-srv-2', 'FAC-1002', ['10.41.0.2'], '2022-06-06'],
      ['fac-srv-3', 'FAC-1003', ['10.41.0.3'], '2022-07-07'],
    ]);
    expect(watched.errors).toEqual([]);
  }, 240_000);
});
