import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import routeData from '../../schemas/routes.json';
import { issueCertificate } from '../support/testCertificates';
import { displayVocabulary, labelProblems } from './crawl/labelChecks';
import { layoutProblems } from './crawl/layoutChecks';
import { api, defaultAdminPassword, launchBrowser, signInThroughApi, signInThroughForm, startServer, waitForLastDiscovery, type Browser, type RunningServer } from './harness';

// Every route of schemas/routes.json that has a page, opened by a full page load as the administrator on the demo
// data (a discovery done): no console error, no uncaught exception, and no API answer of 400 or more unless the page
// asks for it on purpose (listed below with the reason). Routes whose page is not built yet are skipped by the same
// rule the console applies (src/web/app/pageModules.ts): a `generic:*` page needs a schema, any other page a module
// under src/web/pages. As pages are built, they join this test without a change to it.

type RouteEntry = { path: string; page: string; schema?: string; public?: boolean };

const pagesFolder = fileURLToPath(new URL('../../src/web/pages/', import.meta.url));

function hasPage(route: RouteEntry): boolean {
  if (route.page.startsWith('generic:')) return Boolean(route.schema);
  const exportName = route.page.split('/').at(-1) ?? route.page;
  return existsSync(`${pagesFolder}${route.page}.tsx`) || existsSync(`${pagesFolder}${route.page}/${exportName}.tsx`);
}

/** Answers of 400 or more a page provokes on purpose, by route: a regular expression over "STATUS METHOD /path". */
const deliberateFailures: Record<string, { answer: RegExp; reason: string }[]> = {};

/** An id no asset has, for the detail and preview of an inventory the demo has nothing in. */
const absentAsset = '00000000000000000000';

const routes = (routeData.routes as RouteEntry[]).filter(hasPage);
const vocabulary = displayVocabulary();

let server: RunningServer;
let browser: Browser;
let page: Page;
let token: string;
const parameters: Record<string, string> = {};

/** The route's path with its `{param}`s filled from the demo's objects (and the asset a preview link names). */
function concretePath(route: RouteEntry): string {
  const preview = {
    '/device-inventory/preview': 'deviceId', '/user-inventory/preview': 'userId', '/software-inventory/preview': 'softwareId', '/vulnerability-inventory/preview': 'vulnerabilityId',
    '/service-inventory/preview': 'primaryKey', '/license-inventory/preview': 'licenseId',
    '/certificate-inventory/preview': 'name',
  }[route.path];
  const search = preview ? `?id=${encodeURIComponent(parameters[preview]!)}&discoveryId=${parameters.discoveryId}` : '';
  return route.path.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    // `{id}` names a different object on each route: the form of an adapter takes its slug, an edit its object's id.
    const key = name === 'id' ? `${route.path}#id` : name;
    const value = parameters[key] ?? parameters[name];
    if (value === undefined) throw new Error(`no demo value for {${name}} of ${route.path}`);
    return encodeURIComponent(value);
  }) + search;
}

