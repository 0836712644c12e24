import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logout } from '../../../src/web/app/session/session';
import { DeviceDetail } from '../../../src/web/pages/inventories/DeviceDetail';
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

beforeEach(() => {
  signInWith(['users.view_devices', 'users.view_device_detail']);
});
afterEach(() => vi.unstubAllGlobals());

const searches = (calls: ReturnType<typeof serveApi>) => calls.filter((call) => call.method === 'POST' && call.url === '/devices/devices').map((call) => call.body as { query: string; fields: string[]; ordering: unknown[] });

describe('the device inventory list', () => {
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
    const badges = row.querySelectorAll('.inventory-source');
    // Two tenants of one vendor: two badges, each with the vendor's icon and its own name.
    expect([...badges].map((badge) => badge.textContent)).toEqual(['CrowdStrike EMEA', 'CrowdStrike Americas']);
    expect([...badges].map((badge) => badge.querySelector('img')?.getAttribute('src'))).toEqual(['images/adapters/crowdstrike.svg', 'images/adapters/crowdstrike.svg']);
    expect(row.querySelector('.inventory-values')?.getAttribute('title')).toBe('CrowdStrike EMEA\nCrowdStrike Americas');
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
    expect(connectionsShown?.querySelector('.inventory-values')?.getAttribute('title')).toBe('CrowdStrike EMEA\nOkta workforce');
    fireEvent.click(screen.getByRole('tab', { name: 'CrowdStrike EMEA' }));
    expect(await screen.findByText('agent_version')).toBeTruthy();
    expect(within(screen.getByRole('tabpanel')).getByText(shown)).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Data sources (2)' }));
    expect(within(screen.getByRole('table', { name: 'Data sources' })).getByText('Okta workforce')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Relations (1)' }));
    expect(await screen.findByText('ada')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Why merged' }));
    expect(await screen.findByText('Same serial number VMW-123')).toBeTruthy();
  });
});
