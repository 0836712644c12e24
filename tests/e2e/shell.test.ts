import { readFileSync, writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, type RunningProvider } from '../support/oidcProvider';
import { api, consolePath, defaultAdminPassword, launchBrowser, signInThroughApi, signInThroughForm, startServer, waitForLastDiscovery, watchConsole, type Browser, type RunningServer } from './harness';

const distFolder = new URL('../../dist/web/', import.meta.url).pathname;
let server: RunningServer;
let browser: Browser;
let provider: RunningProvider;
let adminToken: string;

/** A page whose service-worker events and page loads are counted from the first script on. */
async function watchedPage(context = browser.context): Promise<Page> {
  const page = await context.newPage();
  // The 2-core machine is shared: first loads (with the service worker precaching beside them) can be slow.
  page.setDefaultTimeout(60_000);
  page.setDefaultNavigationTimeout(90_000);
  await page.addInitScript(() => {
    const record = (entry: string) => sessionStorage.setItem('e2e.events', JSON.stringify([...JSON.parse(sessionStorage.getItem('e2e.events') ?? '[]'), entry]));
    record('load');
    window.addEventListener('cartograph:service-worker', (event) => record((event as CustomEvent<{ name: string }>).detail.name));
  });
  return page;
}
const eventsOf = (page: Page): Promise<string[]> => page.evaluate(() => JSON.parse(sessionStorage.getItem('e2e.events') ?? '[]') as string[]);

/** The browser profile is shared by the tests: sign out what an earlier test left signed in. */
async function signedOutPage(): Promise<Page> {
  const page = await watchedPage();
  await page.goto(`${server.baseUrl}/#/login`);
  await page.evaluate(() => localStorage.removeItem('cartograph.token'));
  await page.reload();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  return page;
}

async function signedInPage(): Promise<Page> {
  const page = await signedOutPage();
  await signInThroughForm(page, 'admin', defaultAdminPassword);
  await page.waitForURL((url) => !url.hash.startsWith('#/login'));
  await page.locator('.top-bar').waitFor();
  return page;
}

beforeAll(async () => {
  server = await startServer({ env: { CARTOGRAPH_DEMO: '1' } });
  adminToken = await signInThroughApi(server.baseUrl, 'admin', defaultAdminPassword);
  await waitForLastDiscovery(server.baseUrl, adminToken, 170_000); // the demo's first discovery, before any page loads
  const callback = `${server.baseUrl}/api/sso/callback`;
  provider = await startOidcProvider([callback], [{ sub: 'sub-e2e-dana', email: 'dana@acme.example', preferred_username: 'dana', groups: ['idp-analysts'] }]);
  browser = await launchBrowser();
}, 400_000);

afterAll(async () => {
  await browser?.close();
  await provider?.stop();
  await server?.stop();
});

