import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeviceTagForm } from '../../../src/web/pages/inventories/DeviceTagForm';
import { DeviceTags } from '../../../src/web/pages/inventories/DeviceTags';
import { serveApi } from '../app/helpers';
import { queryOf, signInWith, withPermissions } from './pageSession';
import { renderPage } from './renderPage';

const pci = { id: 3, name: 'pci scope', description: 'Cardholder-data environment', color: '#c0392b', device_count: 42, created_at: '2026-11-20T10:00:00Z', updated_at: '2026-11-20T10:00:00Z' };
const lab = { id: 4, name: 'lab', description: '', color: '#5b6b8c', device_count: 0, created_at: '2026-11-21T10:00:00Z', updated_at: '2026-11-21T10:00:00Z' };
const allTagPermissions = ['devices.view_tag', 'devices.add_tag', 'devices.change_tag', 'devices.delete_tag', 'users.view_devices'];


beforeEach(() => {
  signInWith(allTagPermissions);
});
afterEach(() => vi.unstubAllGlobals());

describe('the device tags page', () => {
  it('lists tags with their device counts and opens the devices of a tag with the query Tags = <name>', async () => {
    const calls = serveApi({ 'GET /devices/tags': { body: { count: 2, results: [lab, pci] } } });
    renderPage(DeviceTags, '/device-inventory/tags', '/device-inventory/tags');
    const link = await screen.findByRole('link', { name: 'Devices tagged pci scope' });
    expect(queryOf(link.getAttribute('href') ?? '').query).toBe('Tags = "pci scope"');
    const row = link.closest('tr')!;
    expect(within(row).getByText('42')).toBeTruthy();
    expect(within(row).getByText('Cardholder-data environment')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'Edit pci scope' }).getAttribute('href')).toBe('/device-inventory/tags/edit/3');
    expect(queryOf(calls[0].url)).toMatchObject({ page: '1', size: '50', ordering: 'name' });

    fireEvent.change(screen.getByLabelText('Search tags'), { target: { value: 'pci' } });
    await waitFor(() => expect(calls.some((call) => queryOf(call.url).search === 'pci')).toBe(true));
  });

  it('offers no create, edit or delete to a user who may only view tags', async () => {
    withPermissions(['devices.view_tag']);
    serveApi({ 'GET /devices/tags': { body: { count: 1, results: [pci] } } });
    renderPage(DeviceTags, '/device-inventory/tags', '/device-inventory/tags');
    await screen.findByRole('link', { name: 'Devices tagged pci scope' });
    expect(screen.queryByRole('button', { name: 'New tag' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Edit pci scope' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete pci scope' })).toBeNull();
  });

  it('creates a tag and shows the server\'s error under the name when the name is taken', async () => {
    const calls = serveApi({
      'GET /devices/tags': { body: { count: 1, results: [pci] } },
      'POST /devices/tags': [{ status: 400, body: { name: ['A tag with this name already exists.'] } }, { status: 201, body: { ...lab, id: 9, name: 'dmz' } }],
    });
    renderPage(DeviceTags, '/device-inventory/tags', '/device-inventory/tags');
    fireEvent.click(await screen.findByRole('button', { name: 'New tag' }));
    const dialog = screen.getByRole('dialog', { name: 'New tag' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('The Name field is required.')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: 'PCI scope' } });
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'In scope' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('A tag with this name already exists.')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ name: 'PCI scope', description: 'In scope', color: '#5b6b8c' });

    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: ' dmz ' } });
    fireEvent.change(within(dialog).getByLabelText('Colour value'), { target: { value: '#c0392b' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New tag' })).toBeNull());
    expect(calls.filter((call) => call.method === 'POST').at(-1)?.body).toEqual({ name: 'dmz', description: 'In scope', color: '#c0392b' });
  });

  it('deletes a tag only after the confirmation that says how many devices lose it', async () => {
    const calls = serveApi({ 'GET /devices/tags': { body: { count: 1, results: [pci] } }, 'DELETE /devices/tags/3': { status: 204 } });
    renderPage(DeviceTags, '/device-inventory/tags', '/device-inventory/tags');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete pci scope' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete the tag "pci scope"?' });
    expect(within(confirm).getByText(/comes off 42 device\(s\)/)).toBeTruthy();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE' && call.url === '/devices/tags/3')).toBe(true));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });
});

describe('the device tag form', () => {
  it('loads the tag, sends the renamed tag with PUT, and shows server field errors under their fields', async () => {
    const calls = serveApi({
      'GET /devices/tags/3': { body: pci },
      'PUT /devices/tags/3': [{ status: 400, body: { name: ['A tag with this name already exists.'], color: ['The colour is not valid.'] } }, { body: { ...pci, name: 'pci' } }],
    });
    renderPage(DeviceTagForm, '/device-inventory/tags/edit/$tagId', '/device-inventory/tags/edit/3');
    await screen.findByRole('heading', { name: 'Edit pci scope' });
    expect((screen.getByLabelText(/^Name/) as HTMLInputElement).value).toBe('pci scope');
    expect((screen.getByLabelText('Colour value') as HTMLInputElement).value).toBe('#c0392b');
    expect(queryOf(screen.getByRole('link', { name: '42 device(s)' }).getAttribute('href') ?? '').query).toBe('Tags = "pci scope"');

    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'lab' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A tag with this name already exists.')).toBeTruthy();
    expect(screen.getByText('The colour is not valid.')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ name: 'lab', description: 'Cardholder-data environment', color: '#c0392b' });

    fireEvent.change(screen.getByLabelText('Colour value'), { target: { value: 'red' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The colour is a hex value such as #c0392b.')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(1);

    fireEvent.change(screen.getByLabelText('Colour value'), { target: { value: '#112233' } });
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'pci' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(2));
    expect(calls.filter((call) => call.method === 'PUT')[1].body).toEqual({ name: 'pci', description: 'Cardholder-data environment', color: '#112233' });
  });
});
