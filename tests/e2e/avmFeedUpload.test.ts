import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, openSignedInConsole, watchConsole, type Browser, type RunningServer } from './harness';

// The vulnerability feeds imported from the console: the real CISA KEV catalogue (gzipped) uploaded on the
// vulnerability inventory configuration page, its record count shown once imported; a broken file's error shown
// with the line it broke at, the catalogue imported before staying in use.

let server: RunningServer;
let browser: Browser;
let adminToken: string;
let page: Page;
let watched: ReturnType<typeof watchConsole>;
const kev = readFileSync(new URL('../fixtures/avm/known_exploited_vulnerabilities.json.gz', import.meta.url));

beforeAll(async () => {
  ({ server, browser, page, adminToken, watched } = await openSignedInConsole());
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the vulnerability feeds page', () => {
  it('imports the KEV catalogue uploaded in the console and shows a broken file’s error', async () => {
    await page.goto(`${server.baseUrl}/#/settings/vulnerability-inventory-configuration`);
    await page.getByRole('heading', { name: 'Vulnerability inventory configuration' }).waitFor();
    await page.getByTestId('upload-cisa-kev').setInputFiles({ name: 'known_exploited_vulnerabilities.json.gz', mimeType: 'application/gzip', buffer: kev });
    await page.getByText('CISA KEV: 1404 records in use.').waitFor();
    await page.getByTestId('detail-cisa-kev').getByText(/known_exploited_vulnerabilities\.json\.gz: 1404 records read/).waitFor();

    const broken = Buffer.from('{"vulnerabilities": [\n{"cveID": "CVE-2021-44228", "dateAdded": "2021-12-10"},\n{"cveID": "CVE-2021-45046", "dateAdded": ');
    await page.getByTestId('upload-cisa-kev').setInputFiles({ name: 'kev-cut.json', mimeType: 'application/json', buffer: broken });
    await page.getByText(/breaks after entry 1: The file ends before the JSON is complete \(it looks truncated\) \(line 3\)\. The previous import stays in use\./).first().waitFor();
    const feeds = await api<{ results: { slug: string; status: string; record_count: number }[] }>(server.baseUrl, '/avm/enrichments', { token: adminToken });
    expect(feeds.body.results.find((feed) => feed.slug === 'cisa-kev')).toMatchObject({ status: 'failed', record_count: 1404 });
    expect(watched.errors).toEqual([]);
  }, 180_000);
});