async function createdId(path: string, body: unknown): Promise<string> {
  const answer = await api<{ id: number }>(server.baseUrl, path, { method: 'POST', token, body });
  if (answer.status !== 201) throw new Error(`POST ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return String(answer.body.id);
}

/** Ids of the demo's objects (and of a few the test creates where the demo has none: a saved query, a tag, tiles). */
async function collectParameters(): Promise<void> {
  const connections = await api<{ results: { id: number; adapter: string }[] }>(server.baseUrl, '/adapters/connections?size=1', { token });
  const [connection] = connections.body.results;
  const device = await api<{ results: { PrimaryKey: string[] }[]; index_id: number }>(server.baseUrl, '/devices/devices', { method: 'POST', token, body: { query: '', fields: ['Hostname'], page: 1, size: 1, ordering: [] } });
  const person = await api<{ results: { PrimaryKey: string[] }[] }>(server.baseUrl, '/userinventory/users', { method: 'POST', token, body: { query: '', fields: ['Username'], page: 1, size: 1, ordering: [] } });
  // The demo may hold no software or vulnerability: their detail and preview then ask for an absent one, on purpose.
  const firstOf = async (path: string, field: string, pages: string[]) => {
    const answer = await api<{ results: { PrimaryKey: string[] }[] }>(server.baseUrl, path, { method: 'POST', token, body: { query: '', fields: [field], page: 1, size: 1, ordering: [] } });
    const id = answer.body.results[0]?.PrimaryKey[0];
    if (id) return id;
    for (const page of pages) deliberateFailures[page] = [{ answer: new RegExp(`^404 POST ${path}/${absentAsset}$`), reason: 'the demo has none of these assets' }];
    return absentAsset;
  };
  const softwareId = await firstOf('/appinventory/applications', 'Name', ['/software-inventory/preview', '/software-inventory/detail/{softwareId}/{discoveryId}']);
  const vulnerabilityId = await firstOf('/avm/vulnerabilities', 'CveId', ['/vulnerability-inventory/preview', '/vulnerability-inventory/detail/{vulnerabilityId}/{discoveryId}']);
  const serviceId = await firstOf('/services/services', 'Name', ['/service-inventory/preview', '/service-inventory/detail/{primaryKey}/{discoveryId}']);
  const licenseId = await firstOf('/licenses/licenses', 'Name', ['/license-inventory/preview', '/license-inventory/detail/{licenseId}/{discoveryId}']);
  const certificateId = await firstOf('/certificates/certificates', 'Name', ['/certificate-inventory/preview', '/certificate-inventory/detail/{name}/{discoveryId}']);
  const customCertificate = issueCertificate({ commonName: 'every-route.corp.example' }, null).cert;
  const dashboards = await api<{ results: { id: number }[] }>(server.baseUrl, '/dashboards/dashboards?size=500', { token });
  const dashboardId = String(dashboards.body.results[0]!.id);
  const reportId = await createdId('/reports/reports', { name: 'Every route (e2e)', sections: [{ type: 'table', inventory: 'device', columns: ['Hostname'] }] });
  Object.assign(parameters, {
    discoveryId: String(device.body.index_id),
    deviceId: device.body.results[0]!.PrimaryKey[0],
    userId: person.body.results[0]!.PrimaryKey[0],
    tool: connection!.adapter,
    dashboardId,
    queryId: await createdId('/queries/queries', { name: 'Every route (e2e)', text: 'Hostname = srv*', type: 'device' }),
    softwareId,
    vulnerabilityId,
    primaryKey: serviceId,
    licenseId,
    name: certificateId,
    '/certificate-inventory/custom-certificate/{id}/edit#id': await createdId('/certificates/custom-certificates', { name: 'Every route (e2e)', certificate: customCertificate }),
    groupId: await createdId('/appinventory/groups', { name: 'Browsers (e2e)', description: 'Made by the every-route test', query: 'Name = *chrome*' }),
    tagId: await createdId('/devices/tags', { name: 'every-route-e2e', description: 'Made by the every-route test', color: '#c0392b' }),
    '/adapters/connection/create/{id}#id': connection!.adapter,
    '/adapters/connection/edit/{id}#id': String(connection!.id),
    '/adapters/connections/{id}#id': String(connection!.id),
    '/dashboard/edit-chart/{dashboardId}/{id}#id': await createdId('/dashboards/charts', { name: 'EDR coverage (e2e)', dashboard: Number(dashboardId), kind: 'score', inventory: 'device', query: 'Groups = edr' }),
    '/dashboard/edit-widget/{dashboardId}/{id}#id': await createdId('/dashboards/widgets', { name: 'Devices by OS (e2e)', dashboard: Number(dashboardId), kind: 'group_by', field: 'OS.Type' }),
    '/action-center/edit/{id}#id': await createdId('/actions/actions', { name: 'Linux → webhook (e2e)', trigger: 'manual', scope: { entity: 'device', query: 'OS.Type = Linux' }, type: 'webhook', parameters: { url: 'https://hooks.example.com/intake', body_template: '{"host": "{{Hostname}}"}', batch_size: 1 } }),
    '/action-center/ssh/edit/{id}#id': await createdId('/actions/ssh-credentials', { name: 'Ops (e2e)', username: 'ops', auth_method: 'password', password: 'every route', known_host_fingerprints: ['SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU'] }),
    // The administrator, the provider company and its Administrators group.
    '/security-manager/asset-profile/edit/{id}#id': await createdId('/securitymanager/asset-profiles', { name: 'Servers (e2e)', description: '', owner: 'Ops', criticality: 5, query: 'Hostname = srv-*' }),
    '/security-manager/security-policy/edit/{id}#id': await createdId('/securitymanager/security-policies', { name: 'EDR reports (e2e)', description: '', enabled: false, query: 'Adapters = crowdstrike', severity: 'high', weight: null, profile_ids: [], remediation: '', cis_safeguard: '', cis_title: '' }),
    '/settings/ldap-configuration/{id}/edit#id': await createdId('/configurations/ldap-configurations', {
      name: 'Directory (e2e)', enabled: false, url: 'ldap://127.0.0.1:1389', starttls: false, ca_certificate: '', verify_certificate: true, bind_dn: 'cn=admin,dc=example', bind_password: 'every route',
      user_search_base: 'dc=example', user_filter: '(uid={username})', username_attribute: 'uid', email_attribute: 'mail', first_name_attribute: 'givenName', last_name_attribute: 'sn',
      member_of_attribute: 'memberOf', group_search_base: '', group_filter: '(member={dn})', group_mappings: [],
    }),
    // The newest activity: creating the directory above.
    activityId: String((await api<{ results: { id: number }[] }>(server.baseUrl, '/activities/activities?size=1', { token })).body.results[0]!.id),
    scheduleId: await createdId('/reports/schedules', { name: 'Every route (e2e)', report: Number(reportId), formats: ['pdf'], recipients: ['ops@example.com'] }),
    '/settings/custom-adapter/{id}/edit#id': await createdId('/customs/adapters', { name: 'Every route (e2e)', entity: 'device', fields: [{ column: 'Host', type: 'string', field: 'Hostname', identifier: true }] }),
    '/settings/connector/{id}/edit#id': await createdId('/connectors/connectors', { name: 'Every route (e2e)', description: '' }),
    '/settings/user/{id}/edit#id': '1',
    '/settings/company/{id}/edit#id': '1',
    '/settings/group/{id}/edit#id': '1',
  });
}

beforeAll(async () => {
  server = await startServer({ env: { CARTOGRAPH_DEMO: '1' } });
  token = await signInThroughApi(server.baseUrl, 'admin', defaultAdminPassword);
  // The demo's sources are loaded at boot and its first discovery runs then: every inventory page has a snapshot.
  await waitForLastDiscovery(server.baseUrl, token, 170_000);
  await collectParameters();
  browser = await launchBrowser();
  page = await browser.context.newPage();
  page.setDefaultTimeout(60_000);
  await page.goto(`${server.baseUrl}/#/login`);
  await signInThroughForm(page, 'admin', defaultAdminPassword);
  await page.locator('.top-bar__user', { hasText: 'Cartograph Administrator' }).waitFor();
  // Pages of the same browser context share the signed-in session.
  for (let count = 1; count < visitingPages; count += 1) {
    const another = await browser.context.newPage();
    another.setDefaultTimeout(60_000);
    idlePages.push(another);
  }
  idlePages.push(page);
}, 300_000);

