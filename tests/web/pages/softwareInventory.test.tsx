import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeviceDetail } from '../../../src/web/pages/inventories/DeviceDetail';
import { SoftwareDetail } from '../../../src/web/pages/inventories/SoftwareDetail';
import { SoftwareGroupForm } from '../../../src/web/pages/inventories/SoftwareGroupForm';
import { SoftwareGroups } from '../../../src/web/pages/inventories/SoftwareGroups';
import { SoftwareInventory } from '../../../src/web/pages/inventories/SoftwareInventory';
import { SoftwarePreview } from '../../../src/web/pages/inventories/SoftwarePreview';
import { routeByPath } from '../../../src/web/app/routeTable';
import { updateSession } from '../../../src/web/app/session/session';
import { serveApi } from '../app/helpers';
import { giveVirtualTablesHeight } from '../layout';
import { queryOf, signInWith } from './pageSession';
import { renderPage } from './renderPage';

giveVirtualTablesHeight();
afterEach(() => vi.unstubAllGlobals());

const applicationFieldMap = {
  Name: { value_type: 'text', label: 'Name', adapter: 'cartograph' },
  Vendor: { value_type: 'text', label: 'Vendor', adapter: 'cartograph' },
  LatestVersion: { value_type: 'text', label: 'Latest version', adapter: 'cartograph' },
  InstallCount: { value_type: 'long', label: 'Installations', adapter: 'cartograph' },
  'Device.Hostname': { value_type: 'text', label: 'Device: Hostname', adapter: 'cartograph' },
};
const chrome = { PrimaryKey: ['0123456789abcdef0123'], Name: ['Google Chrome'], Vendor: ['Google'], LatestVersion: ['120.0.1'], InstallCount: [2] };
const chromeDetail = {
  ...chrome, index_id: 7,
  versions: [{ version: '120.0.1', devices: 1 }, { version: '119.0.4', devices: 1 }],
  vulnerabilities: [{ id: 'feedfacefeedfacefeed', cve_id: 'CVE-2026-0001', title: 'Heap overflow', severity: 'High', score: 8.8 }],
};
const installation = (device: string, hostname: string, version: string) => ({
  device_id: device, hostname, os_type: 'Windows', software_id: chrome.PrimaryKey[0], software_name: 'Google Chrome', vendor: 'Google', version,
  install_date: '2026-11-01T08:00:00Z', install_path: 'C:\\Program Files\\Google', adapters: ['crowdstrike'], index_id: 7,
});
const configuration = { 'GET /configurations/discovery': { body: { application_field_map: applicationFieldMap } } };
const searches = (calls: ReturnType<typeof serveApi>) => calls.filter((call) => call.method === 'POST' && call.url === '/appinventory/applications');

