import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeviceInventory } from '../../../src/web/pages/inventories/DeviceInventory';
import { serveApi } from '../app/helpers';
import { giveVirtualTablesHeight } from '../layout';
import { signInWith } from './pageSession';
import { renderPage } from './renderPage';

giveVirtualTablesHeight();

const configuration = { body: { field_map: { Hostname: { value_type: 'text', label: 'Host name', adapter: 'cartograph' }, IpAddresses: { value_type: 'ip', label: 'IP addresses', adapter: 'cartograph' } } } };
type Body = { size?: number; page?: number } | undefined;
const counts = (calls: { url: string; body?: unknown }[]) => calls.filter((call) => call.url === '/devices/devices' && (call.body as Body)?.size === 1 && (call.body as Body)?.page === undefined);

describe('the query bar as you type', () => {
  beforeEach(() => signInWith(['users.view_devices', 'users.view_device_detail']));
  afterEach(() => vi.unstubAllGlobals());

  it('counts the matches of the typed query once it parses and typing pauses, before it runs', async () => {
    const calls = serveApi({ 'GET /configurations/discovery': configuration, 'POST /devices/devices': { body: { count: 1234, results: [], index_id: 12 } } });
    renderPage(DeviceInventory, '/device-inventory', '/device-inventory');
    await screen.findByText(/1,234 devices/);
    const input = screen.getByRole('combobox', { name: 'Query' }) as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'lt-' } });
    fireEvent.change(input, { target: { value: 'lt-0017' } });
    await waitFor(() => expect(screen.getByText('1,234 devices match')).toBeTruthy());
    // One count for the settled text, none for what was typed on the way, none while the text does not parse.
    expect(counts(calls).map((call) => call.body)).toEqual([{ query: 'lt-0017', fields: [], size: 1 }]);
    fireEvent.change(input, { target: { value: 'lt-0017 AND' } });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(counts(calls)).toHaveLength(1);
    expect(screen.queryByText('1,234 devices match')).toBeNull();
  });

  it('names an unknown field under the bar as soon as the count is refused', async () => {
    serveApi({
      'GET /configurations/discovery': configuration,
      'POST /devices/devices': [{ body: { count: 3, results: [], index_id: 12 } }, { status: 400, body: { query: ['Unknown field "Colour". Did you mean Color? (at character 1)'] } }],
    });
    renderPage(DeviceInventory, '/device-inventory', '/device-inventory');
    await screen.findByText(/3 devices/);
    fireEvent.change(screen.getByRole('combobox', { name: 'Query' }), { target: { value: 'Colour = red' } });
    await waitFor(() => expect(screen.getByText(/Unknown field "Colour"/)).toBeTruthy());
  });

  it('opens the syntax with the inventory\'s examples beside the bar, and runs one', async () => {
    const calls = serveApi({ 'GET /configurations/discovery': configuration, 'POST /devices/devices': { body: { count: 3, results: [], index_id: 12 } } });
    renderPage(DeviceInventory, '/device-inventory', '/device-inventory');
    await screen.findByText(/3 devices/);
    fireEvent.click(screen.getByRole('button', { name: 'Query syntax and examples' }));
    const help = screen.getByRole('dialog', { name: 'Query syntax' });
    expect(within(help).getByText('Field in [a, b, 10.1.0.0/16]')).toBeTruthy();
    fireEvent.click(within(help).getByRole('button', { name: 'Run IpAddresses = 10.61.0.0/16' }));
    await waitFor(() => expect(calls.filter((call) => call.url === '/devices/devices').at(-1)?.body).toMatchObject({ query: 'IpAddresses = 10.61.0.0/16', page: 1 }));
    expect((screen.getByRole('combobox', { name: 'Query' }) as HTMLInputElement).value).toBe('IpAddresses = 10.61.0.0/16');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
