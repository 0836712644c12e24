import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dismissAll, getNotifications } from '../../../src/web/app/notifications/notifications';
import { DeviceDetail } from '../../../src/web/pages/inventories/DeviceDetail';
import { DeviceInventory } from '../../../src/web/pages/inventories/DeviceInventory';
import { serveApi, type Answer } from '../app/helpers';
import { giveVirtualTablesHeight } from '../layout';
import { signInWith, withPermissions } from './pageSession';
import { renderPage } from './renderPage';

giveVirtualTablesHeight();

const fieldMap = { Hostname: { value_type: 'text', label: 'Hostname', adapter: 'cartograph' }, 'OS.Type': { value_type: 'text', label: 'OS Type', adapter: 'cartograph' } };
const web01 = { PrimaryKey: ['a1'], Hostname: ['web-01'], 'OS.Type': ['Linux'] };
const web02 = { PrimaryKey: ['a2'], Hostname: ['web-02'], 'OS.Type': ['Linux'] };
const pci = { id: 3, name: 'pci scope', description: '', color: '#c0392b', device_count: 42, created_at: '2026-11-20T10:00:00Z', updated_at: '2026-11-20T10:00:00Z' };
const deviceActions = ['users.view_devices', 'users.view_device_detail', 'devices.view_tag', 'devices.add_tag', 'devices.change_tag', 'devices.merge_device'];

const inventoryApi = (extra: Record<string, Answer | Answer[]> = {}) =>
  serveApi({
    'GET /configurations/discovery': { body: { field_map: fieldMap } },
    'POST /devices/devices': { body: { count: 2, results: [web01, web02], index_id: 12 } },
    'GET /devices/tags': { body: { count: 1, results: [pci] } },
    ...extra,
  });
const openInventory = async () => {
  localStorage.setItem('pconfig-device-inventory', JSON.stringify({ columns: ['Hostname', 'OS.Type'], size: 50, query: 'OS.Type = Linux' }));
  renderPage(DeviceInventory, '/device-inventory', '/device-inventory');
  await screen.findByText('web-01');
};
const choose = (...names: string[]) => names.forEach((name) => fireEvent.click(screen.getByRole('checkbox', { name: `Choose ${name}` })));
const posted = (calls: ReturnType<typeof serveApi>, url: string) => calls.filter((call) => call.method === 'POST' && call.url === url).map((call) => call.body);

beforeEach(() => {
  signInWith(deviceActions);
  dismissAll();
});
afterEach(() => vi.unstubAllGlobals());