describe('the software inventory list', () => {
  it('searches the software with its default columns, sorts, saves queries of type application and exports', async () => {
    signInWith(['users.view_applications', 'users.view_application_detail', 'queries.add_query']);
    const calls = serveApi({ ...configuration, 'POST /appinventory/applications': { body: { count: 1, results: [chrome], index_id: 7 } }, 'POST /queries/queries': { status: 201, body: { id: 1 } }, 'POST /appinventory/export': { body: {} } });
    renderPage(SoftwareInventory, '/software-inventory', '/software-inventory');
    await screen.findByText('Google Chrome');
    expect(searches(calls)[0]?.body).toMatchObject({ query: '', fields: ['Adapters', 'Name', 'Vendor', 'LatestVersion', 'VersionCount', 'InstallCount', 'VulnerabilityCount', 'Connections'] });
    expect(screen.getByRole('columnheader', { name: /Latest version/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('columnheader', { name: /Vendor/ }).querySelector('button') ?? screen.getByRole('columnheader', { name: /Vendor/ }));
    await waitFor(() => expect((searches(calls).at(-1)?.body as { ordering: unknown[] }).ordering).toEqual([{ field: 'Vendor', order: 'asc' }]));

    fireEvent.change(screen.getByLabelText('Query'), { target: { value: 'Vendor = Google' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect((searches(calls).at(-1)?.body as { query: string }).query).toBe('Vendor = Google'));
    fireEvent.click(screen.getByRole('button', { name: 'Save query' }));
    fireEvent.change(within(await screen.findByRole('dialog')).getByLabelText(/Name/), { target: { value: 'Google software' } });
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((call) => call.url === '/queries/queries')?.body).toMatchObject({ name: 'Google software', text: 'Vendor = Google', type: 'application' }));

    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined }));
    fireEvent.click(screen.getByRole('button', { name: 'Export XLSX' }));
    await waitFor(() => expect(calls.find((call) => call.url === '/appinventory/export')?.body).toMatchObject({ format: 'xlsx', query: 'Vendor = Google', index_id: 7 }));
  });

  it('shows an empty state without software, and no group actions without the group permissions', async () => {
    signInWith(['users.view_applications']);
    serveApi({ ...configuration, 'POST /appinventory/applications': { body: { count: 0, results: [], index_id: 7 } } });
    renderPage(SoftwareInventory, '/software-inventory', '/software-inventory');
    expect(await screen.findByText('No software match')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Add to group/ })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Groups' })).toBeNull();
  });

  it('adds the chosen software to a group, keeping what the group held', async () => {
    signInWith(['users.view_applications', 'appinventory.view_group', 'appinventory.change_group', 'appinventory.add_group']);
    const browsers = { id: 4, name: 'Browsers', description: '', query: '', software: ['aaaaaaaaaaaaaaaaaaaa'] };
    const calls = serveApi({
      ...configuration,
      'POST /appinventory/applications': { body: { count: 1, results: [chrome], index_id: 7 } },
      'GET /appinventory/groups': { body: { count: 1, results: [browsers] } },
      'PUT /appinventory/groups/4': { body: { ...browsers, software: [...browsers.software, chrome.PrimaryKey[0]] } },
    });
    renderPage(SoftwareInventory, '/software-inventory', '/software-inventory');
    await screen.findByText('Google Chrome');
    expect(screen.getByRole('link', { name: 'Groups' }).getAttribute('href')).toBe('/software-inventory/groups');
    expect(screen.getByRole('button', { name: 'Add to group' }).getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(screen.getByLabelText('Choose Google Chrome'));
    fireEvent.click(screen.getByRole('button', { name: 'Add to group (1)' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByRole('option', { name: 'Browsers' });
    fireEvent.change(within(dialog).getByLabelText('Group'), { target: { value: '4' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ software: ['aaaaaaaaaaaaaaaaaaaa', chrome.PrimaryKey[0]] }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('creates a group of the chosen software and the list\'s query, showing the server\'s field errors', async () => {
    signInWith(['users.view_applications', 'appinventory.view_group', 'appinventory.add_group']);
    const calls = serveApi({
      ...configuration,
      'POST /appinventory/applications': { body: { count: 1, results: [chrome], index_id: 7 } },
      'POST /appinventory/groups': [{ status: 400, body: { name: ['A software group with this name already exists.'] } }, { status: 201, body: { id: 5, name: 'Google' } }],
    });
    renderPage(SoftwareInventory, '/software-inventory', '/software-inventory?query=Vendor%20%3D%20Google');
    await screen.findByText('Google Chrome');
    fireEvent.click(screen.getByLabelText('Choose Google Chrome'));
    fireEvent.click(screen.getByRole('button', { name: 'Create group' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/Name/), { target: { value: 'Google' } });
    fireEvent.click(within(dialog).getByLabelText(/Also every software matching/));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('A software group with this name already exists.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((call) => call.url === '/appinventory/groups').at(-1)?.body).toEqual({ name: 'Google', description: '', query: 'Vendor = Google', software: [chrome.PrimaryKey[0]] });
  });
});

describe('the software preview and detail', () => {
  it('previews one software from a link, without source records, with a link to its detail', async () => {
    signInWith(['users.view_applications', 'users.view_application_detail']);
    serveApi({ ...configuration, [`POST /appinventory/applications/${chrome.PrimaryKey[0]}`]: { body: chromeDetail } });
    renderPage(SoftwarePreview, '/software-inventory/preview', `/software-inventory/preview?id=${chrome.PrimaryKey[0]}&discoveryId=7`);
    const preview = await screen.findByRole('complementary', { name: 'Preview of Google Chrome' });
    await within(preview).findByText('120.0.1');
    expect(within(preview).queryByText(/source record/)).toBeNull();
    expect(within(preview).getByRole('link', { name: 'Open details' }).getAttribute('href')).toBe(`/software-inventory/detail/${chrome.PrimaryKey[0]}/7`);
  });

  it('shows the versions, the devices that have it (filtered by the server) and its vulnerabilities', async () => {
    signInWith(['users.view_applications', 'users.view_application_detail', 'users.view_device_detail', 'users.view_avm_vulnerabilities']);
    const calls = serveApi({
      ...configuration,
      [`POST /appinventory/applications/${chrome.PrimaryKey[0]}`]: { body: chromeDetail },
      'GET /appinventory/installations': { body: { count: 2, results: [installation('d1d1d1d1d1d1d1d1d1d1', 'ws-01', '120.0.1'), installation('d2d2d2d2d2d2d2d2d2d2', 'ws-02', '119.0.4')] } },
    });
    renderPage(SoftwareDetail, '/detail/$softwareId/$discoveryId', `/detail/${chrome.PrimaryKey[0]}/7`);
    await screen.findByRole('heading', { name: 'Google Chrome' });
    // The basic info leaves out the device fields software queries may name.
    expect(within(screen.getByRole('tabpanel')).getByText('Latest version')).toBeTruthy();
    expect(within(screen.getByRole('tabpanel')).queryByText('Device: Hostname')).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'Versions (2)' }));
    expect(within(screen.getByRole('table', { name: 'Versions' })).getByText('119.0.4')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Devices' }));
    const devices = await screen.findByRole('table', { name: 'Devices with this software' });
    expect((await within(devices).findByRole('link', { name: 'ws-02' })).getAttribute('href')).toBe('/device-inventory/detail/d2d2d2d2d2d2d2d2d2d2/7');
    expect(queryOf(calls.find((call) => call.url.startsWith('/appinventory/installations'))!.url)).toMatchObject({ software: chrome.PrimaryKey[0], index_id: '7', page: '1' });
    fireEvent.change(screen.getByLabelText('Search devices'), { target: { value: 'ws-02' } });
    await waitFor(() => expect(queryOf(calls.filter((call) => call.url.startsWith('/appinventory/installations')).at(-1)!.url).search).toBe('ws-02'));
    fireEvent.click(screen.getByRole('tab', { name: 'Vulnerabilities (1)' }));
    expect(screen.getByRole('link', { name: 'CVE-2026-0001' }).getAttribute('href')).toBe('/vulnerability-inventory/detail/feedfacefeedfacefeed/7');
  });
});

describe('the device detail\'s software and vulnerability panels', () => {
  const device = {
    PrimaryKey: ['d1d1d1d1d1d1d1d1d1d1'], Hostname: ['ws-01'], index_id: 7, preferred: {}, merge_reasons: [], relations: [],
    sources: [{ record_key: '3:1', adapter: 'crowdstrike', connection_id: 3, connection_name: 'CrowdStrike', fields: { Hostname: ['ws-01'] } }],
  };

  it('lists the device\'s installed software and its findings, read by device', async () => {
    signInWith(['users.view_devices', 'users.view_device_detail', 'users.view_applications', 'users.view_application_detail', 'users.view_avm_vulnerabilities']);
    const calls = serveApi({
      'GET /configurations/discovery': { body: { field_map: {} } },
      'POST /devices/devices/d1d1d1d1d1d1d1d1d1d1': { body: device },
      'GET /appinventory/installations': { body: { count: 1, results: [installation('d1d1d1d1d1d1d1d1d1d1', 'ws-01', '120.0.1')] } },
      'GET /avm/findings': { body: { count: 0, results: [] } },
    });
    renderPage(DeviceDetail, '/detail/$deviceId/$discoveryId', '/detail/d1d1d1d1d1d1d1d1d1d1/7');
    await screen.findByRole('heading', { name: 'ws-01' });
    fireEvent.click(screen.getByRole('tab', { name: 'Installed software' }));
    const software = await screen.findByRole('table', { name: 'Installed software' });
    expect(await within(software).findByRole('link', { name: 'Google Chrome' })).toBeTruthy();
    expect(queryOf(calls.find((call) => call.url.startsWith('/appinventory/installations'))!.url)).toMatchObject({ device: 'd1d1d1d1d1d1d1d1d1d1', index_id: '7' });
    fireEvent.click(screen.getByRole('tab', { name: 'Vulnerabilities' }));
    expect(await screen.findByText('No vulnerability reported on this device')).toBeTruthy();
    expect(queryOf(calls.find((call) => call.url.startsWith('/avm/findings'))!.url)).toMatchObject({ device: 'd1d1d1d1d1d1d1d1d1d1' });
  });

  it('badges a CVE in KEV on the device\'s vulnerabilities and says why each finding is there', async () => {
    signInWith(['users.view_devices', 'users.view_device_detail', 'users.view_avm_vulnerabilities']);
    updateSession({ adapters: [{ id: 1, name: 'Tenable Vulnerability Management', slug: 'tenable-io', categories: [], status: 1 }] });
    const finding = {
      device_id: 'd1d1d1d1d1d1d1d1d1d1', hostname: 'ws-01', os_type: 'Windows', title: null, severity: 'Critical', score: 10, status: 'open', source_status: 'open',
      status_reason: null, status_changed_by: null, status_changed_at: null, first_seen: '2026-11-01T08:00:00Z', last_seen: '2026-11-20T08:00:00Z', ports: [], software: [], index_id: 7,
    };
    serveApi({
      'GET /configurations/discovery': { body: { field_map: {} } },
      'POST /devices/devices/d1d1d1d1d1d1d1d1d1d1': { body: device },
      'GET /avm/findings': { body: { count: 2, results: [
        { ...finding, id: 'f1', vulnerability_id: 'v1', cve_id: 'CVE-2021-44228', kev: true, adapters: ['cartograph-avm'], sources: [{ adapter: 'cartograph-avm', evidence: 'log4j-core 2.14.1 matches cpe:2.3:a:apache:log4j' }] },
        { ...finding, id: 'f2', vulnerability_id: 'v2', cve_id: 'CVE-2024-0001', kev: false, adapters: ['tenable-io'], sources: [{ adapter: 'tenable-io', evidence: null }] },
      ] } },
    });
    renderPage(DeviceDetail, '/detail/$deviceId/$discoveryId', '/detail/d1d1d1d1d1d1d1d1d1d1/7');
    await screen.findByRole('heading', { name: 'ws-01' });
    fireEvent.click(screen.getByRole('tab', { name: 'Vulnerabilities' }));
    const table = await screen.findByRole('table', { name: 'Vulnerabilities of this device' });
    const [log4shell, scanned] = [await within(table).findByRole('row', { name: /CVE-2021-44228/ }), within(table).getByRole('row', { name: /CVE-2024-0001/ })];
    expect(within(log4shell).getByText('KEV')).toBeTruthy();
    expect(within(scanned).queryByText('KEV')).toBeNull();
    expect(within(log4shell).getByText('log4j-core 2.14.1 matches cpe:2.3:a:apache:log4j')).toBeTruthy();
    expect(within(scanned).getByText('Reported by Tenable Vulnerability Management')).toBeTruthy();
  });

  it('leaves the panels out without the inventories\' permissions', async () => {
    signInWith(['users.view_devices', 'users.view_device_detail']);
    serveApi({ 'GET /configurations/discovery': { body: { field_map: {} } }, 'POST /devices/devices/d1d1d1d1d1d1d1d1d1d1': { body: device } });
    renderPage(DeviceDetail, '/detail/$deviceId/$discoveryId', '/detail/d1d1d1d1d1d1d1d1d1d1/7');
    await screen.findByRole('heading', { name: 'ws-01' });
    expect(screen.queryByRole('tab', { name: 'Installed software' })).toBeNull();
    expect(screen.queryByRole('tab', { name: 'Vulnerabilities' })).toBeNull();
  });
});

describe('the software groups', () => {
  it('lists the groups from their schema, with links to the group form', async () => {
    signInWith(['appinventory.view_group', 'appinventory.change_group', 'appinventory.add_group']);
    serveApi({ 'GET /appinventory/groups': { body: { count: 1, next: null, previous: null, results: [{ id: 4, name: 'Browsers', description: 'Web browsers', query: '', software: [] }] } } });
    const route = routeByPath('/software-inventory/groups')!;
    renderPage(() => <SoftwareGroups route={route} />, '/software-inventory/groups', '/software-inventory/groups');
    expect((await screen.findByRole('link', { name: 'Browsers' })).getAttribute('href')).toContain('/software-inventory/groups/edit/4');
    expect(screen.getByRole('link', { name: /Create software group/ }).getAttribute('href')).toContain('/software-inventory/groups/edit/new');
  });

  it('edits a group through the schema form with PUT', async () => {
    signInWith(['appinventory.view_group', 'appinventory.change_group', 'appinventory.add_group']);
    const browsers = { id: 4, name: 'Browsers', description: 'Web browsers', query: '', software: [] };
    const calls = serveApi({ 'GET /appinventory/groups/4': { body: browsers }, 'PUT /appinventory/groups/4': { body: { ...browsers, name: 'All browsers' } } });
    const route = routeByPath('/software-inventory/groups/edit/{groupId}')!;
    renderPage(() => <SoftwareGroupForm route={route} />, '/software-inventory/groups/edit/$groupId', '/software-inventory/groups/edit/4');
    const name = await screen.findByLabelText(/^Name/);
    expect((name as HTMLInputElement).value).toBe('Browsers');
    fireEvent.change(name, { target: { value: 'All browsers' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ name: 'All browsers' }));
  });

  it('creates a group from `new` with POST, without reading a group called new', async () => {
    signInWith(['appinventory.view_group', 'appinventory.change_group', 'appinventory.add_group']);
    const calls = serveApi({ 'POST /appinventory/groups': { status: 201, body: { id: 9, name: 'Editors' } } });
    const route = routeByPath('/software-inventory/groups/edit/{groupId}')!;
    renderPage(() => <SoftwareGroupForm route={route} />, '/software-inventory/groups/edit/$groupId', '/software-inventory/groups/edit/new');
    fireEvent.change(await screen.findByLabelText(/^Name/), { target: { value: 'Editors' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({ name: 'Editors' }));
    expect(calls.some((call) => call.url.startsWith('/appinventory/groups/new'))).toBe(false);
  });
});