// Most of a visit is waiting for the network to be idle (half a second with no request): a few pages visit at once.
const visitingPages = 3;
const idlePages: Page[] = [];
const waitingForPage: ((free: Page) => void)[] = [];

/** Runs `work` on a page of the pool, waiting for one to be free. */
async function onFreePage<T>(work: (free: Page) => Promise<T>): Promise<T> {
  const free = idlePages.pop() ?? (await new Promise<Page>((resolve) => waitingForPage.push(resolve)));
  try {
    return await work(free);
  } finally {
    const next = waitingForPage.shift();
    if (next) next(free);
    else idlePages.push(free);
  }
}

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Loads a console path from scratch (start-up calls included) and answers what went wrong while it settled. */
async function visit(path: string, target: Page = page): Promise<{ errors: string[]; failedAnswers: string[]; failureScreen: boolean }> {
  const errors: string[] = [];
  const failedAnswers: string[] = [];
  const onConsole = (message: { type: () => string; text: () => string }) => {
    // Chromium logs every answer >= 400 as "Failed to load resource"; those are judged below, by their answer.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(message.text());
  };
  const onPageError = (error: Error) => errors.push(`pageerror: ${error.message}`);
  const onResponse = (response: Response) => {
    if (response.status() >= 400) failedAnswers.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
  };
  target.on('console', onConsole);
  target.on('pageerror', onPageError);
  target.on('response', onResponse);
  try {
    await target.goto('about:blank');
    await target.goto(`${server.baseUrl}/#${path}`);
    await target.waitForLoadState('networkidle');
    // A lazy page and its queries start after the guards: wait until something is drawn and no spinner is left.
    await target.waitForFunction(() => Boolean(document.querySelector('#app')?.textContent?.trim()) && !document.querySelector('.ui-spinner'));
    await target.waitForLoadState('networkidle');
    const failureScreen = await target.locator('h1', { hasText: /^(Page Not Found|Something went wrong)$/ }).count();
    return { errors, failedAnswers, failureScreen: failureScreen > 0 };
  } finally {
    target.off('console', onConsole);
    target.off('pageerror', onPageError);
    target.off('response', onResponse);
  }
}

