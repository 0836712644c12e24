import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeviceRelations } from '../../../src/web/pages/inventories/DeviceRelations';
import { serveApi } from '../app/helpers';
import { queryOf, signInWith } from './pageSession';
import { renderPage } from './renderPage';

const userRelation = {
  id: 1, kind: 'device-user', relation: 'last logged in', index_id: 12, adapters: ['crowdstrike'],
  device: { id: 'a1', name: 'web-01' }, related: { id: 'u1', name: 'ada', reported_as: 'CORP\\ada', entity: 'user' },
};
const deviceRelation = {
  id: 2, kind: 'device-device', relation: 'hosted on', index_id: 12, adapters: ['vmware'],
  device: { id: 'a1', name: 'web-01' }, related: { id: null, name: 'esx-07', reported_as: 'esx-07', entity: 'device' },
};
const listCalls = (calls: ReturnType<typeof serveApi>) => calls.filter((call) => call.url.startsWith('/devices/relations')).map((call) => queryOf(call.url));

beforeEach(() => {
  signInWith(['devices.view_devicerelation', 'users.view_device_detail', 'users.view_user_inventory_detail']);
});
afterEach(() => vi.unstubAllGlobals());

describe('the device relations page', () => {
  it('lists device–user and device–device relations with links to the assets the snapshot knows', async () => {
    const calls = serveApi({ 'GET /devices/relations': { body: { count: 2, results: [userRelation, deviceRelation] } } });
    renderPage(DeviceRelations, '/device-inventory/relations', '/device-inventory/relations');
    const ada = await screen.findByRole('link', { name: 'ada' });
    expect(ada.getAttribute('href')).toBe('/user-inventory/detail/u1/12');
    const adaRow = ada.closest('tr')!;
    expect(within(adaRow).getByText('last logged in')).toBeTruthy();
    expect(within(adaRow).getByText('(reported as CORP\\ada)', { exact: false })).toBeTruthy();
    expect(within(adaRow).getByRole('link', { name: 'web-01' }).getAttribute('href')).toBe('/device-inventory/detail/a1/12');
    const esxRow = screen.getByText('esx-07').closest('tr')!;
    expect(within(esxRow).queryByRole('link', { name: 'esx-07' })).toBeNull();
    expect(within(esxRow).getByText('(not in the inventory)', { exact: false })).toBeTruthy();
    expect(screen.getByText('2 relation(s)')).toBeTruthy();
    expect(listCalls(calls)[0]).toEqual({ page: '1', size: '50' });
  });

  it('filters by kind, by search text and by one device, and pages', async () => {
    // A page of three rows stands for a full one: the count (120) is what the pagination reads.
    const many = [1, 2, 3].map((id) => ({ ...userRelation, id }));
    const calls = serveApi({ 'GET /devices/relations': { body: { count: 120, results: many } } });
    renderPage(DeviceRelations, '/device-inventory/relations', '/device-inventory/relations');
    await screen.findAllByRole('link', { name: 'ada' });
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'device-user' } });
    await waitFor(() => expect(listCalls(calls).at(-1)).toEqual({ page: '1', size: '50', kind: 'device-user' }));
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(listCalls(calls).at(-1)).toMatchObject({ page: '2', kind: 'device-user' }));
    fireEvent.change(screen.getByLabelText('Search device or related name'), { target: { value: 'ada' } });
    await waitFor(() => expect(listCalls(calls).at(-1)).toEqual({ page: '1', size: '50', kind: 'device-user', search: 'ada' }));
    fireEvent.click(screen.getAllByRole('button', { name: 'Only the relations of web-01' })[0]);
    await waitFor(() => expect(listCalls(calls).at(-1)).toMatchObject({ device: 'a1', page: '1' }));
    expect(await screen.findByText('Relations of', { exact: false })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show every device' }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.device).toBeUndefined());
  });

  it('reads the device filter from the link that opened the page', async () => {
    const calls = serveApi({ 'GET /devices/relations': { body: { count: 1, results: [userRelation] } } });
    renderPage(DeviceRelations, '/device-inventory/relations', '/device-inventory/relations?device=a1&kind=device-user');
    await screen.findByRole('link', { name: 'ada' });
    expect(listCalls(calls)[0]).toEqual({ page: '1', size: '50', kind: 'device-user', device: 'a1' });
  });
});
