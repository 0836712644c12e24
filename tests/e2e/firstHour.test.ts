import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, defaultAdminPassword, launchBrowser, signInThroughApi, signInThroughForm, startServer, waitForLastDiscovery, watchConsole, type Browser, type RunningServer } from './harness';

// The first hour of a newcomer (issue 36): second factor with recovery, security policies, error toasts, actions and
// reports doing what people expect. One server and one browser for the whole file.
let server: RunningServer;
let browser: Browser;
let adminToken: string;
const consoleErrors: string[] = [];

async function freshPage(): Promise<Page> {
  const page = await browser.context.newPage();
  page.setDefaultTimeout(60_000);
  const watched = watchConsole(page);
  page.on('close', () => consoleErrors.push(...watched.errors));
  await page.goto(`${server.baseUrl}/`);
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  return page;
}

async function signedInPage(username: string, password: string): Promise<Page> {
  const page = await freshPage();
  await signInThroughForm(page, username, password);
  await page.waitForURL((url) => !url.hash.startsWith('#/login'));
  return page;
}

async function createUser(username: string, groupName: string, password: string): Promise<number> {
  const groups = await api<{ results: { id: number; name: string }[] }>(server.baseUrl, '/users/groups?size=100', { token: adminToken });
  const group = groups.body.results.find((entry) => entry.name === groupName);
  if (!group) throw new Error(`no built-in group ${groupName}`);
  const created = await api<{ id: number }>(server.baseUrl, '/users/users', { method: 'POST', token: adminToken, body: { username, password, group_ids: [group.id] } });
  expect(created.status).toBe(201);
  return created.body.id;
}

beforeAll(async () => {
  // The demo: a published snapshot to score, list and report on.
  server = await startServer({ env: { CARTOGRAPH_DEMO: '1' } });
  browser = await launchBrowser();
  adminToken = await signInThroughApi(server.baseUrl, 'admin', defaultAdminPassword);
  await waitForLastDiscovery(server.baseUrl, adminToken, 300_000);
}, 400_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  expect(consoleErrors).toEqual([]);
});

