import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, consolePath, defaultAdminPassword, launchBrowser, signInThroughApi, signInThroughForm, startServer, watchConsole, type Browser, type RunningServer, waitForLastDiscovery } from './harness';

// Dashboards on the demo data set (CARTOGRAPH_DEMO=1): the default dashboard on `/`, then a dashboard built through
// the console with widgets and a chart, drawn by Vega-Lite as SVG, rearranged, reloaded, and followed from a bar
// and a slice to the device inventory. Expected figures come from the API, never from this file.

let server: RunningServer;
let browser: Browser;
let adminToken: string;
let page: Page;
let watched: ReturnType<typeof watchConsole>;

// The demo's first discovery (about 8,500 records) runs at boot on a shared machine: generous bounded waits,
// and nothing below asserts a duration.
const discoveryWait = 170_000;
const patiently = { timeout: 60_000 };
const dashboardName = 'Operations (e2e)';

type Row = { label?: unknown; value?: unknown; query?: unknown };
type TileData = { item: string; id: number; type: 'chart' | 'widget'; name: string; data?: { display: string; inventory: string; rows: Row[] }; error?: unknown };
type DashboardAnswer = { id: number; name: string; is_default: boolean; layout: { item: string; x: number; y: number; w: number; h: number }[] };

const dashboards = async () => (await api<{ results: DashboardAnswer[] }>(server.baseUrl, '/dashboards/dashboards?size=500', { token: adminToken })).body.results;
const tilesOf = async (id: number) => (await api<{ tiles: TileData[] }>(server.baseUrl, `/dashboards/dashboards/${id}/data`, { token: adminToken })).body.tiles;
const tile = (name: string): Locator => page.locator(`section.dashboard-tile[aria-label="${name}"]`);

/** The tile names in the order the grid shows them, and each tile's grid placement (column and row styles). */
const shownLayout = (): Promise<{ name: string; column: string; row: string }[]> =>
  page.locator('section.dashboard-tile').evaluateAll((tiles) =>
    tiles.map((element) => ({ name: element.getAttribute('aria-label') ?? '', column: (element as HTMLElement).style.gridColumn, row: (element as HTMLElement).style.gridRow })));

/** Waits for the dashboard page to show `name` with every one of its tiles' bodies drawn. */
async function waitForDashboard(name: string, tileCount: number): Promise<void> {
  await page.getByRole('heading', { name, level: 1 }).waitFor();
  await expect.poll(() => page.locator('section.dashboard-tile').count(), patiently).toBe(tileCount);
  await page.getByText('Computing the widgets').waitFor({ state: 'detached' });
}

/** A point inside an SVG mark (a donut slice's bounding-box centre may lie outside it): the first one the mark gets hit at. */
async function pointInside(mark: Locator): Promise<{ x: number; y: number }> {
  await mark.scrollIntoViewIfNeeded();
  const point = await mark.evaluate((element) => {
    const box = element.getBoundingClientRect();
    for (let fy = 0.5; fy < 1; fy += 0.05) {
      for (const sign of [1, -1]) {
        for (let fx = 0.05; fx < 1; fx += 0.05) {
          const [x, y] = [box.left + box.width * fx, box.top + box.height * (0.5 + sign * (fy - 0.5))];
          if (document.elementFromPoint(x, y) === element) return { x, y };
        }
      }
    }
    return null;
  });
  if (!point) throw new Error('no visible point inside the mark');
  return point;
}

