import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, consolePath, defaultAdminPassword, launchBrowser, signInThroughApi, signInThroughForm, startServer, watchConsole, type Browser, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;
let adminToken: string;
const consoleErrors: string[] = [];

async function freshPage(): Promise<Page> {
  const page = await browser.context.newPage();
  const watched = watchConsole(page);
  page.on('close', () => consoleErrors.push(...watched.errors));
  await page.goto(`${server.baseUrl}/`);
  await page.evaluate(() => localStorage.clear());
  await page.reload(); // The console reads the (now empty) storage again.
  // Signed out, the console settles on its sign-in page once it has mounted (after its message file): a test that
  // navigated before that raced the first navigation's redirect, which could land last under load.
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  return page;
}

async function createUser(username: string, groupName: string, password: string): Promise<void> {
  const groups = await api<{ results: { id: number; name: string }[] }>(server.baseUrl, '/users/groups?size=100', { token: adminToken });
  const group = groups.body.results.find((entry) => entry.name === groupName);
  if (!group) throw new Error(`no built-in group ${groupName}`);
  const created = await api(server.baseUrl, '/users/users', {
    method: 'POST',
    token: adminToken,
    body: { username, email: `${username}@example.com`, first_name: username, last_name: 'Tester', is_active: true, group_ids: [group.id], password },
  });
  expect(created.status).toBe(201);
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  adminToken = await signInThroughApi(server.baseUrl, 'admin', defaultAdminPassword);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the console in a real browser against the real server', () => {
  it('sends an unauthenticated visitor to login with the full original path, and back there after signing in', async () => {
    const page = await freshPage();
    await page.goto(`${server.baseUrl}/#/settings/user?page=2`);
    await page.waitForURL(/#\/login/);
    expect(consolePath(page)).toBe('/login?redirect=/settings/user?page=2');
    await signInThroughForm(page, 'admin', defaultAdminPassword);
    await page.waitForURL(/#\/settings\/user/);
    expect(consolePath(page)).toBe('/settings/user?page=2');
    // Home hands a user who may view dashboards over to the default dashboard, replacing `/` in the history.
    await page.goto(`${server.baseUrl}/#/`);
    await page.waitForURL((url) => url.hash === '#/dashboard');
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await page.close();
  });

  it('keeps a signed-in user away from /login and shows the account menu with sign-out', async () => {
    const page = await freshPage();
    await page.goto(`${server.baseUrl}/#/login`);
    await signInThroughForm(page, 'admin', defaultAdminPassword);
    await page.waitForURL((url) => url.hash === '#/dashboard');
    await page.goto(`${server.baseUrl}/#/login`);
    await page.waitForURL((url) => url.hash === '#/dashboard');
    // The account menu is a popover: an outside click closes it, Escape closes it.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.mouse.click(600, 400);
    await page.getByRole('button', { name: 'Sign out' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Sign out' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/#\/login/);
    expect(await page.evaluate(() => localStorage.getItem('cartograph.token'))).toBeNull();
    await page.close();
  });

  it('shows the Not Found screen for an unknown path and for an invalid id, and Go to Home leads to the dashboard route', async () => {
    const page = await freshPage();
    await page.goto(`${server.baseUrl}/#/login`);
    await signInThroughForm(page, 'admin', defaultAdminPassword);
    await page.waitForURL((url) => url.hash === '#/dashboard');
    await page.goto(`${server.baseUrl}/#/no-such-page`);
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    expect(await page.title()).toBe('404 - Cartograph');
    await expect(page.getByText('There might be an issue with the link. Please check the URL and try again.').isVisible()).resolves.toBe(true);

    await page.goto(`${server.baseUrl}/#/settings/user/not-a-number/edit`);
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();

    await page.getByRole('button', { name: 'Go to Home' }).click();
    await page.waitForURL(/#\/dashboard$/);
    await page.close();
  });

  it('sends a Viewer without the permission of a page to /forbidden', async () => {
    await createUser('viewer1', 'Viewers', 'Viewer-e2e-Pass-77!');
    const page = await freshPage();
    await page.goto(`${server.baseUrl}/#/login?redirect=/settings/user`);
    await signInThroughForm(page, 'viewer1', 'Viewer-e2e-Pass-77!');
    await page.waitForURL(/#\/forbidden$/);
    await page.getByRole('heading', { name: 'Forbidden' }).waitFor();
    await page.close();
  });

  it('cycles the theme light, dark, system and sets data-theme on the document', async () => {
    const page = await freshPage();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${server.baseUrl}/#/login`);
    const theme = () => page.evaluate(() => [localStorage.getItem('theme'), document.documentElement.dataset.theme]);
    const toggle = page.getByRole('button', { name: /Change theme/ });
    await toggle.waitFor();
    // The emulated colour scheme can reach a busy page a moment after its first paint; the app follows it either way.
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    expect(await theme()).toEqual([null, 'dark']);
    await toggle.click();
    expect(await theme()).toEqual(['light', 'light']);
    await toggle.click();
    expect(await theme()).toEqual(['dark', 'dark']);
    await toggle.click();
    expect(await theme()).toEqual(['system', 'dark']);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    await page.close();
  });

  it('signs in with a one-time code when the account has OTP enabled', async () => {
    await createUser('analyst1', 'Analysts', 'Analyst-e2e-Pass-88!');
    const analystToken = await signInThroughApi(server.baseUrl, 'analyst1', 'Analyst-e2e-Pass-88!');
    const setup = await api<{ secret: string }>(server.baseUrl, '/api/otp/setup', { method: 'POST', token: analystToken });
    expect(setup.status).toBe(200);
    const confirmed = await api(server.baseUrl, '/api/otp/confirm', { method: 'POST', token: analystToken, body: { code: await generate({ secret: setup.body.secret }) } });
    expect(confirmed.status).toBe(200);

    const page = await freshPage();
    await page.goto(`${server.baseUrl}/#/login`);
    await signInThroughForm(page, 'analyst1', 'Analyst-e2e-Pass-88!');
    await page.getByRole('heading', { name: 'Enter your one-time code' }).waitFor();
    await page.getByLabel('One-time code', { exact: true }).fill(await generate({ secret: setup.body.secret }));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => url.hash === '#/dashboard');
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await page.close();
  });

  it('shows a wrong password as a sign-in failure without leaving the login page', async () => {
    const page = await freshPage();
    await page.goto(`${server.baseUrl}/#/login`);
    await signInThroughForm(page, 'admin', 'not-the-password');
    await page.getByRole('alert').waitFor();
    expect(consolePath(page)).toBe('/login');
    await page.close();
  });

  it('loads at most 200 kB of gzipped JavaScript for the login route', async () => {
    const page = await freshPage();
    const scripts = new Set<string>();
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.add(new URL(request.url()).pathname);
    });
    await page.reload();
    await page.goto(`${server.baseUrl}/#/login`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.waitForLoadState('networkidle');
    const distFolder = new URL('../../dist/web', import.meta.url).pathname;
    const gzippedBytes = [...scripts].reduce((total, path) => total + gzipSync(readFileSync(`${distFolder}${path}`), { level: 9 }).length, 0);
    console.info(`login route: ${scripts.size} scripts, ${(gzippedBytes / 1024).toFixed(1)} kB gzipped`);
    expect(scripts.size).toBeGreaterThan(0);
    expect(gzippedBytes).toBeLessThanOrEqual(200 * 1024);
    await page.close();
  });

  it('logged no console errors and no uncaught exceptions during the run', () => {
    expect(consoleErrors).toEqual([]);
  });
});
