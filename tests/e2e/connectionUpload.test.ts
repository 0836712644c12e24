import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, openSignedInConsole, watchConsole, type Browser, type RunningServer } from './harness';

// A CSV file connection created in the form with a file of several megabytes: the form saves the connection, then
// streams the file to the upload endpoint with its progress on screen (the network is slowed so the progress shows),
// and nothing of the file travels inline in the connection's JSON.

let server: RunningServer;
let browser: Browser;
let adminToken: string;
let page: Page;
let watched: ReturnType<typeof watchConsole>;

/** About 12 MB of device rows. */
function largeExport(): Buffer {
  const rows = ['hostname,serial,ip'];
  for (let index = 0; index < 250_000; index += 1) rows.push(`host-${String(index).padStart(7, '0')}.corp.example.com,SN${index}X,10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`);
  return Buffer.from(`${rows.join('\n')}\n`);
}

beforeAll(async () => {
  ({ server, browser, page, adminToken, watched } = await openSignedInConsole());
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('a file connection made in the form', () => {
  it('uploads a large file through the upload endpoint after the save, with its progress shown', async () => {
    const file = largeExport();
    const requests: Request[] = [];
    page.on('request', (request) => requests.push(request));
    await page.goto(`${server.baseUrl}/#/adapters/connection/create/csvfile`);
    await page.getByRole('heading', { name: 'Add CSV file connection' }).waitFor();
    await page.getByLabel(/^Name/).fill('Large asset export');
    await page.locator('input[type=file]').setInputFiles({ name: 'assets.csv', mimeType: 'text/csv', buffer: file });
    await page.getByText(/assets\.csv \([\d.]+ MB\) is uploaded when you save\./).waitFor();

    // About 4 MB/s up: the upload lasts a few seconds, long enough to see it progress.
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 4 * 1024 * 1024 });
    await page.getByRole('button', { name: 'Create connection' }).click();
    await page.getByText(/^Uploading assets\.csv: \d+%$/).waitFor();
    await page.waitForURL(/#\/adapters\/connections\/\d+$/, { timeout: 90_000 });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

    const id = Number(/connections\/(\d+)$/.exec(page.url())?.[1]);
    const created = requests.find((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/adapters/connections');
    expect(created?.postData()?.length ?? Infinity).toBeLessThan(2000);
    expect(created?.postData()).not.toContain('data:');
    const upload = requests.find((request) => request.method() === 'POST' && new URL(request.url()).pathname === `/adapters/connections/${id}/file`);
    expect(upload?.headers()['content-type']).toMatch(/^multipart\/form-data/);

    const stored = await api<{ option_connections: { name: string; typed_value: Record<string, unknown> }[] }>(server.baseUrl, `/adapters/connections/${id}`, { token: adminToken });
    const source = stored.body.option_connections.find((option) => option.name === 'source')?.typed_value;
    expect(source).toMatchObject({ source_type: 'upload', file_name: 'assets.csv' });
    expect(String(source?.file)).toMatch(/^uploads\/[0-9a-f-]{36}\.csv$/);
    const check = await api<{ success: boolean }>(server.baseUrl, `/adapters/test/${id}`, { method: 'POST', token: adminToken });
    expect(check.body.success).toBe(true);
    expect(watched.errors).toEqual([]);
  }, 180_000);
});