describe('every console route with a page, on the demo', () => {
  it('has pages to visit and skips only routes without one', () => {
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.map((route) => route.path)).toEqual(expect.arrayContaining(['/adapters', '/device-inventory', '/settings/user']));
    // The settings overview and the settings pages built from their documents are visited like every other page.
    expect(routes.map((route) => route.path)).toEqual(expect.arrayContaining([
      '/settings', '/settings/license', '/settings/advanced-configuration', '/settings/discovery-schedule', '/settings/discovery-settings', '/settings/system-information',
    ]));
  });

  it.concurrent.each(routes.map((route) => [route.path, route] as const))('%s loads without a console error or a failing call', async (_path, route) => {
    const outcome = await onFreePage(async (free) => ({ ...(await visit(concretePath(route), free)), labels: await labelProblems(free, vocabulary), layout: await layoutProblems(free) }));
    const deliberate = deliberateFailures[route.path] ?? [];
    const unexpected = outcome.failedAnswers.filter((answer) => !deliberate.some((failure) => failure.answer.test(answer)));
    expect({ errors: outcome.errors, failedAnswers: unexpected }).toEqual({ errors: [], failedAnswers: [] });
    // What the page shows is for people: no raw key or enum value, internal id, foreign date or float noise (crawl/labelChecks.ts).
    expect(outcome.labels).toEqual([]);
    expect(outcome.layout).toEqual([]);
    // A built page is never the Not Found or error screen.
    expect(outcome.failureScreen).toBe(false);
  }, 90_000);

  it('opens the device detail\'s installed software, vulnerability and services panels without a console error or a failing call', async () => {
    const route = routes.find((candidate) => candidate.path === '/device-inventory/detail/{deviceId}/{discoveryId}')!;
    expect(await visit(concretePath(route))).toEqual({ errors: [], failedAnswers: [], failureScreen: false });
    const failedAnswers: string[] = [];
    const onResponse = (response: Response) => {
      if (response.status() >= 400) failedAnswers.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
    };
    page.on('response', onResponse);
    try {
      // Each panel reads its rows by device when it opens: a table with rows or its empty state, never a spinner.
      for (const [tab, table] of [['Installed software', 'Installed software'], ['Vulnerabilities', 'Vulnerabilities of this device'], ['Services and open ports', 'Services and open ports']] as const) {
        const answered = page.waitForResponse((response) => /\/(appinventory\/installations|avm\/findings|services\/instances)\?/.test(response.url()));
        await page.getByRole('tab', { name: tab, exact: true }).click();
        expect((await answered).status()).toBe(200);
        await page.getByRole('table', { name: table }).waitFor();
        await page.waitForFunction(() => !document.querySelector('.ui-spinner'));
      }
    } finally {
      page.off('response', onResponse);
    }
    expect(failedAnswers).toEqual([]);
  }, 90_000);
});