describe('the add tag dialog', () => {
  it('tags the chosen devices with ticked and typed tags, each tag once, without opening a preview', async () => {
    const calls = inventoryApi({ 'POST /devices/tags/update': { body: { tags: [{ id: 3, name: 'pci scope' }, { id: 9, name: 'new-one' }], devices: 2, index_id: 12 } } });
    await openInventory();
    expect((screen.getByRole('button', { name: 'Add tag' }) as HTMLButtonElement).getAttribute('aria-disabled')).toBe('true');
    choose('web-01', 'web-02');
    expect(screen.queryByRole('complementary')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Add tag (2)' }));
    const dialog = screen.getByRole('dialog', { name: 'Add tag' });
    fireEvent.click(await within(dialog).findByRole('checkbox', { name: 'pci scope' }));
    fireEvent.change(within(dialog).getByLabelText('New tags (comma-separated)'), { target: { value: 'new-one, PCI SCOPE, new-one,' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add 2 tag(s)' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add tag' })).toBeNull());
    expect(posted(calls, '/devices/tags/update')).toEqual([{ tags: ['pci scope', 'new-one'], action: 'add', assets: ['a1', 'a2'], index_id: 12 }]);
    expect(getNotifications().at(-1)?.text).toBe('pci scope, new-one added to 2 device(s).');
  });

  it('offers only existing tags to a user who may not create tags, and shows the server\'s refusal', async () => {
    withPermissions(['users.view_devices', 'devices.view_tag', 'devices.change_tag']);
    inventoryApi({ 'POST /devices/tags/update': { status: 400, body: { tags: ['Unknown tag "pci scope".'] } } });
    await openInventory();
    choose('web-01');
    expect(screen.queryByRole('button', { name: 'Merge devices' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Add tag (1)' }));
    const dialog = screen.getByRole('dialog', { name: 'Add tag' });
    expect(within(dialog).queryByLabelText('New tags (comma-separated)')).toBeNull();
    fireEvent.click(await within(dialog).findByRole('checkbox', { name: 'pci scope' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add 1 tag(s)' }));
    expect(await within(dialog).findByText('Unknown tag "pci scope".')).toBeTruthy();
  });

  it('links to the tags, relations and merge recommendations pages the user may open', async () => {
    withPermissions([...deviceActions, 'devices.view_devicerelation']);
    inventoryApi();
    await openInventory();
    expect(screen.getByRole('link', { name: 'Tags' }).getAttribute('href')).toBe('/device-inventory/tags');
    expect(screen.getByRole('link', { name: 'Relations' }).getAttribute('href')).toBe('/device-inventory/relations');
    expect(screen.queryByRole('link', { name: 'Merge recommendations' })).toBeNull();
  });

  it('shows no row checkboxes or device actions to a user who may neither tag nor merge', async () => {
    withPermissions(['users.view_devices']);
    inventoryApi();
    await openInventory();
    expect(screen.queryByRole('checkbox', { name: 'Choose web-01' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Add tag|Merge devices|Bulk update/ })).toBeNull();
  });
});

describe('the bulk update dialog', () => {
  it('shows how many devices the query matches, then removes the chosen tags from every one of them', async () => {
    const calls = inventoryApi({ 'POST /devices/tags/update': { body: { tags: [{ id: 3, name: 'pci scope' }], devices: 2, index_id: 12 } } });
    await openInventory();
    fireEvent.click(screen.getByRole('button', { name: 'Bulk update' }));
    const dialog = screen.getByRole('dialog', { name: 'Bulk update' });
    expect(dialog.textContent).toContain('Changes the tags of the 2 device(s) matching OS.Type = Linux.');
    fireEvent.change(within(dialog).getByLabelText('Action'), { target: { value: 'remove' } });
    expect(within(dialog).queryByLabelText('New tags (comma-separated)')).toBeNull();
    fireEvent.click(await within(dialog).findByRole('checkbox', { name: 'pci scope' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove from 2 device(s)' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Bulk update' })).toBeNull());
    expect(posted(calls, '/devices/tags/update')).toEqual([{ tags: ['pci scope'], action: 'remove', query: 'OS.Type = Linux', index_id: 12 }]);
    expect(getNotifications().at(-1)?.text).toBe('pci scope removed from 2 device(s).');
  });
});

describe('the merge devices dialog', () => {
  it('merges two or more chosen devices and links to the merged device', async () => {
    const calls = inventoryApi({ 'POST /devices/merge': { body: { id: 'm1', index_id: 12, record_keys: ['3:aid-1', '4:dev-9', '5:ci-2'] } } });
    await openInventory();
    choose('web-01');
    expect((screen.getByRole('button', { name: 'Merge devices' }) as HTMLButtonElement).getAttribute('aria-disabled')).toBe('true');
    choose('web-02');
    fireEvent.click(screen.getByRole('button', { name: 'Merge devices' }));
    const dialog = screen.getByRole('dialog', { name: 'Merge devices' });
    expect(within(within(dialog).getByRole('list', { name: 'Devices to merge' })).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['web-01', 'web-02']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Merge 2 devices' }));
    expect(await within(dialog).findByText('Merged device with 3 source record(s).')).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Open the merged device' }).getAttribute('href')).toBe('/device-inventory/detail/m1/12');
    expect(posted(calls, '/devices/merge')).toEqual([{ assets: ['a1', 'a2'], index_id: 12 }]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.getByRole('button', { name: 'Add tag' })).toBeTruthy();
  });

  it('shows why the server refused a merge', async () => {
    inventoryApi({ 'POST /devices/merge': { status: 400, body: { assets: ['Invalid pk "a2" - object does not exist.'] } } });
    await openInventory();
    choose('web-01', 'web-02');
    fireEvent.click(screen.getByRole('button', { name: 'Merge devices' }));
    const dialog = screen.getByRole('dialog', { name: 'Merge devices' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Merge 2 devices' }));
    expect(await within(dialog).findByText('Invalid pk "a2" - object does not exist.')).toBeTruthy();
  });
});

describe('unmerge from the device detail', () => {
  const detail = {
    ...web01, index_id: 12, preferred: {}, relations: [],
    merge_reasons: [{ rule: 'serial_number', value: 'VMW-123', records: ['3:aid-1', '4:dev-9'] }],
    sources: [
      { record_key: '3:aid-1', adapter: 'crowdstrike', connection_id: 3, connection_name: 'CrowdStrike EMEA', fields: { Hostname: ['web-01'] } },
      { record_key: '4:dev-9', adapter: 'okta', connection_id: 4, connection_name: 'Okta workforce', fields: { Hostname: ['WEB-01'] } },
    ],
  };

  it('explains each merge and takes the chosen source records out into a device of their own', async () => {
    const calls = serveApi({
      'GET /configurations/discovery': { body: { field_map: fieldMap } },
      'POST /devices/devices/a1': { body: detail },
      'POST /devices/unmerge': { body: { index_id: 12, devices: [{ id: 'b1', record_keys: ['3:aid-1'] }, { id: 'b2', record_keys: ['4:dev-9'] }] } },
    });
    renderPage(DeviceDetail, '/detail/$deviceId/$discoveryId', '/detail/a1/12');
    fireEvent.click(await screen.findByRole('tab', { name: 'Why merged' }));
    expect(await screen.findByText('Same serial number VMW-123')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Unmerge…' }));
    const dialog = screen.getByRole('dialog', { name: 'Unmerge device' });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'CrowdStrike EMEA' }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Okta workforce' }));
    // Taking every record out would leave nothing: the button waits for a proper choice.
    expect((within(dialog).getByRole('button', { name: /^Unmerge/ }) as HTMLButtonElement).getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'CrowdStrike EMEA' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unmerge 1 record(s)' }));
    const after = await within(dialog).findByRole('list', { name: 'Devices after the split' });
    // Records are named as their tabs are, by their connections, never by their internal keys.
    expect(within(after).getByRole('link', { name: 'Device with Okta workforce' }).getAttribute('href')).toBe('/device-inventory/detail/b2/12');
    expect(posted(calls, '/devices/unmerge')).toEqual([{ asset: 'a1', records: ['4:dev-9'], index_id: 12 }]);
  });

  it('offers no unmerge without the merge permission', async () => {
    withPermissions(['users.view_devices', 'users.view_device_detail']);
    serveApi({ 'GET /configurations/discovery': { body: { field_map: fieldMap } }, 'POST /devices/devices/a1': { body: detail } });
    renderPage(DeviceDetail, '/detail/$deviceId/$discoveryId', '/detail/a1/12');
    fireEvent.click(await screen.findByRole('tab', { name: 'Why merged' }));
    await screen.findByText('Same serial number VMW-123');
    expect(screen.queryByRole('button', { name: 'Unmerge…' })).toBeNull();
  });
});
