import { createServer, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSshd, type SshdServer } from '../support/sshd';
import { api, defaultAdminPassword, launchBrowser, signInThroughApi, signInThroughForm, startServer, waitForLastDiscovery, watchConsole, type Browser, type RunningServer } from './harness';

// "Done when" of the action center: on the demo, a newcomer creates "Devices without EDR → webhook" and an SSH
// command action, dry-runs both, runs them and reads each target's result in the console.

let server: RunningServer;
let browser: Browser;
let token: string;
let page: Page;
let sshd: SshdServer;
let receiver: Server;
let receiverUrl = '';
const received: string[] = [];
const patiently = { timeout: 60_000 };

async function open(path: string): Promise<void> {
  await page.goto(`${server.baseUrl}/#${path}`);
  await page.locator('.top-bar__user', { hasText: 'Cartograph Administrator' }).waitFor();
}

/**
 * Starts a run from the action's row and waits until the history shows that run (by the id the API answered)
 * finished: an earlier run of the same action in the list must not count.
 */
async function runFromRow(name: string, button: 'Dry run' | 'Run'): Promise<number> {
  const row = page.locator('tr', { hasText: name });
  const started = page.waitForResponse((response) => response.request().method() === 'POST' && /^\/actions\/actions\/\d+\/run$/.test(new URL(response.url()).pathname));
  await row.getByRole('button', { name: button, exact: true }).click();
  // A real run asks first, naming how many assets it acts on.
  if (button === 'Run') {
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText(/^It acts on \d[\d,]* /).waitFor();
    await confirm.getByRole('button', { name: 'Run now', exact: true }).click();
  }
  const { id } = (await (await started).json()) as { id: number };
  await page.locator('.action-runs__item--open').filter({ hasText: new RegExp(`^Done\\s*Run ${id}\\b`) }).waitFor({ timeout: 90_000 });
  return id;
}

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (part) => (body += part));
    request.on('end', () => {
      received.push(body);
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/intake`;
  sshd = await startSshd();
  server = await startServer({ env: { CARTOGRAPH_DEMO: '1' } });
  browser = await launchBrowser();
  token = await signInThroughApi(server.baseUrl, 'admin', defaultAdminPassword);
  await waitForLastDiscovery(server.baseUrl, token, 170_000);
  page = await browser.context.newPage();
  page.setDefaultTimeout(60_000);
  watchConsole(page);
  await page.goto(`${server.baseUrl}/#/login?redirect=/action-center`);
  await signInThroughForm(page, 'admin', defaultAdminPassword);
  await page.waitForURL(/#\/action-center$/);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await sshd?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('the action center in a real browser on the demo', () => {
  it('lets the administrator allow the loopback receiver in the settings', async () => {
    await open('/action-center/settings');
    await page.getByRole('heading', { name: 'Action center settings' }).waitFor();
    const saved = await api(server.baseUrl, '/actions/settings', { method: 'PUT', token, body: { concurrency: 20, target_timeout_seconds: 3, retries: 1, history_days: 90, allowed_destinations: ['127.0.0.1/32'] } });
    expect(saved.status).toBe(200);
  });

  it('creates "Devices without EDR → webhook", dry-runs it, runs it and reads each target', async () => {
    const connections = await api<{ results: { id: number; name: string }[] }>(server.baseUrl, '/adapters/connections?size=100', { token });
    const edr = connections.body.results.find((connection) => connection.name === 'EDR hosts (CSV export)')!;
    await open('/action-center/create');
    await page.getByLabel(/^Name/).fill('Devices without EDR → webhook');
    await page.getByLabel(/^Query/).fill(`NOT Connections = ${edr.id}`);
    await page.getByLabel(/^URL/).fill(receiverUrl);
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/#\/action-center$/);
    await page.getByRole('button', { name: 'Devices without EDR → webhook' }).click();
    await runFromRow('Devices without EDR → webhook', 'Dry run');
    await expect.poll(() => page.locator('.action-results tbody tr', { hasText: 'Would run' }).count(), patiently).toBeGreaterThan(0);
    expect(received).toHaveLength(0);

    const runId = await runFromRow('Devices without EDR → webhook', 'Run');
    const real = (await api<{ targets: number; succeeded: number; status: string }>(server.baseUrl, `/actions/runs/${runId}`, { token })).body;
    expect(real.status).toBe('done');
    expect(real.targets).toBeGreaterThan(0);
    expect(real.succeeded).toBe(real.targets);
    expect(received).toHaveLength(real.targets);
    await expect.poll(() => page.locator('.action-results tbody tr', { hasText: 'HTTP 200' }).count(), patiently).toBeGreaterThan(0);
  });

  it('creates an SSH command action with a credential, dry-runs it and reads each host result', async () => {
    const credential = await api<{ id: number }>(server.baseUrl, '/actions/ssh-credentials', { method: 'POST', token, body: {
      name: 'Lab key', username: sshd.username, port: sshd.port, auth_method: 'private_key', private_key: sshd.privateKey, passphrase: sshd.passphrase, known_host_fingerprints: [sshd.hostFingerprint],
    } });
    expect(credential.status).toBe(201);
    await open('/action-center/ssh');
    await page.getByText('Lab key').waitFor();

    await open('/action-center/create');
    await page.getByLabel(/^Name/).fill('Uptime on servers');
    await page.getByLabel(/^Query/).fill('Hostname = srv-0*');
    await page.getByLabel('Type').selectOption('ssh_command');
    await page.getByLabel(/^SSH credential/).fill(String(credential.body.id));
    await page.getByLabel(/^Command/).fill('uptime');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/#\/action-center$/);
    await page.getByRole('button', { name: 'Uptime on servers' }).click();
    await runFromRow('Uptime on servers', 'Dry run');
    await expect.poll(() => page.locator('.action-results tbody tr', { hasText: 'Would run' }).count(), patiently).toBeGreaterThan(0);
    // The demo's servers live on addresses this machine cannot reach: each gets its own failure, within the timeout.
    await runFromRow('Uptime on servers', 'Run');
    await expect.poll(() => page.locator('.action-results tbody tr', { hasText: 'failed' }).count(), patiently).toBeGreaterThan(0);
  });
});