describe('the shell: installable app, updates, command palette, loading bar, single sign-on', () => {
  it('installs the app (installable manifest, service worker active, offline-ready) and reloads once when a new worker is deployed', async () => {
    const page = await watchedPage();
    await page.goto(`${server.baseUrl}/#/login`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.waitForFunction(async () => (await navigator.serviceWorker.ready).active?.state === 'activated');
    await expect.poll(() => eventsOf(page)).toEqual(expect.arrayContaining(['registered', 'installed', 'offline-ready', 'activated']));
    const cdp = await browser.context.newCDPSession(page);
    const installability = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] };
    expect(installability.installabilityErrors).toEqual([]);
    // The precache holds the console's files, never an API answer.
    const cached = await page.evaluate(async () => (await Promise.all((await caches.keys()).map(async (name) => (await (await caches.open(name)).keys()).map((request) => new URL(request.url).pathname)))).flat());
    expect(cached.some((path) => path.endsWith('/index.html'))).toBe(true);
    expect(cached.some((path) => /^\/(api|users|devices|adapters\/adapters|configurations)\//.test(path))).toBe(false);
    expect(cached.some((path) => path.startsWith('/builds/'))).toBe(false);
    const loadsBefore = (await eventsOf(page)).filter((entry) => entry === 'load').length;

    const original = readFileSync(`${distFolder}sw.js`, 'utf8');
    try {
      writeFileSync(`${distFolder}sw.js`, `${original}\n// a new deploy ${Date.now()}\n`);
      await page.evaluate(async () => void (await navigator.serviceWorker.getRegistration())?.update());
      await expect.poll(async () => (await eventsOf(page)).filter((entry) => entry === 'load').length, { timeout: 20_000 }).toBe(loadsBefore + 1);
      await page.waitForTimeout(3000);
      expect((await eventsOf(page)).filter((entry) => entry === 'load').length).toBe(loadsBefore + 1);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    } finally {
      writeFileSync(`${distFolder}sw.js`, original);
    }
    // Restoring sw.js is one more deploy: it installs and takes over (one more reload) here, not in a later test's
    // middle, where its precaching would take seconds and its reload would break the page under test.
    await page.evaluate(async () => void (await navigator.serviceWorker.getRegistration())?.update());
    await expect.poll(async () => (await eventsOf(page)).filter((entry) => entry === 'load').length, { timeout: 20_000 }).toBe(loadsBefore + 2);
    await page.waitForFunction(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      return !registration?.installing && !registration?.waiting && registration?.active?.state === 'activated';
    });
    await page.close();
  }, 240_000);

  it('loads and signs in when the browser allows no service worker: the registration failure is flagged and logged', async () => {
    const blocking = await launchBrowser({ serviceWorkers: 'block' });
    try {
      const page = await watchedPage(blocking.context);
      const watched = watchConsole(page);
      await page.goto(`${server.baseUrl}/#/login`);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await signInThroughForm(page, 'admin', defaultAdminPassword);
      await page.waitForURL((url) => !url.hash.startsWith('#/login'));
      await page.locator('.top-bar').waitFor();
      await expect.poll(() => eventsOf(page)).toContain('registration-failed');
      expect(await eventsOf(page)).not.toContain('registered');
      expect(watched.errors.some((error) => error.startsWith('Service worker registration failed'))).toBe(true);
      expect(await page.evaluate(async () => ({ controller: navigator.serviceWorker.controller, registrations: (await navigator.serviceWorker.getRegistrations()).length }))).toEqual({ controller: null, registrations: 0 });
      // Signed in and working without it: a page that calls the API shows its answer.
      await page.evaluate(() => (window.location.hash = '#/device-inventory'));
      await page.locator('.ui-page-header__meta', { hasText: ' devices · snapshot #' }).waitFor();
    } finally {
      await blocking.close();
    }
  }, 240_000);

  it('offers a reload when builds/latest.json names another build', async () => {
    const page = await signedInPage();
    const original = readFileSync(`${distFolder}builds/latest.json`, 'utf8');
    try {
      writeFileSync(`${distFolder}builds/latest.json`, JSON.stringify({ id: 'a-newer-build', timestamp: Date.now() }));
      await page.evaluate(() => window.dispatchEvent(new Event('focus'))); // returning to the tab checks at once
      const notification = page.locator('.notification', { hasText: 'A new version is available' });
      await notification.waitFor();
      await expect.poll(() => notification.getByRole('button', { name: 'Reload' }).count()).toBe(1);
    } finally {
      writeFileSync(`${distFolder}builds/latest.json`, original);
    }
    await page.close();
  }, 240_000);

  it('finds a device and an adapter in the command palette (Ctrl+K) by two characters', async () => {
    const devices = await api<{ results: { Hostname: string[] }[] }>(server.baseUrl, '/devices/devices', { method: 'POST', token: adminToken, body: { fields: ['Hostname'], page: 1, size: 1, ordering: [{ field: 'Hostname' }] } });
    const hostname = devices.body.results[0]!.Hostname[0]!;
    const adapters = await api<{ results: { name: string; status: number }[] }>(server.baseUrl, '/adapters/adapters?page=1&size=1000', { token: adminToken });
    const adapterName = adapters.body.results.find((adapter) => adapter.status !== 6 && /^[A-Za-z]{2}/.test(adapter.name))!.name;
    const page = await signedInPage();
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Go to' });
    await palette.waitFor();
    const search = palette.getByPlaceholder('Type to search');
    await search.fill(hostname.slice(0, 2).toUpperCase()); // case-insensitive, two characters are enough
    // Exact: the demo reuses host names in another case (a retired CMDB item's lt-000095 beside the live LT-000095).
    const deviceItem = palette.getByRole('button', { name: `${hostname} · Device`, exact: true });
    await deviceItem.waitFor();
    await search.fill('zq');
    await palette.getByText('No data found').waitFor();
    await search.fill(adapterName.slice(0, 2).toLowerCase());
    await palette.getByRole('button', { name: `${adapterName} · Adapter` }).first().waitFor();
    await search.fill(hostname.slice(0, 2));
    await deviceItem.click();
    await page.waitForURL(/#\/device-inventory\/detail\//);
    await page.close();
  }, 240_000);

  it('shows the loading bar on a slow navigation and turns it to the error colour when the navigation fails', async () => {
    const page = await signedInPage();
    // Files the service worker precached never reach the network, where the test breaks one: work without it here.
    await page.evaluate(async () => void (await navigator.serviceWorker.getRegistration())?.unregister());
    await page.reload();
    await page.locator('.top-bar').waitFor();
    // The page's chunk answers late and broken; the chunk-reload guard already spent for this path, so no reload.
    await page.route(/\/assets\/Forbidden-[^/]+\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.fulfill({ status: 500, body: 'deploy in progress' });
    });
    await page.evaluate(() => sessionStorage.setItem('cartograph.chunk-reload', JSON.stringify({ '/forbidden': Date.now() })));
    await page.evaluate(() => (window.location.hash = '#/forbidden'));
    // Polled on a timer: the locator's frame-driven polling missed the phase in Debian's Chromium 156.0.8078.108.
    const reaches = (selector: string, timeout: number) => page.waitForFunction((wanted) => document.querySelector(wanted) !== null, selector, { polling: 50, timeout });
    await reaches('.loading-bar--loading', 5000);
    const bar = page.locator('.loading-bar--error');
    await reaches('.loading-bar--error', 10_000);
    expect(await bar.evaluate((element) => getComputedStyle(element).height)).toBe('3px');
    await page.getByRole('heading', { name: 'Something went wrong' }).waitFor();
    await page.close();
  }, 240_000);

  it('signs a user in through the local OpenID Connect provider, onto the redirect target with the mapped group\'s permissions', async () => {
    const saved = await api(server.baseUrl, '/configurations/sso-configuration', {
      method: 'PUT', token: adminToken,
      body: { enabled: true, issuer: provider.issuer, client_id: provider.clientId, client_secret: provider.clientSecret, scopes: 'openid email profile groups', username_claim: 'preferred_username', group_claim: 'groups', group_mappings: [{ claim_value: 'idp-analysts', group: 'Analysts' }] },
    });
    expect(saved.status).toBe(200);
    const page = await signedOutPage();
    await page.goto(`${server.baseUrl}/#/device-inventory`);
    await page.waitForURL(/#\/login\?redirect/);
    await page.getByRole('link', { name: 'Sign in with single sign-on' }).click();
    await page.waitForURL(/#\/sso/);
    await page.getByRole('button', { name: 'Continue with single sign-on' }).click();
    await page.waitForURL((url) => url.href.startsWith(provider.issuer), { waitUntil: 'domcontentloaded' });
    await page.locator('input[name="login"]').fill('sub-e2e-dana');
    await page.locator('input[name="password"]').fill('any password');
    await page.locator('button[type="submit"]').click();
    await page.waitForURL((url) => url.href.startsWith(server.baseUrl) && url.hash.startsWith('#/device-inventory'), { timeout: 30_000 });
    expect(consolePath(page)).toBe('/device-inventory');
    const token = await page.evaluate(() => localStorage.getItem('cartograph.token'));
    const me = await api<{ username: string; groups: { name: string }[]; permissions: string[] }>(server.baseUrl, '/api/me', { token: token! });
    expect(me.body.username).toBe('dana');
    expect(me.body.groups.map((group) => group.name)).toEqual(['Analysts']);
    expect(me.body.permissions).toContain('users.view_devices');
    expect(me.body.permissions).not.toContain('users.add_user');
    await page.close();
  }, 240_000);
});
