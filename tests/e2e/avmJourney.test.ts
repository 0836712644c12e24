import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nvdFeed, nvdRecords } from '../server/avmFixtures';
import { api, defaultAdminPassword, launchBrowser, signInThroughApi, signInThroughForm, startServer, waitForLastDiscovery, watchConsole, type Browser, type RunningServer } from './harness';

// The "done when" of Cartograph's own vulnerability management, on the demo (CARTOGRAPH_DEMO=1): a newcomer imports
// the real CISA KEV catalogue and an NVD CVE JSON 2.0 file from the console, runs a discovery, finds the devices
// with a known-exploited vulnerability by a query, and sees on a device why Cartograph matched its installed
// Log4j to Log4Shell; and that the servers with their distribution's backported fix of regreSSHion are not affected.

const kev = readFileSync('/work/shared/data/cisa-kev/known_exploited_vulnerabilities.json');
const kevCount = (JSON.parse(kev.toString()) as { vulnerabilities: unknown[] }).vulnerabilities.length;
const nvd = Buffer.from(JSON.stringify(nvdFeed(nvdRecords)));
const discoveryWait = 170_000;
const matchingDiscoveryWait = 420_000;
const exploitedLog4j = 'Vulnerability.CveId = CVE-2021-44228 AND Vulnerability.Kev = true';

let server: RunningServer;
let browser: Browser;
let adminToken: string;
let page: Page;
let watched: ReturnType<typeof watchConsole>;

beforeAll(async () => {
  server = await startServer({ env: { CARTOGRAPH_DEMO: '1' } });
  browser = await launchBrowser();
  adminToken = await signInThroughApi(server.baseUrl, 'admin', defaultAdminPassword);
  // The demo's first discovery runs at boot, before any feed is imported.
  await waitForLastDiscovery(server.baseUrl, adminToken, discoveryWait);
  page = await browser.context.newPage();
  page.setDefaultTimeout(60_000);
  watched = watchConsole(page);
  await page.goto(`${server.baseUrl}/#/login`);
  await signInThroughForm(page, 'admin', defaultAdminPassword);
  await page.waitForURL((url) => !url.hash.startsWith('#/login'));
}, discoveryWait + 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const devicesWith = async (query: string) =>
  (await api<{ count: number }>(server.baseUrl, '/devices/devices', { method: 'POST', token: adminToken, body: { query, fields: ['Hostname'], page: 1, size: 1, ordering: [] } })).body.count;

describe('vulnerability management from the feeds, on the demo', () => {
  it('shows on regreSSHion\'s detail that the Ubuntu servers on Ubuntu\'s fix are not affected, by the advisory bundled with the demo', async () => {
    const regresshion = (await api<{ PrimaryKey: string[]; index_id: number }>(server.baseUrl, '/avm/vulnerabilities/CVE-2024-6387', { method: 'POST', token: adminToken, body: {} })).body;
    await page.goto(`${server.baseUrl}/#/vulnerability-inventory/detail/${regresshion.PrimaryKey[0]}/${regresshion.index_id}`);
    await page.getByRole('heading', { name: 'CVE-2024-6387' }).waitFor();
    await page.getByText('Installed with the fix (not affected)').waitFor();
    // NVD's range (OpenSSH 8.5p1 up to 9.8p1) takes in 8.9p1: the distribution's backported fix decides.
    expect(await page.getByTestId('fixed-packages').innerText()).toMatch(/Ubuntu USN-6859-1: fixed in 1:8\.9p1-3ubuntu0\.10; installed 1:8\.9p1-3ubuntu0\.10 has the fix \(openssh on Ubuntu:22\.04:LTS\)\. \d+ installations\./);
    expect(watched.errors).toEqual([]);
  }, 120_000);

  it('imports KEV and an NVD file in the console, runs a discovery and shows exploited vulnerabilities on the devices with why they matched', async () => {
    expect(await devicesWith(exploitedLog4j)).toBe(0);
    await page.goto(`${server.baseUrl}/#/settings/vulnerability-inventory-configuration`);
    await page.getByRole('heading', { name: 'Vulnerability inventory configuration' }).waitFor();
    await page.getByTestId('upload-cisa-kev').setInputFiles({ name: 'known_exploited_vulnerabilities.json', mimeType: 'application/json', buffer: kev });
    await page.getByText(`CISA KEV: ${kevCount} records in use.`).waitFor();
    await page.getByTestId('upload-nvd-cve').setInputFiles({ name: 'nvdcve-2.0-2021.json', mimeType: 'application/json', buffer: nvd });
    await page.getByText(`NVD CVE: ${nvdRecords.length} records in use.`).waitFor();
    await page.getByTestId('detail-nvd-cve').getByText(`nvdcve-2.0-2021.json: ${nvdRecords.length} records read`).waitFor();

    await page.goto(`${server.baseUrl}/#/discoveries`);
    const start = page.getByRole('button', { name: 'Start discovery' });
    await expect.poll(() => start.isEnabled(), { timeout: 60_000 }).toBe(true);
    await start.click();
    await page.waitForURL(/#\/discovery\/detail\/\d+$/);
    // The discovery now matches the demo's ~50k installations against the imported CVEs: on a loaded machine it
    // takes minutes; a failed one says why.
    await waitForLastDiscovery(server.baseUrl, adminToken, matchingDiscoveryWait);
    await page.locator('.ui-page-header__meta', { hasText: 'Done' }).waitFor();

    // Devices running Log4j 2.14.1 have Log4Shell, flagged known-exploited from the catalogue.
    const exposed = await devicesWith(exploitedLog4j);
    expect(exposed).toBeGreaterThan(0);
    await page.goto(`${server.baseUrl}/#/device-inventory`);
    await page.getByLabel('Query', { exact: true }).fill(exploitedLog4j);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.locator('.ui-page-header__meta', { hasText: new RegExp(`^${exposed} devices? · snapshot #`) }).waitFor();
    await page.locator('.inventory-page tbody tr[aria-rowindex]').first().click();
    await page.locator('aside.asset-preview').getByRole('link', { name: 'Open details' }).click();
    await page.waitForURL(/#\/device-inventory\/detail\/[^/]+\/\d+$/);
    await page.getByRole('tab', { name: 'Vulnerabilities' }).click();
    await page.getByRole('tabpanel').getByLabel('Search vulnerabilities').fill('CVE-2021-44228');
    const row = page.getByRole('table', { name: 'Vulnerabilities of this device' }).locator('tbody tr', { hasText: 'CVE-2021-44228' }).first();
    await row.waitFor();
    // Found by Cartograph's own matching (its sources by name) and flagged known-exploited.
    await expect.poll(() => row.innerText()).toMatch(/Cartograph Vulnerability Management/);
    await row.getByText('KEV', { exact: true }).waitFor();
    const reason = (await row.locator('.inventory-match-reason').innerText()).trim();
    expect(reason).toMatch(/2\.14\.1 matches cpe:2\.3:a:apache:log4j:\*:\*:\*:\*:\*:\*:\*:\* \(version 2\.14\.1 is ≥ 2\.13\.0 and < 2\.15\.0\); mapped to apache:log4j because /);
    expect(watched.errors).toEqual([]);
  }, matchingDiscoveryWait + 180_000);
});