/** Adds a widget through the form: name, kind and any other labelled fields, then Save back to the dashboard. */
async function addWidget(name: string, kind: string, fields: Record<string, string> = {}): Promise<void> {
  await page.getByRole('link', { name: 'Add widget' }).click();
  await page.waitForURL(/#\/dashboard\/add-widget\/\d+$/);
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await page.getByRole('combobox', { name: 'Kind', exact: true }).selectOption({ label: kind });
  for (const [label, value] of Object.entries(fields)) await page.getByRole('textbox', { name: label, exact: true }).fill(value);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.waitForURL(/#\/dashboard$/);
  await tile(name).waitFor();
}

beforeAll(async () => {
  server = await startServer({ env: { CARTOGRAPH_DEMO: '1' } });
  browser = await launchBrowser();
  adminToken = await signInThroughApi(server.baseUrl, 'admin', defaultAdminPassword);
  // The widgets read the latest snapshot: the tests start once the demo's first discovery has published one.
  await waitForLastDiscovery(server.baseUrl, adminToken, discoveryWait);
  page = await browser.context.newPage();
  page.setDefaultTimeout(60_000);
  watched = watchConsole(page);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('dashboards in a real browser on the demo data', () => {
  it('lands on the default dashboard after signing in on `/`, its charts drawn as SVG', async () => {
    await page.goto(`${server.baseUrl}/#/login`);
    await signInThroughForm(page, 'admin', defaultAdminPassword);
    await page.waitForURL((url) => url.hash === '#/dashboard');
    const overview = (await dashboards()).find((dashboard) => dashboard.is_default);
    expect(overview?.name).toBe('Overview');
    const tiles = await tilesOf(overview!.id);
    await waitForDashboard('Overview', tiles.length);
    expect((await shownLayout()).map((shown) => shown.name).sort()).toEqual(tiles.map((entry) => entry.name).sort());
    // Every tile the server could chart (bar, pie or line with rows) is an SVG drawn by Vega.
    const charted = tiles.filter((entry) => entry.data && ['bar', 'pie', 'line'].includes(entry.data.display) && entry.data.rows.length);
    expect(charted.length).toBeGreaterThan(0);
    for (const entry of charted) await tile(entry.name).locator('.dashboard-vega svg g.role-mark').first().waitFor({ state: 'attached' });
    // Back does not return to `/`: home replaced itself with the dashboard.
    await page.goto(`${server.baseUrl}/#/discoveries`);
    await page.goto(`${server.baseUrl}/#/`);
    await page.waitForURL((url) => url.hash === '#/dashboard');
    await page.goBack();
    await page.waitForURL((url) => url.hash === '#/discoveries');
  });

  it('builds a dashboard through the console with widgets of several kinds and a chart', async () => {
    await page.goto(`${server.baseUrl}/#/dashboard`);
    await page.getByRole('link', { name: 'Manage dashboards' }).click();
    await page.getByRole('link', { name: 'Add dashboard' }).click();
    await page.waitForURL(/#\/dashboard\/add-dashboard$/);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(dashboardName);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/#\/dashboard$/);
    await page.getByRole('heading', { name: dashboardName, level: 1 }).waitFor();
    await page.getByText('This dashboard is empty').waitFor();

    await addWidget('Totals', 'Totals (devices and users)');
    await addWidget('Devices by OS', 'Group by', { 'Group by field': 'OS.Type' });
    await addWidget('Connections', 'Connection statuses');
    await addWidget('Adapters', 'Device discovery');

    await page.getByRole('link', { name: 'Add chart' }).click();
    await page.waitForURL(/#\/dashboard\/add-chart\/\d+$/);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Servers');
    await page.getByRole('combobox', { name: 'Kind', exact: true }).selectOption({ label: 'Number (records the query matches)' });
    await page.getByRole('textbox', { name: 'Query', exact: true }).fill('Hostname = srv*');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/#\/dashboard$/);
    await waitForDashboard(dashboardName, 5);
  });

  it('shows each tile as the server computed it: numbers as text, slices and bars as Vega SVG marks', async () => {
    const built = (await dashboards()).find((dashboard) => dashboard.name === dashboardName)!;
    const tiles = new Map((await tilesOf(built.id)).map((entry) => [entry.name, entry]));
    expect([...tiles.keys()].sort()).toEqual(['Adapters', 'Connections', 'Devices by OS', 'Servers', 'Totals']);
    for (const entry of tiles.values()) expect(entry.error).toBeUndefined();

    const totals = tiles.get('Totals')!.data!.rows.map((row) => Number(row.value).toLocaleString('en-US'));
    expect(await tile('Totals').locator('.dashboard-number-value').allInnerTexts()).toEqual(totals);
    expect(await tile('Servers').locator('.dashboard-number-value').innerText()).toBe(Number(tiles.get('Servers')!.data!.rows[0]!.value).toLocaleString('en-US'));

    // One SVG path per slice or bar the server answered.
    await expect.poll(() => tile('Devices by OS').locator('.dashboard-vega svg g.mark-arc path').count(), patiently).toBe(tiles.get('Devices by OS')!.data!.rows.length);
    await expect.poll(() => tile('Connections').locator('.dashboard-vega svg g.mark-arc path').count(), patiently).toBe(tiles.get('Connections')!.data!.rows.length);
    await expect.poll(() => tile('Adapters').locator('.dashboard-vega svg g.mark-rect path').count(), patiently).toBe(tiles.get('Adapters')!.data!.rows.length);
  });

  it('resizes a tile and swaps two by dragging, and a reload shows the same tiles in the same places', async () => {
    const built = (await dashboards()).find((dashboard) => dashboard.name === dashboardName)!;
    await page.getByRole('button', { name: 'Arrange' }).click();
    const before = (await shownLayout()).find((shown) => shown.name === 'Totals')!;
    const widthOf = (column: string) => Number(/span (\d+)/.exec(column)?.[1]);

    const saved = () => page.waitForResponse((response) => ['PATCH', 'PUT'].includes(response.request().method()) && new URL(response.url()).pathname === `/dashboards/dashboards/${built.id}`);
    const [resized] = await Promise.all([saved(), page.getByRole('group', { name: 'Size of Totals' }).getByRole('button', { name: 'Wider' }).click()]);
    expect(resized.status()).toBe(200);
    await expect.poll(async () => widthOf((await shownLayout()).find((shown) => shown.name === 'Totals')!.column), patiently).toBe(widthOf(before.column) + 1);

    const order = (await shownLayout()).map((shown) => shown.name);
    const [first, second] = [order[0]!, order[1]!];
    const [swapped] = await Promise.all([saved(), tile(first).dragTo(tile(second))]);
    expect(swapped.status()).toBe(200);
    await expect.poll(async () => (await shownLayout()).map((shown) => shown.name).slice(0, 2), patiently).toEqual([second, first]);
    await page.getByRole('button', { name: 'Done arranging' }).click();
    // The server kept the wider tile.
    const totalsItem = (await tilesOf(built.id)).find((entry) => entry.name === 'Totals')!.item;
    const stored = (await dashboards()).find((dashboard) => dashboard.id === built.id)!.layout.find((place) => place.item === totalsItem);
    expect(stored?.w).toBe(widthOf(before.column) + 1);
    const arranged = await shownLayout();

    await page.reload();
    await waitForDashboard(dashboardName, 5);
    expect(await shownLayout()).toEqual(arranged);
    await tile('Devices by OS').locator('.dashboard-vega svg g.mark-arc path').first().waitFor();
  });

  it('opens the device inventory with the query of a clicked bar, listing as many devices as the bar counts', async () => {
    const built = (await dashboards()).find((dashboard) => dashboard.name === dashboardName)!;
    const rows = (await tilesOf(built.id)).find((entry) => entry.name === 'Adapters')!.data!.rows;
    const bar = tile('Adapters').locator('.dashboard-vega svg g.mark-rect path').first();
    await bar.waitFor();
    const point = await pointInside(bar);
    await page.mouse.click(point.x, point.y);
    await page.waitForURL(/#\/device-inventory\?/);
    await expectInventoryOf(rows);
  });

  it('opens the device inventory with the query of a clicked slice, listing as many devices as the slice counts', async () => {
    await page.goBack();
    await page.waitForURL(/#\/dashboard$/);
    await waitForDashboard(dashboardName, 5);
    const built = (await dashboards()).find((dashboard) => dashboard.name === dashboardName)!;
    const rows = (await tilesOf(built.id)).find((entry) => entry.name === 'Devices by OS')!.data!.rows;
    const slice = tile('Devices by OS').locator('.dashboard-vega svg g.mark-arc path').first();
    await slice.waitFor();
    const point = await pointInside(slice);
    await page.mouse.click(point.x, point.y);
    await page.waitForURL(/#\/device-inventory\?/);
    await expectInventoryOf(rows);
  });

  it('logged no console error and no uncaught exception on the way', () => {
    expect(watched.errors).toEqual([]);
  });
});

/** The inventory opened from a segment: its query is one of the widget's segments, and it lists that segment's count. */
async function expectInventoryOf(rows: Row[]): Promise<void> {
  // The router writes spaces as `+`: the search part is read undecoded, as URLSearchParams expects it.
  const query = new URLSearchParams(new URL(page.url()).hash.split('?')[1] ?? '').get('query');
  expect(consolePath(page).startsWith('/device-inventory?')).toBe(true);
  const segment = rows.find((row) => row.query === query);
  expect(segment, `segment of query ${query}`).toBeDefined();
  const meta = page.locator('.ui-page-header__meta', { hasText: ' devices · snapshot #' });
  await meta.waitFor();
  const count = async () => Number(/^([\d,]+) devices/.exec((await meta.innerText()).trim())?.[1]?.replace(/,/g, ''));
  await expect.poll(count, patiently).toBe(Number(segment!.value));
}