describe('the first hour', () => {
  it('sets up a second factor with Cancel and recovery codes, signs in with one, and an administrator resets it', async () => {
    const password = 'Recovery-e2e-Pass-71!';
    const userId = await createUser('otp.newcomer', 'Analysts', password);
    const page = await signedInPage('otp.newcomer', password);
    await page.goto(`${server.baseUrl}/#/account-settings`);
    await page.getByRole('button', { name: 'Set up' }).click();
    const firstSecret = await page.locator('.account-otp__secret').textContent();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Set up' }).click();
    const secret = (await page.locator('.account-otp__secret').textContent()) ?? '';
    expect(secret).not.toBe(firstSecret);
    await page.getByLabel(/^Code from the app/).fill(await generate({ secret }));
    await page.getByRole('button', { name: 'Verify and turn on' }).click();
    const list = page.getByRole('list', { name: 'Recovery codes' });
    await list.waitFor();
    const codes = await list.getByRole('listitem').allTextContents();
    expect(codes).toHaveLength(10);
    await page.getByRole('button', { name: 'I have saved these codes' }).click();
    await page.getByText('Recovery codes left: 10.').waitFor();
    expect(await page.getByText(codes[0]).count()).toBe(0);
    await page.close();

    // A recovery code in place of the code from the app.
    const again = await freshPage();
    await signInThroughForm(again, 'otp.newcomer', password);
    await again.getByRole('heading', { name: 'Enter your one-time code' }).waitFor();
    await again.getByLabel('One-time code', { exact: true }).fill(codes[0]);
    await again.getByRole('button', { name: 'Verify' }).click();
    await again.waitForURL((url) => !url.hash.startsWith('#/login'));
    await again.close();

    // The administrator resets it from the user's page; the activity log records who did.
    const admin = await signedInPage('admin', defaultAdminPassword);
    await admin.goto(`${server.baseUrl}/#/settings/user/${userId}/edit`);
    await admin.getByText('One-time passwords are on; 9 recovery codes left.').waitFor();
    admin.once('dialog', (dialog) => void dialog.accept());
    await admin.getByRole('button', { name: 'Reset second factor' }).click();
    await admin.getByText('One-time passwords are off for this user.').waitFor();
    await admin.close();
    const activities = await api<{ results: { action: string; target_id: string; username: string }[] }>(server.baseUrl, '/activities/activities?action=users.reset_otp', { token: adminToken });
    expect(activities.body.results).toEqual([expect.objectContaining({ action: 'users.reset_otp', target_id: String(userId), username: 'admin' })]);
    expect((await api<{ access?: string }>(server.baseUrl, '/api/token', { method: 'POST', body: { username: 'otp.newcomer', password } })).body.access).toEqual(expect.any(String));
  }, 240_000);

  it('adds the starter policies once, says so the second time, and scores a policy enabled without a discovery', async () => {
    const page = await signedInPage('admin', defaultAdminPassword);
    await page.goto(`${server.baseUrl}/#/security-manager/security-policy`);
    await page.getByRole('button', { name: 'Add starter policies' }).click();
    // Every new company starts with the people control (leavers), so the library adds the other 22 of its 23.
    await page.getByText(/22 starter policies added, 0 enabled/).waitFor();
    await page.getByRole('button', { name: 'Add starter policies' }).click();
    await page.getByText('All 23 starter policies are already here; nothing was added.').waitFor();

    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Seen in the last 7 days' }) });
    // The switch is named for screen readers; on screen the row shows the name once, as its link.
    expect(await row.locator('.ui-switch__label').count()).toBe(0);
    const toggle = row.getByRole('switch', { name: 'Enable Seen in the last 7 days' });
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await toggle.click();
    await row.getByRole('link', { name: /of [0-9,]+ failed/ }).waitFor({ timeout: 120_000 });
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    const discoveries = await api<{ count: number }>(server.baseUrl, '/discoveries/discoveries', { token: adminToken });
    expect(discoveries.body.count).toBe(1);
    await page.close();
  }, 240_000);
  it('makes API tokens of 90 days by default, warns of one that never expires, and keeps to the company maximum', async () => {
    const page = await signedInPage('admin', defaultAdminPassword);
    await page.goto(`${server.baseUrl}/#/account-settings`);
    const lifetime = page.getByLabel(/^Lifetime/);
    expect(await lifetime.inputValue()).toBe('90');
    await page.getByLabel(/^Token name/).fill('e2e forever');
    await lifetime.selectOption('never');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByTestId('new-api-token').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('row').filter({ hasText: 'e2e forever' }).getByText('Never expires').waitFor();

    // An administrator sets a maximum on the company settings page; a longer lifetime is refused under its field.
    await page.goto(`${server.baseUrl}/#/settings/company-settings`);
    const section = page.getByRole('region', { name: 'API tokens' });
    await section.getByLabel(/^Maximum token lifetime \(days\)/).fill('30');
    await section.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await api<{ maximum_lifetime_days: number }>(server.baseUrl, '/configurations/api-tokens', { token: adminToken })).body.maximum_lifetime_days).toBe(30);
    await page.goto(`${server.baseUrl}/#/account-settings`);
    await page.getByLabel(/^Token name/).fill('e2e too long');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.locator('.account-form').getByText('At most 30 days in this company.').waitFor();
    await page.close();
    await api(server.baseUrl, '/configurations/api-tokens', { method: 'PUT', token: adminToken, body: { maximum_lifetime_days: 0 } });
  }, 120_000);
  it('previews how many devices an action query matches, leaves a hand-run action off, and links each result to its asset', async () => {
    const query = 'Hostname = srv-0*';
    const expected = (await api<{ count: number }>(server.baseUrl, '/devices/devices', { method: 'POST', token: adminToken, body: { query, fields: ['Hostname'], page: 1, size: 1, ordering: [] } })).body.count;
    expect(expected).toBeGreaterThan(0);
    const page = await signedInPage('admin', defaultAdminPassword);
    await page.goto(`${server.baseUrl}/#/action-center/create`);
    expect(await page.getByRole('checkbox', { name: /^Enabled/ }).isChecked()).toBe(false);
    await page.getByLabel(/^Name/).fill('e2e servers webhook');
    await page.getByLabel(/^Query/).fill(query);
    const preview = page.getByRole('region', { name: 'Preview on the latest snapshot' });
    await preview.getByText(`${expected.toLocaleString('en-US')} asset(s) of the latest snapshot match.`).waitFor();
    await page.getByLabel(/^Url/i).fill('https://hooks.example.com/intake');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/#\/action-center$/);
    await page.getByRole('button', { name: 'e2e servers webhook' }).click();
    await page.locator('tr', { hasText: 'e2e servers webhook' }).getByRole('button', { name: 'Dry run', exact: true }).click();
    const firstResult = page.locator('.action-results tbody tr').first().getByRole('link');
    await firstResult.waitFor({ timeout: 120_000 });
    const name = (await firstResult.textContent()) ?? '';
    expect(name).toMatch(/^srv-0/i);
    await firstResult.click();
    await page.waitForURL(/#\/device-inventory\/detail\//);
    await page.getByRole('heading', { name }).first().waitFor();
    await page.close();
  }, 180_000);
});
