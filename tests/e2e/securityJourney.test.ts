import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, defaultAdminPassword, launchBrowser, signInThroughApi, signInThroughForm, startServer, waitForLastDiscovery, watchConsole, type Browser, type RunningServer } from './harness';

// The security manager on the demo (CARTOGRAPH_DEMO=1): a newcomer enables the starter policies, runs a discovery,
// sees the company score and the worst devices, opens one device's explained score, and fixes a condition with
// the preview before saving it. The demo's policy on users ("Leavers with an active account", on from the start)
// lists the HR export's leavers whose directory account is still enabled, by name, each opening its user detail.

let server: RunningServer;
let browser: Browser;
let token: string;
let page: Page;
let watched: ReturnType<typeof watchConsole>;
const discoveryWait = 240_000;

async function open(path: string): Promise<void> {
  await page.goto(`${server.baseUrl}/#${path}`);
  await page.locator('.top-bar__user', { hasText: 'Cartograph Administrator' }).waitFor();
}

beforeAll(async () => {
  server = await startServer({ env: { CARTOGRAPH_DEMO: '1' } });
  browser = await launchBrowser();
  token = await signInThroughApi(server.baseUrl, 'admin', defaultAdminPassword);
  await waitForLastDiscovery(server.baseUrl, token, discoveryWait);
  page = await browser.context.newPage();
  page.setDefaultTimeout(90_000);
  watched = watchConsole(page);
  await page.goto(`${server.baseUrl}/#/login`);
  await signInThroughForm(page, 'admin', defaultAdminPassword);
  await page.waitForURL((url) => !url.hash.startsWith('#/login'));
}, 400_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the security manager', () => {
  it('enables the starter policies, scores the demo at the next discovery, explains a device and previews a fix', async () => {
    await open('/security-manager/security-policy');
    await page.getByRole('button', { name: 'Enable starter policies' }).click();
    await page.getByText(/starter polic.* added, 22 enabled/).waitFor();
    expect((await api<{ status: number }>(server.baseUrl, '/discoveries/discoveries', { method: 'POST', token })).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await waitForLastDiscovery(server.baseUrl, token, discoveryWait);

    await open('/security-manager');
    // The label itself must be a number from 0 to 100, as the API gives it (52.8) (Number('') is 0, so a blank label
    // would pass a range check), and the very score the API computed, not a placeholder.
    const label = (await page.locator('[aria-label="Company score"]').innerText()).trim();
    expect(label).toMatch(/^(100|[1-9]?\d)(\.\d+)?$/);
    const overview = await api<{ score: number | null }>(server.baseUrl, '/securitymanager/overview', { token });
    expect(overview.body.score).not.toBeNull();
    expect(Number(label)).toBe(overview.body.score);
    const worst = page.getByRole('table', { name: 'Lowest scoring devices' }).locator('tbody a').first();
    await worst.click();
    await page.getByRole('tab', { name: 'Security score' }).click();
    await page.getByText('Policies that applied').waitFor();
    expect(await page.getByText('Failed', { exact: true }).count()).toBeGreaterThan(0);

    await open('/security-manager/security-policy');
    await page.getByRole('link', { name: 'Seen in the last 7 days' }).click();
    const query = page.getByLabel(/^Query/);
    await query.fill('LastSeen last now-7d AND Colour = red');
    await page.getByText(/Unknown field "Colour"/).waitFor();
    await query.fill('LastSeen last now-30d');
    await page.getByText(/^Applies to/).waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((url) => url.hash === '#/security-manager/security-policy');
    const policies = await api<{ results: { name: string; query: string }[] }>(server.baseUrl, '/securitymanager/security-policies?search=Seen', { token });
    expect(policies.body.results[0].query).toBe('LastSeen last now-30d');
    expect(watched.errors).toEqual([]);
  }, 600_000);

  it('lists the leavers whose account is still enabled under the policy on users, and shows the policy a leaver fails on the user detail', async () => {
    const leaverName = 'Leavers with an active account';
    const leavers = await api<{ count: number; results: { Username: string[] }[] }>(server.baseUrl, '/userinventory/users', {
      method: 'POST', token, body: { query: 'Employment.Status = terminated AND Enabled = true', fields: ['Username'], size: 100 },
    });
    expect(leavers.body.count).toBeGreaterThan(0);
    const usernames = leavers.body.results.map((row) => row.Username[0]).sort();

    await open('/security-manager/security-policy');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: leaverName, exact: true }) });
    await row.getByRole('cell', { name: 'Users', exact: true }).waitFor();
    await row.getByRole('link', { name: new RegExp(`^${leavers.body.count} of [\\d,]+ failed$`) }).click();
    await page.waitForURL((url) => url.hash.startsWith('#/user-inventory'));
    const list = page.locator('.inventory-page tbody');
    for (const username of usernames) await list.getByText(username, { exact: true }).waitFor();
    expect(await page.locator('.inventory-page tbody tr[aria-rowindex]').count()).toBe(usernames.length);

    await open('/security-manager');
    const failing = page.getByRole('table', { name: 'Users failing policies' });
    // Named as people are (display name and user name), each a leaver the inventory answers.
    const leaver = failing.getByRole('link').first();
    const linkText = (await leaver.innerText()).trim();
    expect(usernames.some((username) => linkText === username || linkText.endsWith(`(${username})`))).toBe(true);
    await leaver.click();
    await page.waitForURL(/#\/user-inventory\/detail\/[^/]+\/\d+$/);
    await page.getByRole('tab', { name: 'Security policies' }).click();
    const policyRow = page.getByRole('table', { name: 'Policies on users' }).getByRole('row').filter({ hasText: leaverName });
    await policyRow.getByText('Failed', { exact: true }).waitFor();
    expect(watched.errors).toEqual([]);
  }, 300_000);
});
