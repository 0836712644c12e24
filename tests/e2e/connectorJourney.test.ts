import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConnector, type ConnectorProcess } from '../support/connectorProcess';
import { api, defaultAdminPassword, launchBrowser, signInThroughApi, signInThroughForm, startServer, waitForLastDiscovery, watchConsole, type Browser, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;
let adminToken: string;
let page: Page;
let watched: ReturnType<typeof watchConsole>;
let connector: ConnectorProcess | null = null;
let folder: string;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  adminToken = await signInThroughApi(server.baseUrl, 'admin', defaultAdminPassword);
  page = await browser.context.newPage();
  watched = watchConsole(page);
  await page.goto(`${server.baseUrl}/#/login`);
  await signInThroughForm(page, 'admin', defaultAdminPassword);
  await page.waitForURL((url) => !url.hash.startsWith('#/login'));
  // A file on the connector's side only: the server has no import folders.
  folder = mkdtempSync(join(tmpdir(), 'cartograph-e2e-connector-'));
  writeFileSync(join(folder, 'plant.json'), JSON.stringify([{ id: 'p1', hostname: 'plc-gateway-01' }, { id: 'p2', hostname: 'hmi-panel-07' }]));
});

afterAll(async () => {
  await connector?.stop();
  await browser?.close();
  await server?.stop();
  rmSync(folder, { recursive: true, force: true });
});

describe('a remote connector from its page to the inventory', () => {
  it('creates a connector, runs it with the token shown once, sees its fetch and its state, then revokes it', async () => {
    await page.goto(`${server.baseUrl}/#/settings/connector/create`);
    await page.getByLabel(/^Name/).fill('Plant network');
    await page.getByRole('button', { name: 'Create connector' }).click();
    const token = (await page.getByTestId('connector-token').textContent()) ?? '';
    expect(token).toMatch(/^cgc_\d+_/);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.waitForURL(/#\/settings\/connector\/\d+\/edit$/);
    const connectorId = Number(/connector\/(\d+)\/edit/.exec(page.url())![1]);

    const created = await api<{ id: number }>(server.baseUrl, '/adapters/connections', {
      method: 'POST', token: adminToken,
      body: {
        adapter: 'jsonfile', name: 'Plant gateways', connector: connectorId,
        option_connections: [
          { name: 'source', typed_value: { source_type: 'path', file_path: join(folder, 'plant.json') } },
          { name: 'entity', typed_value: 'device' },
          { name: 'column_map', typed_value: { id: 'AgentId', hostname: 'Hostname' } },
        ],
      },
    });
    expect(created.status).toBe(201);
    connector = await startConnector(['--url', server.baseUrl], { CARTOGRAPH_CONNECTOR_TOKEN: token, CARTOGRAPH_IMPORT_DIRS: folder });
    expect((await api(server.baseUrl, '/discoveries/discoveries', { method: 'POST', token: adminToken })).status).toBe(202);
    await waitForLastDiscovery(server.baseUrl, adminToken, 120_000);
    const devices = await api<{ results: { Hostname: unknown }[] }>(server.baseUrl, '/devices/devices', { method: 'POST', token: adminToken, body: { fields: ['Hostname'], ordering: [{ field: 'Hostname' }] } });
    expect(devices.body.results.map((row) => [row.Hostname].flat()[0])).toEqual(['hmi-panel-07', 'plc-gateway-01']);

    await page.goto(`${server.baseUrl}/#/settings/connector`);
    const row = page.getByRole('row', { name: /Plant network/ });
    await expect.poll(() => row.textContent()).toMatch(/Remote.*Active.*\d+\.\d+\.\d+/);
    expect(await row.getByRole('cell').nth(5).textContent()).toBe('1');

    await row.click();
    await page.waitForURL(/#\/settings\/connector\/\d+\/edit$/);
    await page.getByRole('button', { name: 'Revoke token' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke token' }).click();
    expect(await connector.exited).toBe(1);
    expect(connector.output()).toContain("the server refused this connector's token");
    expect(watched.errors).toEqual([]);
  });
});
