import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logout, updateSession } from '../../../src/web/app/session/session';
import { DeviceDetail } from '../../../src/web/pages/inventories/DeviceDetail';
import { CertificateInventory } from '../../../src/web/pages/inventories/CertificateInventory';
import { DeviceInventory } from '../../../src/web/pages/inventories/DeviceInventory';
import { serveApi } from '../app/helpers';
import { giveVirtualTablesHeight } from '../layout';
import { signInWith } from './pageSession';
import { renderPage } from './renderPage';

giveVirtualTablesHeight();

const fieldMap = {
  Hostname: { value_type: 'text', label: 'Hostname', adapter: 'cartograph' },
  'OS.Type': { value_type: 'text', label: 'OS Type', adapter: 'cartograph' },
  Adapters: { value_type: 'text', label: 'Adapters', adapter: 'cartograph' },
  LastSeen: { value_type: 'date', label: 'Last seen', adapter: 'cartograph' },
  Connections: { value_type: 'long', label: 'Connections', adapter: 'cartograph' },
  'Specifics.crowdstrike.agent_version': { value_type: 'text', label: 'Agent Version', adapter: 'crowdstrike' },
};
const web01 = { PrimaryKey: ['a1'], Hostname: ['web-01'], 'OS.Type': ['Linux'], Adapters: ['crowdstrike', 'okta'], Connections: [3, 4], LastSeen: ['2026-11-20T10:00:00Z'] };
const connections = [{ id: 3, name: 'CrowdStrike EMEA', adapter: 'crowdstrike' }, { id: 4, name: 'Okta workforce', adapter: 'okta' }, { id: 5, name: 'CrowdStrike Americas', adapter: 'crowdstrike' }];
const detail = {
  ...web01, index_id: 12, preferred: {}, merge_reasons: [{ reason: 'Same serial number VMW-123' }], relations: [{ kind: 'device-user', relation: 'last logged in', device_asset: 'a1', related_asset: 'u1', related_name: 'ada' }],
  sources: [
    { record_key: '3:aid-1', adapter: 'crowdstrike', connection_id: 3, connection_name: 'CrowdStrike EMEA', fields: { Hostname: ['web-01'], 'Specifics.crowdstrike.agent_version': ['7.10'], LastSeen: ['2026-11-20T10:00:00Z'] } },
    { record_key: '4:dev-9', adapter: 'okta', connection_id: 4, connection_name: 'Okta workforce', fields: { Hostname: ['WEB-01'] } },
  ],
};
// A source whose values normalization changed: its tab shows the source's value, the normalized one and the rule.
const normalizedSource = {
  record_key: '5:ws-1', adapter: 'csvfile', connection_id: 5, connection_name: 'Asset export', fields: {
    Hostname: ['web-01'], 'OS.Type': ['Windows'], Category: ['Laptop'], 'Specifics.csvfile.os': ['Windows 11'],
    Normalization: [
      { field: 'OS.Type', raw: 'Windows 11', value: 'Windows', rule: 'operating-systems#windows-client' },
      { field: 'Category', raw: 'Workstation', value: 'Laptop', rule: 'categories#laptop-model', reason: 'laptop model: DeviceModel is "Latitude 7440"' },
    ],
  },
};

beforeEach(() => {
  signInWith(['users.view_devices', 'users.view_device_detail']);
});
afterEach(() => vi.unstubAllGlobals());

const searches = (calls: ReturnType<typeof serveApi>) => calls.filter((call) => call.method === 'POST' && call.url === '/devices/devices').map((call) => call.body as { query: string; fields: string[]; ordering: unknown[] });

