import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, consolePath, defaultAdminPassword, launchBrowser, signInThroughApi, signInThroughForm, startServer, watchConsole, type Browser, type RunningServer, waitForLastDiscovery } from './harness';

// The newcomer's journey on the demo data set (CARTOGRAPH_DEMO=1: seven sources' CSV exports through the real CSV
// file adapter, and a first discovery started at boot): adapters, a connection check, a discovery followed live,
// then the device and user inventories — query, columns, saved query, export, preview and detail — and the
// vulnerability inventory: the devices exposed to a known-exploited critical CVE, one of whose findings the
// newcomer marks a false positive with a reason, and the export of the critical vulnerabilities.

let server: RunningServer;
let browser: Browser;
let adminToken: string;
let page: Page;
let watched: ReturnType<typeof watchConsole>;

// A discovery of the demo (about 55,000 records, most of them installed software) takes seconds on a quiet
// machine; this one is shared, so waits are generous. Nothing below asserts a duration.
const discoveryWait = 170_000;
const serverQuery = 'Hostname = srv*';
const savedQueryName = 'Servers (e2e journey)';
// expect.poll gives up after one second by default; a loaded machine needs longer to re-render or fetch.
const patiently = { timeout: 60_000 };

type DiscoveryAnswer = { id: number; status: string; state?: string; progress: { connections?: { name: string; records: number; by_entity: Record<string, number> }[]; assets?: Record<string, number> } };
type SearchAnswer = { count: number; results: Record<string, unknown[]>[]; index_id: number };

/** Opens a console path once the shell shows the signed-in administrator. */
async function open(path: string): Promise<void> {
  await page.goto(`${server.baseUrl}/#${path}`);
  await page.locator('.top-bar__user', { hasText: 'Cartograph Administrator' }).waitFor();
}

