import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, defaultAdminPassword, launchBrowser, signInThroughApi, signInThroughForm, startServer, waitForLastDiscovery, watchConsole, type Browser, type RunningServer } from './harness';

// A newcomer's first queries on the demo, typed into the device list's query bar in Chromium: a host-name fragment,
// a subnet, then a typo. Each answer is checked against the API's for the same text; the typo is named under the bar
// as it is typed, and the table keeps the previous answer, marked as such, instead of a silent "0 devices".

let server: RunningServer;
let browser: Browser;
let adminToken: string;
let page: Page;
let watched: ReturnType<typeof watchConsole>;
const patiently = { timeout: 60_000 };

async function apiCount(query: string): Promise<number> {
  const answer = await api<{ count: number }>(server.baseUrl, '/devices/devices', { method: 'POST', token: adminToken, body: { query, size: 1, fields: [] } });
  expect(answer.status, query).toBe(200);
  return answer.body.count;
}

/** The count the list shows beside its title ("353 devices · snapshot #2"). */
async function listedCount(): Promise<number> {
  const text = (await page.locator('.ui-page-header__meta', { hasText: ' devices · snapshot #' }).innerText()).trim();
  return Number(/^([\d,]+) devices/.exec(text)?.[1].replace(/,/g, '') ?? Number.NaN);
}

async function type(text: string): Promise<void> {
  const bar = page.getByRole('combobox', { name: 'Query' });
  await bar.fill('');
  await bar.pressSequentially(text, { delay: 20 });
}

beforeAll(async () => {
  server = await startServer({ env: { CARTOGRAPH_DEMO: '1' } });
  browser = await launchBrowser();
  adminToken = await signInThroughApi(server.baseUrl, 'admin', defaultAdminPassword);
  await waitForLastDiscovery(server.baseUrl, adminToken, 170_000);
  page = await browser.context.newPage();
  page.setDefaultTimeout(60_000);
  watched = watchConsole(page);
  await page.goto(`${server.baseUrl}/#/login?redirect=/device-inventory`);
  await signInThroughForm(page, 'admin', defaultAdminPassword);
  await page.waitForURL(/#\/device-inventory/);
  await page.locator('.ui-page-header__meta', { hasText: ' devices · snapshot #' }).waitFor();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("a newcomer's first queries in the device list's query bar", () => {
  it('finds hosts by a fragment of their name: counted as typed, then listed on Enter', async () => {
    const expected = await apiCount('lt-0017');
    expect(expected).toBeGreaterThan(0);
    await type('lt-0017');
    await page.locator('.query-bar__count', { hasText: `${expected.toLocaleString('en-US')} devices match` }).waitFor();
    await page.getByRole('combobox', { name: 'Query' }).press('Escape');
    await page.getByRole('combobox', { name: 'Query' }).press('Enter');
    await expect.poll(listedCount, patiently).toBe(expected);
    const hostnames = await page.locator('.inventory-page tbody tr[aria-rowindex]').allInnerTexts();
    expect(hostnames.length).toBeGreaterThan(0);
    for (const row of hostnames) expect(row.toLowerCase()).toContain('lt-0017');
  });

  it('finds the devices of a subnet, 10.61.77.40 among them', async () => {
    const expected = await apiCount('IpAddresses = 10.61.0.0/16');
    expect(expected).toBeGreaterThan(0);
    expect(await apiCount('IpAddresses = 10.61.0.0/16 AND IpAddresses = 10.61.77.40')).toBeGreaterThan(0);
    await type('IpAddresses = 10.61.0.0/16');
    await page.locator('.query-bar__count', { hasText: `${expected.toLocaleString('en-US')} devices match` }).waitFor();
    await page.getByRole('combobox', { name: 'Query' }).press('Escape');
    await page.getByRole('combobox', { name: 'Query' }).press('Enter');
    await expect.poll(listedCount, patiently).toBe(expected);
  });

  it('names a typo as it is typed, and keeps the previous answer on screen, marked, when it is run', async () => {
    await type('Colour = red');
    await page.getByText(/Unknown field "Colour"/).waitFor();
    await page.getByRole('combobox', { name: 'Query' }).press('Escape');
    await page.getByRole('combobox', { name: 'Query' }).press('Enter');
    await page.getByRole('status').filter({ hasText: 'IpAddresses = 10.61.0.0/16' }).waitFor();
    expect(await page.locator('.inventory-body--stale').count()).toBe(1);
    expect(await page.getByText(/No devices match/).count()).toBe(0);
    expect(watched.errors.filter((error) => !/status of 400/.test(error))).toEqual([]);
  });
});