describe('the service and license inventories on the demo', () => {
  const clean = { errors: [], failedAnswers: [], failureScreen: false };
  it('shows a newcomer the over-used license and the services and open ports of a device', async () => {
    const overUsed = await api<{ results: { Name: string[]; PrimaryKey: string[] }[] }>(server.baseUrl, '/licenses/licenses', {
      method: 'POST', token, body: { query: 'OverUse > 0', fields: ['Name', 'OverUse'], page: 1, size: 10, ordering: [] },
    });
    expect(overUsed.body.results.map((row) => row.Name[0])).toEqual(['Microsoft 365 E3']);
    expect(await visit(`/license-inventory?query=${encodeURIComponent('OverUse > 0')}`)).toEqual(clean);
    await page.locator('.inventory-page tbody tr[aria-rowindex]', { hasText: 'Microsoft 365 E3' }).waitFor();
    expect(await visit(`/license-inventory/detail/${overUsed.body.results[0]!.PrimaryKey[0]}/${parameters.discoveryId}`)).toEqual(clean);
    await page.getByText(/^Over-used by \d+$/).waitFor();

    const device = await api<{ results: { PrimaryKey: string[] }[] }>(server.baseUrl, '/devices/devices', {
      method: 'POST', token, body: { query: 'Service.Name = ssh AND Service.Port = 22', fields: ['Hostname'], page: 1, size: 1, ordering: [] },
    });
    expect(await visit(`/device-inventory/detail/${device.body.results[0]!.PrimaryKey[0]}/${parameters.discoveryId}`)).toEqual(clean);
    await page.getByRole('tab', { name: 'Services and open ports', exact: true }).click();
    const table = page.getByRole('table', { name: 'Services and open ports' });
    await table.locator('tbody tr', { hasText: '22/tcp' }).first().waitFor();
    expect(await table.locator('tbody tr', { hasText: 'ssh' }).count()).toBeGreaterThan(0);
  }, 120_000);
});

describe('a list view is a link', () => {
  it('restores the device inventory view (query, sort, page, size, columns) after a reload', async () => {
    await page.goto('about:blank');
    await page.goto(`${server.baseUrl}/#/device-inventory`);
    await page.getByLabel('Query', { exact: true }).fill('Hostname = *');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByLabel('Page size').selectOption('20');
    await page.locator('.inventory-page thead th button.ui-table__sort', { hasText: 'Hostname' }).click();
    await page.getByRole('button', { name: 'Page 2' }).click();
    await page.waitForURL(/page=2/);
    // The list keeps the previous page on screen while the next loads: wait until the second page of 20 has come.
    const range = page.locator('.inventory-page .ui-pagination__range');
    await expect.poll(() => range.innerText(), { timeout: 60_000 }).toMatch(/^21–40 of /);
    await page.waitForLoadState('networkidle');
    // The first row of page 2 sorted by host name: the same row after the reload means the same view.
    const firstHostname = async () => (await page.locator('.inventory-page tbody tr[aria-rowindex]').first().innerText()).trim();
    const before = { url: page.url(), first: await firstHostname() };
    const search = new URLSearchParams(new URL(before.url).hash.split('?')[1]);
    expect(Object.fromEntries(search)).toMatchObject({ query: 'Hostname = *', sort: 'Hostname', page: '2', size: '20' });
    expect(search.get('columns')).toBeTruthy();
    const expected = await api<{ results: { Hostname: string[] }[] }>(server.baseUrl, '/devices/devices', {
      method: 'POST', token, body: { query: 'Hostname = *', fields: ['Hostname'], page: 2, size: 20, ordering: [{ field: 'Hostname', order: 'asc' }] },
    });
    expect(before.first).toContain(expected.body.results[0]!.Hostname[0]);

    await page.reload();
    await expect.poll(() => range.innerText(), { timeout: 60_000 }).toMatch(/^21–40 of /);
    await expect.poll(firstHostname, { timeout: 60_000 }).toBe(before.first);
    expect(page.url()).toBe(before.url);
    expect(await page.getByLabel('Query', { exact: true }).inputValue()).toBe('Hostname = *');
    expect(await page.locator('.inventory-page thead th', { hasText: 'Hostname' }).first().getAttribute('aria-sort')).toBe('ascending');
  }, 120_000);
});