/** The console path and its `query` search parameter (the router writes spaces as `+`). */
function listPath(): { path: string; query: string | null } {
  const [path, search] = new URL(page.url()).hash.replace(/^#/, '').split('?');
  return { path, query: new URLSearchParams(search ?? '').get('query') };
}

/** The count an inventory list shows next to its title ("353 devices · snapshot #2"). */
async function listedCount(noun: 'devices' | 'users' | 'vulnerabilities'): Promise<{ count: number; snapshot: number }> {
  const meta = page.locator('.ui-page-header__meta', { hasText: ` ${noun} · snapshot #` });
  await meta.waitFor();
  const match = new RegExp(`^([\\d,]+) ${noun} · snapshot #(\\d+)$`).exec((await meta.innerText()).trim());
  if (!match) throw new Error(`unexpected list meta: ${await meta.innerText()}`);
  return { count: Number(match[1].replace(/,/g, '')), snapshot: Number(match[2]) };
}

/** Waits until the list's count is `count` (the list keeps the previous page while the next one loads). */
async function waitForCount(noun: 'devices' | 'users' | 'vulnerabilities', count: number): Promise<void> {
  await expect.poll(async () => (await listedCount(noun)).count, patiently).toBe(count);
}

/** The visible column headers of the inventory table (sort arrows left out). */
const columnHeaders = (): Promise<string[]> =>
  page.locator('.inventory-page thead th button.ui-table__sort').evaluateAll((buttons) => buttons.map((button) => (button.firstChild?.textContent ?? '').trim()));

/** The text of one column in the rendered rows of the inventory table. */
async function columnCells(header: string): Promise<string[]> {
  const headers = await page.locator('.inventory-page thead th').evaluateAll((cells) => cells.map((cell) => (cell.querySelector('button')?.firstChild?.textContent ?? cell.textContent ?? '').trim()));
  const index = headers.indexOf(header);
  if (index === -1) throw new Error(`no column ${header} in ${headers.join(', ')}`);
  // What a cell shows (innerText): a collapsed cell's "+n" tooltip lists its other values, hidden until hovered.
  return page.locator('.inventory-page tbody tr[aria-rowindex]').evaluateAll((rows, at) => rows.map((row) => ((row.children[at] as HTMLElement | undefined)?.innerText ?? '').trim()), index);
}

async function searchThroughApi(path: string, query: string | undefined, fields: string[]): Promise<SearchAnswer> {
  const answer = await api<SearchAnswer>(server.baseUrl, path, { method: 'POST', token: adminToken, body: { query, fields, page: 1, size: 1, ordering: [] } });
  expect(answer.status).toBe(200);
  return answer.body;
}

beforeAll(async () => {
  const started = Date.now();
  server = await startServer({ env: { CARTOGRAPH_DEMO: '1' } });
  const ready = Date.now();
  browser = await launchBrowser();
  adminToken = await signInThroughApi(server.baseUrl, 'admin', defaultAdminPassword);
  // The demo's first discovery starts at boot; "Start discovery" stays disabled while one runs, so the journey
  // begins once it has finished (set-up, not under test here: its result is checked below like the second one's).
  await waitForLastDiscovery(server.baseUrl, adminToken, discoveryWait);
  console.info(`demo journey set-up: server ready in ${((ready - started) / 1000).toFixed(1)} s, demo discovery done ${((Date.now() - ready) / 1000).toFixed(1)} s later`);
  page = await browser.context.newPage();
  page.setDefaultTimeout(60_000);
  watched = watchConsole(page);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("a newcomer's journey through adapters, discoveries and the inventories of the demo", () => {
  it('signs in through the form and lands on the page asked for', async () => {
    await page.goto(`${server.baseUrl}/#/login?redirect=/adapters`);
    await signInThroughForm(page, 'admin', defaultAdminPassword);
    await page.waitForURL(/#\/adapters$/);
    await page.getByRole('heading', { name: 'Adapters', level: 1 }).waitFor();
  });

  it('finds the CSV file adapter by a fuzzy search with a typo, configured by the demo', async () => {
    await open('/adapters');
    const cards = page.locator('.adapter-card');
    await cards.first().waitFor();
    const everyAdapter = await cards.count();
    await page.getByLabel('Search adapters').fill('csv fle');
    await expect.poll(() => cards.count(), patiently).toBeLessThan(everyAdapter);
    const csv = cards.filter({ has: page.locator('.adapter-card__name', { hasText: /^CSV file$/ }) });
    await csv.waitFor();
    // The demo's nineteen connections have all fetched: the adapter's status is derived from them.
    expect((await csv.locator('.adapter-card__body > .ui-badge').innerText()).trim()).toBe('Done');
    await csv.getByRole('link', { name: 'Connections' }).click();
    await page.waitForURL(/#\/adapters\/connections\?adapter=csvfile/);
    await page.getByRole('link', { name: 'Directory computers (CSV export)' }).waitFor();
    expect(await page.locator('table tbody tr').count()).toBe(19);
  });

  it("opens a connection's detail and its connectivity check answers success", async () => {
    await page.getByRole('link', { name: 'Directory computers (CSV export)' }).click();
    await page.waitForURL(/#\/adapters\/connections\/\d+$/);
    await page.getByRole('heading', { name: 'Directory computers (CSV export)' }).waitFor();
    await page.getByRole('button', { name: 'Test connection' }).click();
    const notification = page.getByRole('region', { name: 'Notifications' }).getByRole('status').filter({ hasText: 'Connection works' });
    await notification.waitFor();
    // The notification says what the check found, as the API answers it for the same connection.
    const id = Number(/connections\/(\d+)$/.exec(consolePath(page))?.[1]);
    const check = await api<{ success: boolean; detail?: string }>(server.baseUrl, `/adapters/test/${id}`, { method: 'POST', token: adminToken });
    expect(check.body.success).toBe(true);
    expect(await notification.locator('.notification__text').innerText()).toBe(check.body.detail ?? 'Connected.');
    // The test is recorded apart from fetches: when, and that the system answered.
    await expect.poll(() => page.locator('.connection-settings div', { hasText: 'Last test' }).locator('dd').innerText(), patiently).toMatch(/ago: /);
  });

  it("reaches the adapter's instructions from the connection's detail", async () => {
    await page.locator('.connection-settings').getByRole('link', { name: 'CSV file' }).click();
    await page.waitForURL(/#\/adapters\/connections\/components\/instructions\/csvfile$/);
    await page.getByRole('heading', { name: 'CSV file', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'How to connect' }).waitFor();
  });

  it('starts a discovery from /discoveries and follows it to done, with record counts per connection', async () => {
    await open('/discoveries');
    const start = page.getByRole('button', { name: 'Start discovery' });
    await expect.poll(() => start.isEnabled(), patiently).toBe(true);
    const [started] = await Promise.all([page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/discoveries/discoveries'), start.click()]);
    expect(started.status()).toBe(202);
    const created = (await started.json()) as DiscoveryAnswer;
    expect(created.status).toBe('running');
    await page.getByRole('region', { name: 'Notifications' }).getByRole('status').filter({ hasText: `Discovery #${created.id} started.` }).waitFor();
    await page.waitForURL(/#\/discovery\/detail\/\d+$/);
    const discoveryId = Number(/detail\/(\d+)$/.exec(consolePath(page))?.[1]);
    expect(discoveryId).toBe(created.id);
    await page.getByRole('heading', { name: `Discovery #${discoveryId}` }).waitFor();
    // The page polls while the discovery runs; its badge turns to Done without a reload.
    await page.locator('.ui-page-header__meta', { hasText: 'Done' }).waitFor({ timeout: discoveryWait });
    const rows = page.getByRole('table', { name: 'Connections of this discovery' }).locator('tbody tr');
    await expect.poll(() => rows.count(), patiently).toBe(19);
    const answer = await api<DiscoveryAnswer>(server.baseUrl, `/discoveries/discoveries/${discoveryId}`, { token: adminToken });
    expect(answer.body.status).toBe('done');
    for (const connection of answer.body.progress.connections ?? []) {
      expect(connection.records).toBeGreaterThan(0);
      const row = rows.filter({ hasText: connection.name });
      expect(await row.innerText()).toContain(connection.records.toLocaleString('en-US'));
      expect(await row.innerText()).toContain('Done');
    }
    await page.getByText(/^Published: (?=.*[\d,]+ devices)(?=.*[\d,]+ users).*\.$/).waitFor();
  }, discoveryWait + 60_000);

  it("lists the discovery's operation stages in the order they run, each done", async () => {
    const stages = page.locator('.discovery-stages li');
    await stages.first().waitFor();
    expect(await stages.allInnerTexts()).toEqual([
      expect.stringMatching(/^Fetch every connection\s+Done/),
      expect.stringMatching(/^Normalize and correlate\s+Done/),
      expect.stringMatching(/^Publish the snapshot\s+Done/),
    ]);
  });

  it('queries the device inventory: the count shown is the server count, and every row matches', async () => {
    await open('/device-inventory');
    const everything = await listedCount('devices');
    const expected = await searchThroughApi('/devices/devices', serverQuery, ['Hostname']);
    expect(everything.count).toBeGreaterThan(expected.count);
    await page.getByLabel('Query', { exact: true }).fill(serverQuery);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await waitForCount('devices', expected.count);
    expect((await listedCount('devices')).snapshot).toBe(expected.index_id);
    expect(listPath()).toEqual({ path: '/device-inventory', query: serverQuery });
    const hostnames = await columnCells('Hostname');
    expect(hostnames.length).toBeGreaterThan(0);
    for (const hostname of hostnames) expect(hostname).toMatch(/^srv/i);
  });

  it('adds a column through the column picker and keeps it in the local page configuration', async () => {
    await page.getByRole('button', { name: 'Columns', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Columns' });
    await dialog.getByLabel('Search fields').fill('Connections');
    await dialog.getByRole('checkbox', { name: 'Connections', exact: true }).check();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(columnHeaders, patiently).toContain('Connections');
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('pconfig-device-inventory') ?? '{}') as { columns?: string[] });
    expect(stored.columns).toContain('Connections');
    // Servers reported by several of the demo's sources show one value and "+n" more.
    await expect.poll(async () => (await columnCells('Connections')).some((cell) => /\+\d+$/.test(cell)), patiently).toBe(true);
  });

  it('saves the query, finds it among the saved queries and runs it again', async () => {
    await page.getByRole('button', { name: 'Save query' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save query' });
    await dialog.getByLabel(/^Name/).fill(savedQueryName);
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('region', { name: 'Notifications' }).getByRole('status').filter({ hasText: `The query "${savedQueryName}" was saved.` }).waitFor();
    await dialog.waitFor({ state: 'detached' });
    const filtered = await listedCount('devices');

    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await expect.poll(async () => (await listedCount('devices')).count, patiently).toBeGreaterThan(filtered.count);

    await open('/device-inventory/saved-queries');
    const row = page.getByRole('table', { name: 'Saved queries' }).locator('tbody tr', { hasText: savedQueryName });
    await row.waitFor();
    expect(await row.locator('code').innerText()).toBe(serverQuery);
    await row.getByRole('link', { name: savedQueryName }).click();
    await page.waitForURL(/#\/device-inventory\?query=/);
    expect(listPath()).toEqual({ path: '/device-inventory', query: serverQuery });
    await waitForCount('devices', filtered.count);
    expect(await page.getByLabel('Query', { exact: true }).inputValue()).toBe(serverQuery);
  });

  it('exports the current view as CSV: the header is the shown columns and there is one line per listed device', async () => {
    const { count } = await listedCount('devices');
    const headers = await columnHeaders();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const path = await download.path();
    const rows = parse(readFileSync(path).toString('utf8').replace(/^\uFEFF/, ''), { relaxColumnCount: false }) as string[][];
    expect(rows[0]).toEqual(headers);
    expect(rows.length - 1).toBe(count);
    const hostnameAt = headers.indexOf('Hostname');
    for (const line of rows.slice(1)) expect(line[hostnameAt]).toMatch(/^srv/i);
    await page.getByRole('region', { name: 'Notifications' }).getByRole('status').filter({ hasText: 'exported as CSV' }).waitFor();
  });

  it('exports the same view as XLSX with the same header and row count', async () => {
    const { count } = await listedCount('devices');
    const headers = await columnHeaders();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export XLSX' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(await download.path());
    const sheet = workbook.getWorksheet('Devices');
    expect(sheet).toBeDefined();
    expect((sheet!.getRow(1).values as unknown[]).slice(1)).toEqual(headers);
    expect(sheet!.actualRowCount - 1).toBe(count);
  });

  it('previews a device reported by several sources, then opens its detail with a panel per source', async () => {
    const cells = await columnCells('Connections');
    const merged = cells.findIndex((cell) => /\+\d+$/.test(cell));
    expect(merged).toBeGreaterThanOrEqual(0);
    const sourceCount = Number(/\+(\d+)$/.exec(cells[merged])?.[1]) + 1;
    const hostname = (await columnCells('Hostname'))[merged];
    await page.locator('.inventory-page tbody tr[aria-rowindex]').nth(merged).click();
    const preview = page.locator('aside.asset-preview');
    await preview.getByText(/source record\(s\)\.$/).waitFor();
    expect(await preview.getByText(/source record\(s\)\.$/).innerText()).toBe(`${sourceCount} source record(s).`);
    expect(hostname.startsWith(await preview.locator('h2').innerText())).toBe(true);

    await preview.getByRole('link', { name: 'Open details' }).click();
    await page.waitForURL(/#\/device-inventory\/detail\/[^/]+\/\d+$/);
    const tabs = page.getByRole('tablist').getByRole('tab');
    await page.getByRole('tab', { name: `Data sources (${sourceCount})` }).waitFor();
    // One panel per source record, each named after its connection, besides basic info, sources, tags, relations, merge.
    const sourceTabs = tabs.filter({ hasText: / \(CSV export\)$/ });
    expect(await sourceTabs.count()).toBe(sourceCount);
    await sourceTabs.first().click();
    expect(await page.getByRole('tabpanel').locator('dt').count()).toBeGreaterThan(0);
    // Joining n records takes at least n - 1 merges, each with its reason.
    await page.getByRole('tab', { name: 'Why merged' }).click();
    const reasons = page.getByRole('tabpanel').locator('.merge-reasons li');
    await reasons.first().waitFor();
    expect(await reasons.count()).toBeGreaterThanOrEqual(sourceCount - 1);
    for (const reason of await reasons.allInnerTexts()) expect(reason.trim()).not.toBe('');
  });

  it('tells the five sources of a laptop apart: five CSV exports through one adapter, each counted as the system it came from', async () => {
    // Laptops are managed by the MDM and never on a switch port: the five sources besides the network controller.
    const fiveSources = 'ConnectionCount = 5 AND Adapters = microsoft-intune';
    const expected = await searchThroughApi('/devices/devices', fiveSources, ['AdapterCount']);
    expect(expected.count).toBeGreaterThan(0);
    // Each demo export names its exporter (Active Directory, CrowdStrike, Intune, Qualys, ServiceNow).
    expect(expected.results[0].AdapterCount).toEqual([5]);
    await open('/device-inventory');
    await page.getByLabel('Query', { exact: true }).fill(fiveSources);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await waitForCount('devices', expected.count);
    // The Adapters column names each connection: the first one's badge and "+4", whose tooltip names the other four
    // (five names, not one "csvfile" five times).
    const firstRow = page.locator('.inventory-page tbody tr[aria-rowindex]').first();
    const sources = firstRow.locator('.inventory-adapters');
    await expect.poll(() => sources.locator('.inventory-more').innerText(), patiently).toBe('+4');
    const named = [await sources.locator('.inventory-source__name').innerText(), ...(await sources.locator('.inventory-values__others li').allTextContents())];
    const deviceExports = ['CMDB configuration items (CSV export)', 'Directory computers (CSV export)', 'EDR hosts (CSV export)', 'MDM devices (CSV export)', 'Vulnerability scanner assets (CSV export)'];
    expect(named.map((text) => text.trim()).sort()).toEqual(deviceExports);
    await firstRow.click();
    await page.locator('aside.asset-preview').getByRole('link', { name: 'Open details' }).click();
    await page.waitForURL(/#\/device-inventory\/detail\/[^/]+\/\d+$/);
    await page.getByRole('tab', { name: 'Data sources (5)' }).waitFor();
    const sourceTabs = page.getByRole('tablist').getByRole('tab').filter({ hasText: / \(CSV export\)$/ });
    expect((await sourceTabs.allInnerTexts()).map((text) => text.trim()).sort()).toEqual(deviceExports);
  });

  it('shows merged users in the user inventory: fewer users than user records, and users with several sources', async () => {
    const discoveries = await api<{ results: DiscoveryAnswer[] }>(server.baseUrl, '/discoveries/discoveries?page=1&size=1', { token: adminToken });
    const userRecords = (discoveries.body.results[0]?.progress.connections ?? []).reduce((sum, connection) => sum + (connection.by_entity.user ?? 0), 0);
    await open('/user-inventory');
    const users = await listedCount('users');
    expect(users.count).toBeGreaterThan(0);
    expect(users.count).toBeLessThan(userRecords);

    // The demo's MDM export names people by UPN only and the directory by username: a user with both was merged.
    const mergedQuery = 'UserPrincipalName = * AND Username = *';
    const expected = await searchThroughApi('/userinventory/users', mergedQuery, ['Username']);
    expect(expected.count).toBeGreaterThan(0);
    await page.getByLabel('Query', { exact: true }).fill(mergedQuery);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await waitForCount('users', expected.count);
    await page.locator('.inventory-page tbody tr[aria-rowindex]').first().click();
    const records = page.locator('aside.asset-preview').getByText(/source record\(s\)\.$/);
    await records.waitFor();
    const sourceCount = Number(/^(\d+)/.exec(await records.innerText())?.[1]);
    expect(sourceCount).toBeGreaterThanOrEqual(2);
    await page.locator('aside.asset-preview').getByRole('link', { name: 'Open details' }).click();
    await page.waitForURL(/#\/user-inventory\/detail\/[^/]+\/\d+$/);
    await page.getByRole('tab', { name: `Data sources (${sourceCount})` }).waitFor();
    expect(await page.getByRole('tablist').getByRole('tab').filter({ hasText: / \(CSV export\)$/ }).count()).toBe(sourceCount);
  });

  it('lists the critical vulnerabilities in the console, opens the known-exploited one and marks an exposed device\'s finding a false positive with a reason', async () => {
    type Vulnerability = { CveId: string[]; ExploitKnown?: boolean[]; AffectedDeviceCount: number[]; PrimaryKey: string[] };
    type Finding = { id: string; hostname: string; status: string; status_reason?: string };
    const critical = 'Severity = Critical';
    const criticals = await api<{ count: number; results: Vulnerability[] }>(server.baseUrl, '/avm/vulnerabilities', {
      method: 'POST', token: adminToken, body: { query: critical, fields: ['CveId', 'ExploitKnown', 'AffectedDeviceCount'], size: 100, ordering: [{ field: 'AffectedDeviceCount', order: 'desc' }] },
    });
    const exploited = criticals.body.results.find((row) => row.ExploitKnown?.[0] === true && row.CveId?.length);
    if (!exploited) throw new Error(`no known-exploited critical CVE among ${criticals.body.count}`);
    const cve = exploited.CveId[0];
    const exposedDevices = () => searchThroughApi('/devices/devices', `Vulnerability.CveId = ${cve} AND Vulnerability.Status = open`, ['Hostname']).then((answer) => answer.count);
    const findingsPath = `/avm/findings?vulnerability=${encodeURIComponent(exploited.PrimaryKey[0])}&size=500`;
    const findings = await api<{ count: number; results: Finding[] }>(server.baseUrl, findingsPath, { token: adminToken });
    expect(findings.body.count).toBe(exploited.AffectedDeviceCount[0]);
    // A finding every source reports fixed is not an exposure.
    const exposed = findings.body.results.filter((finding) => finding.status === 'open').length;
    expect(exposed).toBeGreaterThan(0);
    expect(await exposedDevices()).toBe(exposed);

    await open('/vulnerability-inventory');
    await page.getByLabel('Query', { exact: true }).fill(critical);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await waitForCount('vulnerabilities', criticals.body.count);
    await page.getByLabel('Query', { exact: true }).fill(`${critical} AND CveId = ${cve}`);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await waitForCount('vulnerabilities', 1);
    await page.locator('.inventory-page tbody tr[aria-rowindex]').first().click();
    await page.locator('aside.asset-preview').getByRole('link', { name: 'Open details' }).click();
    await page.waitForURL(/#\/vulnerability-inventory\/detail\/[^/]+\/\d+$/);
    await page.getByRole('tab', { name: 'Affected devices' }).click();

    const affected = page.getByRole('table', { name: 'Affected devices' });
    await page.getByRole('tabpanel').getByLabel('Status', { exact: true }).selectOption('open');
    const row = affected.locator('tbody tr', { hasText: 'Open' }).first();
    await row.waitFor();
    const hostname = (await row.locator('td').first().innerText()).trim();
    await row.getByRole('button', { name: 'Change status' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change status' });
    await dialog.getByLabel('Status', { exact: true }).selectOption('false_positive');
    const reason = `${hostname} runs a build with the vendor's backported fix.`;
    await dialog.getByLabel(/^Reason/).fill(reason);
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('region', { name: 'Notifications' }).getByRole('status').filter({ hasText: `${cve} on ${hostname} is now false positive.` }).waitFor();
    await dialog.waitFor({ state: 'detached' });

    const falsePositives = await api<{ results: Finding[] }>(server.baseUrl, `${findingsPath}&status=false_positive`, { token: adminToken });
    expect(falsePositives.body.results).toEqual([expect.objectContaining({ hostname, status: 'false_positive', status_reason: reason })]);
    expect(await exposedDevices()).toBe(exposed - 1);
    await page.getByRole('tabpanel').getByLabel('Status', { exact: true }).selectOption('false_positive');
    await expect.poll(() => affected.locator('tbody tr', { hasText: hostname }).count(), patiently).toBe(1);
  });

  it('exports the critical vulnerabilities as CSV, one line per vulnerability listed', async () => {
    await open('/vulnerability-inventory?query=Severity+%3D+Critical');
    const { count } = await listedCount('vulnerabilities');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const rows = parse(readFileSync(await download.path()).toString('utf8').replace(/^\uFEFF/, ''), { relaxColumnCount: false }) as string[][];
    expect(rows.length - 1).toBe(count);
    expect(rows[0]).toEqual(await columnHeaders());
  });

  it('logged no console errors and no uncaught exceptions during the journey', () => {
    expect(watched.errors).toEqual([]);
  });
});
