import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DeviceDetail } from '../../../src/web/pages/inventories/DeviceDetail';
import { serveApi } from '../app/helpers';
import { giveVirtualTablesHeight } from '../layout';
import { queryOf, signInWith } from './pageSession';
import { renderPage } from './renderPage';

giveVirtualTablesHeight();

const device = { PrimaryKey: ['d1d1d1d1d1d1d1d1d1d1'], Hostname: ['ws-000042'], index_id: 7, preferred: {}, merge_reasons: [], relations: [], sources: [] };
const map = {
  index_id: 7, device: { id: 'd1d1d1d1d1d1d1d1d1d1', name: 'ws-000042' },
  links: [
    { node: { id: 's1s1s1s1s1s1s1s1s1s1', name: 'sw-access-01', entity: 'device' }, relation: 'plugged into switch', direction: 'out', port: 'GigabitEthernet1/0/43', vlan: '10' },
    { node: { id: null, name: 'printer-7', entity: 'device' }, relation: 'connected to', direction: 'in', port: null, vlan: null },
    { node: { id: 'u1u1u1u1u1u1u1u1u1u1', name: 'Ada Lovelace', entity: 'user' }, relation: 'last used by', direction: 'out', port: null, vlan: null },
  ],
  software: [{ id: 'p1p1p1p1p1p1p1p1p1p1', name: 'Google Chrome', entity: 'software' }],
  more: { neighbours: 0, users: 0, software: 4 },
};
const detailPermissions = ['users.view_devices', 'users.view_device_detail', 'users.view_user_inventory_detail', 'users.view_applications', 'users.view_application_detail'];

async function openMap() {
  renderPage(DeviceDetail, '/detail/$deviceId/$discoveryId', '/detail/d1d1d1d1d1d1d1d1d1d1/7');
  await screen.findByRole('heading', { name: 'ws-000042' });
  fireEvent.click(screen.getByRole('tab', { name: 'Dependency map' }));
}

describe('the device dependency map', () => {
  it('draws the device, its switch with port and VLAN, its neighbours, users and software, and lists them with links', async () => {
    signInWith([...detailPermissions, 'devices.view_devicerelation']);
    const calls = serveApi({
      'GET /configurations/discovery': { body: { field_map: {} } },
      'POST /devices/devices/d1d1d1d1d1d1d1d1d1d1': { body: device },
      'GET /devices/dependency-map': { body: map },
      'GET /appinventory/installations': { body: { count: 0, results: [] } },
    });
    await openMap();
    const graph = await screen.findByRole('img', { name: 'Dependency map of ws-000042: its neighbours, users and software' });
    // One node per neighbour, user and software product around the device, and the switch link labelled.
    expect(graph.querySelectorAll('.dependency-map__node')).toHaveLength(5);
    expect(graph.querySelectorAll('.dependency-map__node--user')).toHaveLength(1);
    expect(graph.querySelectorAll('.dependency-map__node--software')).toHaveLength(1);
    expect(within(graph).getByText('port GigabitEthernet1/0/43, VLAN 10')).toBeTruthy();
    expect([...graph.querySelectorAll('.dependency-map__node > text')].map((node) => node.textContent)).toEqual(['sw-access-01', 'printer-7', 'Ada Lovelace', 'Google Chrome', 'ws-000042']);

    const neighbours = screen.getByRole('heading', { name: 'Neighbours' }).closest('section')!;
    expect(within(neighbours).getByRole('link', { name: 'sw-access-01' }).getAttribute('href')).toBe('/device-inventory/detail/s1s1s1s1s1s1s1s1s1s1/7');
    expect(within(neighbours).getByText('plugged into switch (port GigabitEthernet1/0/43, VLAN 10)', { exact: false })).toBeTruthy();
    // A neighbour the snapshot does not know stays plain text; a link the other device reported says so.
    expect(within(neighbours).queryByRole('link', { name: 'printer-7' })).toBeNull();
    expect(within(neighbours).getByText('links to this device (connected to)', { exact: false })).toBeTruthy();
    const users = screen.getByRole('heading', { name: 'Users' }).closest('section')!;
    expect(within(users).getByRole('link', { name: 'Ada Lovelace' }).getAttribute('href')).toBe('/user-inventory/detail/u1u1u1u1u1u1u1u1u1u1/7');
    const software = screen.getByRole('heading', { name: 'Software' }).closest('section')!;
    expect(within(software).getByRole('link', { name: 'Google Chrome' })).toBeTruthy();
    expect(within(software).getByText('and 4 more (see Relations)')).toBeTruthy();
    expect(queryOf(calls.find((call) => call.url.startsWith('/devices/dependency-map'))!.url)).toEqual({ device: 'd1d1d1d1d1d1d1d1d1d1', index_id: '7' });
  });

  it('says what fills the map when nothing is linked to the device', async () => {
    signInWith([...detailPermissions, 'devices.view_devicerelation']);
    serveApi({
      'GET /configurations/discovery': { body: { field_map: {} } },
      'POST /devices/devices/d1d1d1d1d1d1d1d1d1d1': { body: device },
      'GET /devices/dependency-map': { body: { ...map, links: [], software: [], more: { neighbours: 0, users: 0, software: 0 } } },
    });
    await openMap();
    expect(await screen.findByText('No neighbours, users or software reported')).toBeTruthy();
    expect(screen.queryByRole('img', { name: /Dependency map of/ })).toBeNull();
  });

  it('is absent without the relations permission', async () => {
    signInWith(detailPermissions);
    serveApi({ 'GET /configurations/discovery': { body: { field_map: {} } }, 'POST /devices/devices/d1d1d1d1d1d1d1d1d1d1': { body: device } });
    renderPage(DeviceDetail, '/detail/$deviceId/$discoveryId', '/detail/d1d1d1d1d1d1d1d1d1d1/7');
    await screen.findByRole('heading', { name: 'ws-000042' });
    expect(screen.queryByRole('tab', { name: 'Dependency map' })).toBeNull();
  });
});