describe('the device inventory list', () => {
  it('links its saved queries and loads one into the list', async () => {
    signInWith(['users.view_devices', 'queries.view_query']);
    const calls = serveApi({
      'GET /configurations/discovery': { body: { field_map: fieldMap } },
      'POST /devices/devices': { body: { count: 1, results: [web01], index_id: 12 } },
      'GET /queries/queries': { body: { count: 1, results: [{ id: 4, name: 'Linux servers', text: 'OS.Type = Linux', type: 'device', tags: [], is_public: true, user_full_name: 'Ada', created_at: '2026-11-01T10:00:00Z', updated_at: '2026-11-01T10:00:00Z' }] } },
    });
    renderPage(DeviceInventory, '/device-inventory', '/device-inventory');
    await screen.findByText('web-01');
    expect(screen.getByRole('link', { name: 'Saved queries' }).getAttribute('href')).toBe('/device-inventory/saved-queries');
    fireEvent.click(screen.getByRole('button', { name: 'Load' }));
    const dialog = await screen.findByRole('dialog', { name: 'Load a saved query' });
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Load Linux servers' }));
    await waitFor(() => expect(searches(calls).at(-1)?.query).toBe('OS.Type = Linux'));
    expect(calls.find((call) => call.url.startsWith('/queries/queries'))!.url).toContain('type=device');
    expect(screen.queryByRole('dialog', { name: 'Load a saved query' })).toBeNull();
  });

  it('offers neither Load nor Saved queries without queries.view_query', async () => {
    serveApi({ 'GET /configurations/discovery': { body: { field_map: fieldMap } }, 'POST /devices/devices': { body: { count: 1, results: [web01], index_id: 12 } } });
    renderPage(DeviceInventory, '/device-inventory', '/device-inventory');
    await screen.findByText('web-01');
    expect(screen.queryByRole('link', { name: 'Saved queries' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Load' })).toBeNull();
  });

  it('searches with the chosen columns, shows each value, and keeps the query and columns under pconfig-', async () => {
    localStorage.setItem('pconfig-device-inventory', JSON.stringify({ columns: ['Hostname', 'OS.Type', 'Adapters'], size: 50 }));
    const calls = serveApi({
      'GET /configurations/discovery': { body: { field_map: fieldMap } },
      'POST /devices/devices': { body: { count: 1, results: [web01], index_id: 12 } },
    });
    renderPage(DeviceInventory, '/device-inventory', '/device-inventory');
    await screen.findByText('web-01');
    expect(screen.getByRole('columnheader', { name: /OS Type/ })).toBeTruthy();
    // The Adapters column's badges need the rows' connections.
    expect(searches(calls)[0]).toMatchObject({ query: '', fields: ['Hostname', 'OS.Type', 'Adapters', 'Connections'], ordering: [] });

    fireEvent.change(screen.getByLabelText('Query'), { target: { value: 'OS.Type = Linux' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(searches(calls).at(-1)?.query).toBe('OS.Type = Linux'));
    expect(JSON.parse(localStorage.getItem('pconfig-device-inventory') ?? '{}')).toMatchObject({ query: 'OS.Type = Linux', columns: ['Hostname', 'OS.Type', 'Adapters'] });

    fireEvent.click(screen.getByRole('columnheader', { name: /Hostname/ }).querySelector('button') ?? screen.getByRole('columnheader', { name: /Hostname/ }));
    await waitFor(() => expect(searches(calls).at(-1)?.ordering).toEqual([{ field: 'Hostname', order: 'asc' }]));

    logout();
    expect(JSON.parse(localStorage.getItem('pconfig-device-inventory') ?? '{}')).toEqual({ columns: ['Hostname', 'OS.Type', 'Adapters'], size: 50 });
  });

  it('tells sources apart: a badge per connection in the Adapters column, connection names in the Connections column, one date format', async () => {
    localStorage.setItem('pconfig-device-inventory', JSON.stringify({ columns: ['Hostname', 'Adapters', 'Connections', 'LastSeen'], size: 50 }));
    const tenants = { ...web01, PrimaryKey: ['a2'], Hostname: ['web-02'], Adapters: ['crowdstrike'], Connections: [3, 5] };
    serveApi({
      'GET /configurations/discovery': { body: { field_map: fieldMap } },
      'POST /devices/devices': { body: { count: 2, results: [web01, tenants], index_id: 12, connections } },
    });
    renderPage(DeviceInventory, '/device-inventory', '/device-inventory');
    const row = (await screen.findByText('web-02')).closest('tr') as HTMLElement;
    const adaptersCell = row.querySelector('.inventory-adapters') as HTMLElement;
    // Two tenants of one vendor are two sources: the first one's badge (the vendor's icon, its own name), and "+1"
    // naming the other, so the row stays one line however many sources it has.
    expect([...adaptersCell.querySelectorAll('.inventory-source')].map((badge) => badge.textContent)).toEqual(['CrowdStrike EMEA']);
    expect(adaptersCell.querySelector('.inventory-source img')?.getAttribute('src')).toBe('images/adapters/crowdstrike.svg');
    expect(within(adaptersCell).getByRole('button', { name: '1 more: CrowdStrike Americas' }).textContent).toBe('+1');
    expect(within(row).getByText('20 November 2026, ' + new Date('2026-11-20T10:00:00Z').toTimeString().slice(0, 5))).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: /Last seen/ })).toBeTruthy();
  });

  it('points at a syntax error as the user types and does not send the broken query', async () => {
    const calls = serveApi({ 'GET /configurations/discovery': { body: { field_map: fieldMap } }, 'POST /devices/devices': { body: { count: 0, results: [], index_id: 12 } } });
    renderPage(DeviceInventory, '/device-inventory', '/device-inventory');
    await screen.findByText(/No devices match/);
    fireEvent.change(screen.getByLabelText('Query'), { target: { value: 'Hostname = web AND' } });
    expect(await screen.findByText(/at character/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Search' }) as HTMLButtonElement).getAttribute('aria-disabled')).toBe('true');
    expect(searches(calls).every((body) => body.query === '')).toBe(true);
    // The table answers the applied (empty) query, not the broken text: it says so until the text parses.
    expect(screen.getByRole('status').textContent).toMatch(/still shows all devices \(the previous view, no query\)/);
    expect(document.querySelector('.inventory-body--stale')).not.toBeNull();
    fireEvent.change(screen.getByLabelText('Query'), { target: { value: 'Hostname = web' } });
    await waitFor(() => expect(document.querySelector('.inventory-body--stale')).toBeNull());
    expect(screen.queryByText(/still shows/)).toBeNull();
  });

  it('shows a refused query\'s reason under the bar and keeps the previous result on screen, marked as such, until a query answers', async () => {
    const refusal = { status: 400, body: { query: ['Unknown field "Colour". Did you mean Color? (at character 1)'], position: ['0'] } };
    const calls = serveApi({
      'GET /configurations/discovery': { body: { field_map: fieldMap } },
      'POST /devices/devices': [{ body: { count: 1, results: [web01], index_id: 12 } }, refusal, { body: { count: 0, results: [], index_id: 12 } }],
    });
    renderPage(DeviceInventory, '/device-inventory', '/device-inventory?query=OS.Type+%3D+Linux');
    await screen.findByText('web-01');
    fireEvent.change(screen.getByLabelText('Query'), { target: { value: 'Colour = red' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Unknown field "Colour". Did you mean Color? (at character 1)')).toBeTruthy();
    expect(screen.getByLabelText('Query').getAttribute('aria-invalid')).toBe('true');
    // Not a silent zero: the previous rows stay, dimmed, and the page names the query they answer.
    expect(screen.getByText('web-01')).toBeTruthy();
    expect(screen.queryByText(/No devices match/)).toBeNull();
    expect(screen.getByRole('status').textContent).toMatch(/still shows the result of the previous query, OS\.Type = Linux,/);
    expect(document.querySelector('.inventory-body--stale')).not.toBeNull();
    expect((screen.getByRole('button', { name: 'Export CSV' }) as HTMLButtonElement).getAttribute('aria-disabled')).toBe('true');

    fireEvent.change(screen.getByLabelText('Query'), { target: { value: 'Color = red' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText(/No devices match/);
    expect(searches(calls).map((body) => body.query)).toEqual(['OS.Type = Linux', 'Colour = red', 'Color = red']);
    expect(screen.queryByText(/still shows/)).toBeNull();
    expect(screen.queryByText(/Unknown field/)).toBeNull();
    expect(document.querySelector('.inventory-body--stale')).toBeNull();
  });

  it('says a refused query was not run when there is no previous result to keep', async () => {
    serveApi({
      'GET /configurations/discovery': { body: { field_map: fieldMap } },
      'POST /devices/devices': { status: 400, body: { query: ['Hostname takes text (at character 12)'], position: ['11'] } },
    });
    renderPage(DeviceInventory, '/device-inventory', '/device-inventory?query=Hostname+%3E+5');
    expect(await screen.findByText('The query was not run')).toBeTruthy();
    expect(screen.getByText('Hostname takes text (at character 12)')).toBeTruthy();
    expect(screen.queryByText(/No devices match/)).toBeNull();
  });

  it('exports exactly the current view: query, columns with their labels, and sort', async () => {
    localStorage.setItem('pconfig-device-inventory', JSON.stringify({ columns: ['Hostname', 'OS.Type'], size: 50, query: 'Hostname = web*' }));
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    const calls = serveApi({
      'GET /configurations/discovery': { body: { field_map: fieldMap } },
      'POST /devices/devices': { body: { count: 1, results: [web01], index_id: 12 } },
      'POST /devices/export': { body: 'Hostname,OS Type\nweb-01,Linux\n' },
    });
    renderPage(DeviceInventory, '/device-inventory', '/device-inventory');
    await screen.findByText('web-01');
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(calls.some((call) => call.url === '/devices/export')).toBe(true));
    expect(calls.find((call) => call.url === '/devices/export')?.body).toEqual({ format: 'csv', query: 'Hostname = web*', fields: ['Hostname', 'OS.Type'], labels: ['Hostname', 'OS Type'], ordering: [], index_id: 12 });
  });

  it('opens a preview of a row with a link to its details', async () => {
    serveApi({
      'GET /configurations/discovery': { body: { field_map: fieldMap } },
      'POST /devices/devices': { body: { count: 1, results: [web01], index_id: 12 } },
      'POST /devices/devices/a1': { body: detail },
    });
    renderPage(DeviceInventory, '/device-inventory', '/device-inventory');
    fireEvent.click(await screen.findByText('web-01'));
    const preview = await screen.findByRole('complementary', { name: 'Preview of web-01' });
    await within(preview).findByText('2 source record(s).');
    expect(within(preview).getByRole('link', { name: 'Open details' }).getAttribute('href')).toBe('/device-inventory/detail/a1/12');
  });
});

describe('the device detail page', () => {
  it('shows basic info, each source\'s record in its own panel, relations and why the records were merged', async () => {
    updateSession({ adapters: [{ id: 1, name: 'CrowdStrike Falcon', slug: 'crowdstrike', categories: [], status: 1 }, { id: 2, name: 'Okta', slug: 'okta', categories: [], status: 1 }] });
    serveApi({ 'GET /configurations/discovery': { body: { field_map: fieldMap } }, 'POST /devices/devices/a1': { body: detail } });
    renderPage(DeviceDetail, '/detail/$deviceId/$discoveryId', '/detail/a1/12');
    await screen.findByRole('heading', { name: 'web-01' });
    expect(screen.getByRole('tab', { name: 'Data sources (2)' })).toBeTruthy();
    // Each source's panel is named after its connection, with its adapter's icon.
    expect(screen.queryByRole('tab', { name: 'crowdstrike' })).toBeNull();
    expect(screen.getByRole('tab', { name: 'Okta workforce' }).querySelector('img')?.getAttribute('src')).toBe('images/adapters/okta.svg');
    // A date reads the same in the basic info, a source's panel and the list.
    const shown = `20 November 2026, ${new Date('2026-11-20T10:00:00Z').toTimeString().slice(0, 5)}`;
    expect(within(screen.getByRole('tabpanel')).getByText(shown)).toBeTruthy();
    const connectionsShown = within(screen.getByRole('tabpanel')).getByText('Connections').nextElementSibling;
    expect(within(connectionsShown as HTMLElement).getByRole('button', { name: '1 more: Okta workforce' })).toBeTruthy();
    // Adapters by their catalogue names, never their slugs.
    const adaptersShown = within(screen.getByRole('tabpanel')).getByText('Adapters').nextElementSibling;
    expect(within(adaptersShown as HTMLElement).getByRole('button', { name: '1 more: Okta' })).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'CrowdStrike EMEA' }));
    expect(await screen.findByText('agent_version')).toBeTruthy();
    expect(within(screen.getByRole('tabpanel')).getByText(shown)).toBeTruthy();
    // What Cartograph mapped and what the vendor sent are two parts: the raw column only under the second heading.
    const [mappedPart, asSentPart] = [...screen.getByRole('tabpanel').querySelectorAll('dl')];
    expect(screen.getByRole('heading', { name: 'Mapped fields' }).nextElementSibling).toBe(mappedPart);
    expect(screen.getByRole('heading', { name: 'As the source sent it' }).nextElementSibling).toBe(asSentPart);
    expect(within(mappedPart!).getByText('Hostname')).toBeTruthy();
    expect(within(mappedPart!).queryByText('agent_version')).toBeNull();
    expect(within(asSentPart!).getByText('agent_version').nextElementSibling?.textContent).toBe('7.10');
    fireEvent.click(screen.getByRole('tab', { name: 'Data sources (2)' }));
    const sourcesTable = screen.getByRole('table', { name: 'Data sources' });
    expect(within(sourcesTable).getByText('Okta workforce')).toBeTruthy();
    // The adapter by its catalogue name, never its slug; the record's internal key is not shown.
    expect(within(sourcesTable).getByText('CrowdStrike Falcon')).toBeTruthy();
    expect(within(sourcesTable).queryByText('crowdstrike')).toBeNull();
    expect(within(sourcesTable).queryByText('3:aid-1')).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'Relations (1)' }));
    expect(await screen.findByText('ada')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Why merged' }));
    expect(await screen.findByText('Same serial number VMW-123')).toBeTruthy();
  });

  it("shows on a source's tab each value normalization changed: the source's value, the normalized one and the rule", async () => {
    serveApi({ 'GET /configurations/discovery': { body: { field_map: fieldMap } }, 'POST /devices/devices/a1': { body: { ...detail, sources: [...detail.sources, normalizedSource] } } });
    renderPage(DeviceDetail, '/detail/$deviceId/$discoveryId', '/detail/a1/12');
    await screen.findByRole('heading', { name: 'web-01' });
    fireEvent.click(screen.getByRole('tab', { name: 'Asset export' }));
    const table = await screen.findByRole('table', { name: 'Normalized values' });
    const rows = within(table).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['OS Type', 'Windows 11', 'Windows', 'operating-systems#windows-client'],
      ['Category', 'Workstation', 'Laptop', 'categories#laptop-model (laptop model: DeviceModel is "Latitude 7440")'],
    ]);
    // The provenance is no fact of its own, and the raw value stays among the source's fields.
    expect(within(screen.getByRole('tabpanel')).queryByText('Normalization')).toBeNull();
    expect(within(screen.getByRole('tabpanel')).getAllByText('Windows 11').length).toBeGreaterThanOrEqual(2);
    // A source normalization did not touch has no such table.
    fireEvent.click(screen.getByRole('tab', { name: 'Okta workforce' }));
    expect(screen.queryByRole('table', { name: 'Normalized values' })).toBeNull();
  });

  it('shows the OS end of life as a day and whether the OS is supported, and on the source tab the lifecycle feed cycle they came from', async () => {
    const lifecycleMap = {
      ...fieldMap, 'OS.EndOfLife': { value_type: 'date', label: 'OS end of life', adapter: 'cartograph' }, 'OS.Supported': { value_type: 'boolean', label: 'OS supported', adapter: 'cartograph' },
    };
    const lifecycle = { 'OS.EndOfLife': ['2023-05-31'], 'OS.Supported': [false] };
    const source = {
      record_key: '5:srv-1', adapter: 'csvfile', connection_id: 5, connection_name: 'Asset export', fields: {
        Hostname: ['web-01'], ...lifecycle, Normalization: [
          { field: 'OS.EndOfLife', raw: 'Ubuntu 18.04.6', value: '2023-05-31', rule: 'os-lifecycle#ubuntu', reason: 'from lifecycle feed ubuntu 18.04' },
          { field: 'OS.Supported', raw: 'Ubuntu 18.04.6', value: 'false', rule: 'os-lifecycle#ubuntu', reason: 'from lifecycle feed ubuntu 18.04' },
        ],
      },
    };
    serveApi({ 'GET /configurations/discovery': { body: { field_map: lifecycleMap } }, 'POST /devices/devices/a1': { body: { ...detail, ...lifecycle, sources: [source] } } });
    renderPage(DeviceDetail, '/detail/$deviceId/$discoveryId', '/detail/a1/12');
    await screen.findByRole('heading', { name: 'web-01' });
    const basic = within(screen.getByRole('tabpanel'));
    expect(basic.getByText('OS end of life').nextElementSibling?.textContent).toBe('31 May 2023');
    expect(basic.getByText('OS supported').nextElementSibling?.textContent).toBe('No');
    fireEvent.click(screen.getByRole('tab', { name: 'Asset export' }));
    const table = await screen.findByRole('table', { name: 'Normalized values' });
    expect(within(table).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['OS end of life', 'Ubuntu 18.04.6', '31 May 2023', 'os-lifecycle#ubuntu (from lifecycle feed ubuntu 18.04)'],
      ['OS supported', 'Ubuntu 18.04.6', 'No', 'os-lifecycle#ubuntu (from lifecycle feed ubuntu 18.04)'],
    ]);
  });
});

describe('the certificate inventory list', () => {
  it('links the custom certificates for users who may see them, and not for others', async () => {
    signInWith(['users.view_certificates', 'certificates.view_customcertificate']);
    serveApi({ 'GET /configurations/discovery': { body: { certificate_field_map: {} } }, 'POST /certificates/certificates': { body: { count: 0, results: [], index_id: 12 } } });
    const page = renderPage(CertificateInventory, '/certificate-inventory', '/certificate-inventory');
    expect((await screen.findByRole('link', { name: 'Custom certificates' })).getAttribute('href')).toBe('/certificate-inventory/custom-certificate');
    page.unmount();
    signInWith(['users.view_certificates']);
    serveApi({ 'GET /configurations/discovery': { body: { certificate_field_map: {} } }, 'POST /certificates/certificates': { body: { count: 0, results: [], index_id: 12 } } });
    renderPage(CertificateInventory, '/certificate-inventory', '/certificate-inventory');
    await screen.findByRole('heading', { name: 'Certificates' });
    expect(screen.queryByRole('link', { name: 'Custom certificates' })).toBeNull();
  });
});

describe('the device detail', () => {
  it('has the general and logged-in users panels: the device at a glance, and its users linked to the user inventory', async () => {
    signInWith(['users.view_devices', 'users.view_device_detail', 'users.view_user_inventory_detail']);
    const withUsers = {
      ...detail, IpAddresses: ['10.0.0.5'], relations: [
        { kind: 'device-user', relation: 'last used by', device_asset: 'a1', related_asset: 'u1', related_name: 'ada' },
        { kind: 'device-user', relation: 'last used by', device_asset: 'a1', related_asset: null, related_name: 'svc-backup' },
        { kind: 'device-device', relation: 'runs on', device_asset: 'a1', related_asset: 'h1', related_name: 'esx-01' },
      ],
    };
    serveApi({ 'GET /configurations/discovery': { body: { field_map: { ...fieldMap, IpAddresses: { value_type: 'text', label: 'IP addresses', adapter: 'cartograph' } } } }, 'POST /devices/devices/a1': { body: withUsers } });
    renderPage(DeviceDetail, '/detail/$deviceId/$discoveryId', '/detail/a1/12');
    await screen.findByRole('heading', { name: 'web-01' });
    fireEvent.click(screen.getByRole('tab', { name: 'General' }));
    const general = screen.getByRole('tabpanel');
    expect(within(general).getByText('IP addresses').nextElementSibling?.textContent).toBe('10.0.0.5');
    expect(within(general).getByText('OS Type').nextElementSibling?.textContent).toBe('Linux');
    expect(within(general).queryByText('Agent Version')).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'Logged-in users (2)' }));
    const users = screen.getByRole('table', { name: 'Logged-in users' });
    expect(within(users).getByRole('link', { name: 'ada' }).getAttribute('href')).toBe('/user-inventory/detail/u1/12');
    expect(within(users).getByText('svc-backup')).toBeTruthy();
    expect(within(users).queryByText('esx-01')).toBeNull();
  });
});
