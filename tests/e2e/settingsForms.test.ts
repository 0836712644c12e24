import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, consolePath, defaultAdminPassword, launchBrowser, signInThroughApi, signInThroughForm, startServer, watchConsole, type Browser, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;
let adminToken: string;
let page: Page;
let watched: ReturnType<typeof watchConsole>;

/** The error text under a field (the ids its input is described by). */
const errorUnder = (label: RegExp) =>
  page.getByLabel(label).evaluate((input) =>
    (input.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );

/** Opens a console path once the start-up load is done (the shell shows the signed-in user's menu). */
async function open(path: string): Promise<void> {
  await page.goto(`${server.baseUrl}/#${path}`);
  await page.locator('.top-bar__user', { hasText: 'Cartograph Administrator' }).waitFor();
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  adminToken = await signInThroughApi(server.baseUrl, 'admin', defaultAdminPassword);
  page = await browser.context.newPage();
  watched = watchConsole(page);
  await page.goto(`${server.baseUrl}/#/login`);
  await signInThroughForm(page, 'admin', defaultAdminPassword);
  await page.waitForURL((url) => !url.hash.startsWith('#/login'));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('settings forms in a real browser against the real server', () => {
  it('creates a user: a required field on blur, a server field error under its field, then the list', async () => {
    await open('/settings/user/create');
    const username = page.getByLabel(/^Username/);
    await username.click();
    await page.getByLabel(/^Email/).click();
    await expect.poll(() => errorUnder(/^Username/)).toContain('The Username field is required.');
    await username.fill('admin');
    await page.getByLabel(/^Password/).fill('jane first passphrase 42');
    await page.getByLabel('Analysts').check();
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => errorUnder(/^Username/)).toContain('A user with that username already exists.');
    await username.fill('jane.doe');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/#\/settings\/user$/);
    const users = await api<{ results: { username: string; groups: { name: string }[] }[] }>(server.baseUrl, '/users/users?search=jane', { token: adminToken });
    expect(users.body.results).toEqual([expect.objectContaining({ username: 'jane.doe', groups: [expect.objectContaining({ name: 'Analysts' })] })]);
  });

  it('edits a user: the form is filled from the API, a taken username is refused, a new name is saved', async () => {
    const users = await api<{ results: { id: number; username: string }[] }>(server.baseUrl, '/users/users?search=jane', { token: adminToken });
    const jane = users.body.results[0]!;
    await open(`/settings/user/${jane.id}/edit`);
    const username = page.getByLabel(/^Username/);
    await expect.poll(() => username.inputValue()).toBe('jane.doe');
    expect(await page.getByLabel('Analysts').isChecked()).toBe(true);
    await username.fill('admin');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => errorUnder(/^Username/)).toContain('A user with that username already exists.');
    await username.fill('jane.doe');
    await page.getByLabel(/^First name/).fill('Jane');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/#\/settings\/user$/);
    expect(consolePath(page)).toBe('/settings/user');
    const saved = await api<{ first_name: string; groups: { name: string }[] }>(server.baseUrl, `/users/users/${jane.id}`, { token: adminToken });
    expect(saved.body).toMatchObject({ first_name: 'Jane', groups: [{ name: 'Analysts' }] });
  });

  it('lists the settings pages on the overview and opens one from it', async () => {
    await open('/settings');
    const discovery = page.getByRole('region', { name: 'Discovery' });
    await discovery.getByRole('link', { name: 'Discovery settings' }).click();
    await page.waitForURL(/#\/settings\/discovery-settings$/);
    const concurrency = page.getByLabel(/^Connections fetched at once/);
    await expect.poll(() => concurrency.inputValue()).toBe('4');
    await concurrency.fill('40');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => errorUnder(/^Connections fetched at once/)).not.toBe('');
    await concurrency.fill('6');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await api<{ concurrency: number }>(server.baseUrl, '/configurations/discovery-settings', { token: adminToken })).body.concurrency).toBe(6);
  });

  it('saves the merge recommendations and a field precedence on the advanced configuration page', async () => {
    await open('/settings/advanced-configuration');
    const nameOnly = page.getByLabel('Same host name only (score 0.5)');
    await expect.poll(() => nameOnly.isChecked()).toBe(true);
    await nameOnly.uncheck();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    type Advanced = { recommended_matches: string[]; ordering: Record<string, string[]> };
    const advanced = () => api<Advanced>(server.baseUrl, '/configurations/advanced-configuration', { token: adminToken });
    await expect.poll(async () => (await advanced()).body.recommended_matches).toEqual(['host_name_os', 'host_name_ip', 'host_name_ip_os']);

    const field = page.getByLabel('Field', { exact: true });
    await expect.poll(() => field.locator('option', { hasText: 'Hostname' }).count()).toBeGreaterThan(0);
    await field.selectOption('Hostname');
    await page.getByRole('button', { name: 'Add field' }).click();
    const sources = page.getByLabel('Add a source to Hostname');
    const [first, second] = (await sources.locator('option').evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value))).filter(Boolean);
    await sources.selectOption(first!);
    await sources.selectOption(second!);
    await page.getByRole('button', { name: 'Save precedence' }).click();
    await expect.poll(async () => (await advanced()).body.ordering).toEqual({ Hostname: [first, second] });
    const configuration = await api<{ ordering: Record<string, string[]> }>(server.baseUrl, '/configurations/discovery', { token: adminToken });
    expect(configuration.body.ordering).toEqual({ Hostname: [first, second] });
  });

  it('shows the license and the system information', async () => {
    await open('/settings/license');
    await page.getByRole('cell', { name: 'Open source' }).or(page.getByText('Open source')).first().waitFor();
    await page.getByRole('rowheader', { name: 'Connections' }).waitFor();
    await open('/settings/system-information');
    await page.getByRole('region', { name: 'Memory' }).waitFor();
    expect(await page.getByRole('region', { name: 'Database' }).textContent()).toMatch(/PGlite|PostgreSQL/);
  });

  it('logged no console errors', () => {
    expect(watched.errors).toEqual([]);
  });
});
