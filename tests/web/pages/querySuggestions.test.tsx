import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeviceInventory } from '../../../src/web/pages/inventories/DeviceInventory';
import { querySuggestions, valueSuggestions } from '../../../src/web/pages/inventories/querySuggestions';
import { serveApi } from '../app/helpers';
import { giveVirtualTablesHeight } from '../layout';
import { signInWith } from './pageSession';
import { renderPage } from './renderPage';

giveVirtualTablesHeight();

const fields = [
  { value: 'Hostname', label: 'Host name', type: 'text' as const },
  { value: 'IpAddresses', label: 'IP addresses', type: 'ip' as const },
  { value: 'LastSeen', label: 'Last seen', type: 'date' as const },
  { value: 'OS.Type', label: 'OS type', type: 'text' as const },
];
const labels = (before: string) => querySuggestions(before, fields).items.map((item) => item.label);

describe('query suggestions', () => {
  it('offers the fields matching the typed word, by key or title, where a condition may start', () => {
    expect(labels('')).toEqual(['Host name', 'IP addresses', 'Last seen', 'OS type']);
    expect(labels('OS.Type = Linux AND ip')).toEqual(['IP addresses']);
    expect(querySuggestions('OS.Type = Linux AND ip', fields).from).toBe(20);
    expect(labels('(last')).toEqual(['Last seen']);
    // By title too, and a key that starts with the word comes first.
    expect(labels('o')).toEqual(['OS type', 'Host name']);
    expect(labels('seen')).toEqual(['Last seen']);
    expect(labels('lt-0017')).toEqual([]);
  });

  it('offers the operators that fit the field type once the field is written', () => {
    expect(labels('LastSeen ')).toEqual(['last', '>', '>=', '<', '<=', 'exists']);
    expect(labels('Hostname ')).toEqual(['=', '!=', 'contains', 'in', 'exists']);
    expect(labels('Hostname co')).toEqual(['contains']);
    expect(querySuggestions('IpAddresses ', fields).items.find((item) => item.label === 'in')?.insert).toBe('in [');
  });

  it('asks for the field\'s values where a value is written, and writes each as the query reads it', () => {
    expect(querySuggestions('OS.Type = Win', fields)).toEqual({ from: 10, items: [], values: { field: 'OS.Type', search: 'Win', inList: false } });
    expect(querySuggestions('Hostname contains ', fields).values).toEqual({ field: 'Hostname', search: '', inList: false });
    expect(querySuggestions('IpAddresses in [10.0.0.0/8, 192', fields).values).toEqual({ field: 'IpAddresses', search: '192', inList: true });
    expect(querySuggestions('Colour = r', fields).values).toBeUndefined();
    expect(querySuggestions('LastSeen last now', fields).values).toBeUndefined();
    expect(valueSuggestions([{ value: 'Windows Server', count: 1200 }, { value: 'Linux', count: 3 }, { value: '42', count: 1 }], false).map((item) => item.insert)).toEqual(['"Windows Server" ', 'Linux ', '42 ']);
    expect(valueSuggestions([{ value: 'a,b', count: 1 }], true)[0].insert).toBe('"a,b"');
    expect(labels('Hostname = "open')).toEqual([]);
  });
});

describe('the query bar suggestions', () => {
  beforeEach(() => signInWith(['users.view_devices', 'users.view_device_detail']));
  afterEach(() => vi.unstubAllGlobals());

  it('is a keyboard combobox: arrows choose, Tab or Enter accept, Escape closes, and Enter without a choice runs the query', async () => {
    const calls = serveApi({
      'GET /configurations/discovery': { body: { field_map: { Hostname: { value_type: 'text', label: 'Host name', adapter: 'cartograph' }, LastSeen: { value_type: 'date', label: 'Last seen', adapter: 'cartograph' } } } },
      'POST /devices/devices': { body: { count: 0, results: [], index_id: 12 } },
      'GET /devices/values': { body: { field: 'Hostname', index_id: 12, values: [{ value: 'web-01', count: 2 }, { value: 'web server', count: 1 }] } },
    });
    renderPage(DeviceInventory, '/device-inventory', '/device-inventory');
    await screen.findByText(/No devices match/);
    const input = screen.getByRole('combobox', { name: 'Query' }) as HTMLInputElement;
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: 'la' } });
    const options = () => within(screen.getByRole('listbox', { name: 'Query suggestions' })).getAllByRole('option');
    expect(options().map((option) => option.textContent)).toEqual(['Last seen LastSeen']);
    fireEvent.keyDown(input, { key: 'Tab' });
    expect(input.value).toBe('LastSeen ');
    // The operators of a date field; the arrows move the highlight and Enter takes it.
    expect(options().map((option) => option.firstChild?.textContent)).toEqual(['last', '>', '>=', '<', '<=', 'exists']);
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(input.getAttribute('aria-activedescendant')).toBe(options()[1].id);
    expect(options()[1].getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(input.value).toBe('LastSeen > ');
    expect(calls.filter((call) => call.url === '/devices/devices')).toHaveLength(1);

    fireEvent.change(input, { target: { value: 'LastSeen ' } });
    expect(input.getAttribute('aria-expanded')).toBe('true');
    // Nothing chosen with the arrows: Enter is left to the form (it runs the query), not taken by the list.
    expect(fireEvent.keyDown(input, { key: 'Enter' })).toBe(true);
    expect(input.value).toBe('LastSeen ');
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(input.getAttribute('aria-expanded')).toBe('false');

    // After `Field =`, the values the server counts in the snapshot, holding the typed text.
    fireEvent.change(input, { target: { value: 'Hostname = we' } });
    await waitFor(() => expect(options().map((option) => option.firstChild?.textContent)).toEqual(['web-01', 'web server']));
    expect(calls.find((call) => call.url.startsWith('/devices/values'))?.url).toBe('/devices/values?field=Hostname&search=we');
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    fireEvent.keyDown(input, { key: 'Tab' });
    expect(input.value).toBe('Hostname = "web server" ');

    fireEvent.change(input, { target: { value: 'LastSeen last now-7d' } });
    fireEvent.submit(input.closest('form')!);
    // The list's own request (a page), not the live count's.
    await waitFor(() => expect(calls.filter((call) => call.url === '/devices/devices').at(-1)?.body).toMatchObject({ query: 'LastSeen last now-7d', page: 1 }));
  });
});
