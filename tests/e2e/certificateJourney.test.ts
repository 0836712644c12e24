import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueCertificate } from '../support/testCertificates';
import { api, consolePath, defaultAdminPassword, launchBrowser, signInThroughApi, signInThroughForm, startServer, watchConsole, waitForLastDiscovery, type Browser, type RunningServer } from './harness';

// On the demo, a newcomer finds the certificates that expire this month and where one is served, then uploads a
// custom certificate (after pasting a private key by mistake, which is refused).

let server: RunningServer;
let browser: Browser;
let token: string;
let page: Page;
let watched: ReturnType<typeof watchConsole>;
const patiently = { timeout: 60_000 };
const expiringThisMonth = 'ExpiryStatus = "Expires within 30 days"';

type SearchAnswer = { count: number; results: Record<string, unknown[]>[]; index_id: number };

async function open(path: string): Promise<void> {
  await page.goto(`${server.baseUrl}/#${path}`);
  await page.locator('.top-bar__user', { hasText: 'Cartograph Administrator' }).waitFor();
}

beforeAll(async () => {
  server = await startServer({ env: { CARTOGRAPH_DEMO: '1' } });
  token = await signInThroughApi(server.baseUrl, 'admin', defaultAdminPassword);
  await waitForLastDiscovery(server.baseUrl, token, 170_000);
  browser = await launchBrowser();
  page = await browser.context.newPage();
  page.setDefaultTimeout(60_000);
  watched = watchConsole(page);
  await page.goto(`${server.baseUrl}/#/login`);
  await signInThroughForm(page, 'admin', defaultAdminPassword);
  await page.locator('.top-bar__user', { hasText: 'Cartograph Administrator' }).waitFor();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the certificate journey', () => {
  it('finds the certificates expiring this month and where one is served', async () => {
    const expected = await api<SearchAnswer>(server.baseUrl, '/certificates/certificates', { method: 'POST', token, body: { query: expiringThisMonth, fields: ['Name', 'EndpointCount'], size: 100 } });
    expect(expected.body.count).toBeGreaterThan(1);
    await open(`/certificate-inventory?query=${encodeURIComponent(expiringThisMonth)}`);
    const meta = page.locator('.ui-page-header__meta', { hasText: ' certificates · snapshot #' });
    await expect.poll(async () => (await meta.innerText()).trim(), patiently).toBe(`${expected.body.count} certificates · snapshot #${expected.body.index_id}`);
    await page.locator('.inventory-page tbody', { hasText: 'shop.example.com' }).waitFor();

    const shop = expected.body.results.find((row) => row.Name[0] === 'shop.example.com')!;
    await open(`/certificate-inventory/detail/${shop.PrimaryKey[0]}/${expected.body.index_id}`);
    await page.getByRole('heading', { name: 'shop.example.com' }).waitFor();
    await page.getByText('Expires within 30 days').first().waitFor();
    await page.getByRole('tab', { name: `Places served (${shop.EndpointCount[0]})` }).click();
    const rows = page.locator('table', { hasText: 'Host' }).locator('tbody tr');
    await expect.poll(() => rows.count(), patiently).toBe(shop.EndpointCount[0]);
    expect(await rows.first().innerText()).toMatch(/\.corp\.example\.com\s+443/);
  }, 120_000);

  it('uploads a custom certificate, refusing a private key pasted by mistake', async () => {
    const certificate = issueCertificate({ commonName: 'partner-gateway.example.net', notAfter: undefined }, null);
    await open('/certificate-inventory/custom-certificate/create');
    await page.getByLabel('Name').fill('Partner gateway (e2e)');
    await page.getByLabel('Or paste PEM text').fill(certificate.key);
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByText(/Cartograph never stores private keys/).waitFor();
    await page.getByLabel('Or paste PEM text').fill(certificate.cert);
    await page.getByRole('button', { name: 'Upload' }).click();
    await expect.poll(() => consolePath(page), patiently).toBe('/certificate-inventory/custom-certificate');
    const row = page.locator('tbody tr', { hasText: 'Partner gateway (e2e)' });
    await row.waitFor();
    expect(await row.innerText()).toContain('partner-gateway.example.net');
    expect(watched.errors).toEqual([]);
  }, 120_000);
});
