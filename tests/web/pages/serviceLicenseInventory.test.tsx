import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DeviceDetail } from '../../../src/web/pages/inventories/DeviceDetail';
import { LicenseDetail } from '../../../src/web/pages/inventories/LicenseDetail';
import { LicenseInventory } from '../../../src/web/pages/inventories/LicenseInventory';
import { ServiceDetail } from '../../../src/web/pages/inventories/ServiceDetail';
import { serveApi } from '../app/helpers';
import { giveVirtualTablesHeight } from '../layout';
import { queryOf, signInWith } from './pageSession';
import { renderPage } from './renderPage';

giveVirtualTablesHeight();

const licenseFieldMap = {
  Name: { value_type: 'text', label: 'Name', adapter: 'cartograph' },
  SeatsPurchased: { value_type: 'long', label: 'Seats purchased', adapter: 'cartograph' },
  SeatsUsed: { value_type: 'long', label: 'Seats used', adapter: 'cartograph' },
  OverUse: { value_type: 'long', label: 'Over-use', adapter: 'cartograph' },
};
const e3 = {
  PrimaryKey: ['b8ee8e389128b8ef9d50'], Name: ['Microsoft 365 E3'], Vendor: ['Microsoft'], SoftwareName: ['Microsoft 365 Apps for enterprise'], SoftwareId: ['a0e561d4b35b9dabc166'],
  SeatsPurchased: [1067], SeatsUsed: [1228], SeatsFree: [0], OverUse: [161], OverUsed: [true], InstalledDevices: [1228], AssignedUsers: [1], ExpirationDate: ['2027-06-30T00:00:00.000Z'], Cost: [460944], Currency: ['EUR'],
};
const sshd = { PrimaryKey: ['3c2b1a098f7e4d6cb5a4'], Name: ['sshd'], Kinds: ['system'], Ports: [22], DeviceCount: [2], index_id: 7 };
const place = (device: string | null, hostname: string | null, state: string, port: number | null) => ({
  service_id: sshd.PrimaryKey[0], service_name: 'sshd', display_name: 'OpenSSH server daemon', device_id: device, hostname, os_type: 'Linux', host: hostname, port, protocol: port ? 'tcp' : null,
  state, start_type: 'automatic', account: 'root', product: null, version: null, banner: null, path: null, last_seen: null, adapters: ['crowdstrike'], index_id: 7,
});

describe('the license inventory', () => {
  it('lists licenses with their seats and searches the license inventory', async () => {
    signInWith(['licenses.view_license']);
    const calls = serveApi({ 'GET /configurations/discovery': { body: { license_field_map: licenseFieldMap } }, 'POST /licenses/licenses': { body: { count: 1, results: [e3], index_id: 7 } } });
    renderPage(LicenseInventory, '/license-inventory', '/license-inventory');
    await screen.findByText('Microsoft 365 E3');
    expect(screen.getByText('161')).toBeTruthy();
    expect(calls.find((call) => call.url === '/licenses/licenses')?.body).toMatchObject({ fields: expect.arrayContaining(['Name', 'SeatsPurchased', 'SeatsUsed', 'OverUse']) });
  });

  it('shows an over-used license: its over-use, the users it is assigned to and the devices that have its software', async () => {
    signInWith(['licenses.view_license', 'users.view_applications', 'users.view_user_inventory_detail']);
    const calls = serveApi({
      'GET /configurations/discovery': { body: { license_field_map: licenseFieldMap } },
      [`POST /licenses/licenses/${e3.PrimaryKey[0]}`]: { body: { ...e3, index_id: 7, sources: [{ record_key: '5:license:#6', adapter: 'csvfile', connection_id: 5, connection_name: 'CMDB software contracts', fields: { LicenseName: ['Microsoft 365 E3'], SeatsPurchased: ['1067'] } }] } },
      'GET /licenses/assignments': { body: { count: 1, results: [{ license_id: e3.PrimaryKey[0], license_name: 'Microsoft 365 E3', user_id: 'aaaaaaaaaaaaaaaaaaaa', reported_name: 'alice', username: 'alice', display_name: 'Alice Liddell', email: 'alice@corp.example.com', adapter: 'azure-entra', index_id: 7 }] } },
      'GET /appinventory/installations': { body: { count: 0, results: [] } },
    });
    renderPage(LicenseDetail, '/detail/$licenseId/$discoveryId', `/detail/${e3.PrimaryKey[0]}/7`);
    await screen.findByRole('heading', { name: 'Microsoft 365 E3' });
    expect(screen.getByText('Over-used by 161')).toBeTruthy();
    // An amount through the one number format: grouped, with cents and its currency code.
    expect(screen.getByText('Cost').nextElementSibling?.textContent).toBe('460,944.00 EUR');
    fireEvent.click(screen.getByRole('tab', { name: /Assigned users/ }));
    const users = await screen.findByRole('table', { name: 'Users this license is assigned to' });
    expect(await within(users).findByRole('link', { name: 'Alice Liddell' })).toBeTruthy();
    expect(queryOf(calls.find((call) => call.url.startsWith('/licenses/assignments'))!.url)).toMatchObject({ license: e3.PrimaryKey[0], index_id: '7' });
    fireEvent.click(screen.getByRole('tab', { name: /Devices/ }));
    await screen.findByText('No device reports this software');
    expect(queryOf(calls.find((call) => call.url.startsWith('/appinventory/installations'))!.url)).toMatchObject({ software: e3.SoftwareId[0] });
    fireEvent.click(screen.getByRole('tab', { name: /Entitlements/ }));
    expect(await screen.findByText('CMDB software contracts')).toBeTruthy();
  });

  it('flags an expired license Expired, never with free seats, and says which count its seats used are and why', async () => {
    signInWith(['licenses.view_license']);
    const expired = {
      ...e3, SeatsUsed: [40], SeatsFree: [0], OverUse: [0], OverUsed: [false], Expired: [true], ExpirationDate: ['2025-01-31T00:00:00.000Z'], SeatType: ['user'], SeatsUsedBy: ['assigned_users'],
      SeatsUsedReason: ['A seat is a user: seats used are the users it is assigned to (40), the largest against 1,228 devices with the software.'],
    };
    serveApi({
      'GET /configurations/discovery': { body: { license_field_map: licenseFieldMap } },
      [`POST /licenses/licenses/${e3.PrimaryKey[0]}`]: { body: { ...expired, index_id: 7, sources: [] } },
    });
    renderPage(LicenseDetail, '/detail/$licenseId/$discoveryId', `/detail/${e3.PrimaryKey[0]}/7`);
    await screen.findByRole('heading', { name: 'Microsoft 365 E3' });
    expect(screen.getByText('Expired')).toBeTruthy();
    expect(screen.queryByText(/^[\d,]+ free$/)).toBeNull();
    expect(screen.queryByText('Every seat in use')).toBeNull();
    expect(screen.getByText('Assigned users (per user)')).toBeTruthy();
    expect(screen.getByText(expired.SeatsUsedReason[0])).toBeTruthy();
  });

  it('flags a license whose expiry date has passed Expired even before the next discovery says so', async () => {
    signInWith(['licenses.view_license']);
    serveApi({
      'GET /configurations/discovery': { body: { license_field_map: licenseFieldMap } },
      [`POST /licenses/licenses/${e3.PrimaryKey[0]}`]: { body: { ...e3, SeatsUsed: [1], SeatsFree: [1066], OverUse: [0], Expired: [false], ExpirationDate: ['2020-01-31T00:00:00.000Z'], index_id: 7, sources: [] } },
    });
    renderPage(LicenseDetail, '/detail/$licenseId/$discoveryId', `/detail/${e3.PrimaryKey[0]}/7`);
    await screen.findByRole('heading', { name: 'Microsoft 365 E3' });
    expect(screen.getByText('Expired')).toBeTruthy();
    expect(screen.queryByText('1,066 free')).toBeNull();
  });
});

describe('the service inventory', () => {
  it('shows where a service runs: devices, state, start type, account and port', async () => {
    signInWith(['users.view_services', 'users.view_service_detail', 'users.view_device_detail']);
    const calls = serveApi({
      'GET /configurations/discovery': { body: { service_field_map: {} } },
      [`POST /services/services/${sshd.PrimaryKey[0]}`]: { body: sshd },
      'GET /services/instances': { body: { count: 2, results: [place('d1d1d1d1d1d1d1d1d1d1', 'srv-0003', 'stopped', null), place('d2d2d2d2d2d2d2d2d2d2', 'ws-0002', 'running', 22)] } },
    });
    renderPage(ServiceDetail, '/detail/$primaryKey/$discoveryId', `/detail/${sshd.PrimaryKey[0]}/7`);
    await screen.findByRole('heading', { name: 'sshd' });
    const places = await screen.findByRole('table', { name: 'Where this service runs' });
    expect(await within(places).findByRole('link', { name: 'ws-0002' })).toBeTruthy();
    expect(within(places).getByText('22/tcp')).toBeTruthy();
    expect(within(places).getByText('stopped')).toBeTruthy();
    expect(queryOf(calls.find((call) => call.url.startsWith('/services/instances'))!.url)).toMatchObject({ service: sshd.PrimaryKey[0] });
  });

  it('gives the device detail a services and open ports panel, read by device', async () => {
    const device = { PrimaryKey: ['d2d2d2d2d2d2d2d2d2d2'], Hostname: ['ws-0002'], index_id: 7, preferred: {}, merge_reasons: [], relations: [], sources: [] };
    signInWith(['users.view_devices', 'users.view_device_detail', 'users.view_services', 'users.view_service_detail']);
    const calls = serveApi({
      'GET /configurations/discovery': { body: { field_map: {} } },
      'POST /devices/devices/d2d2d2d2d2d2d2d2d2d2': { body: device },
      'GET /services/instances': { body: { count: 1, results: [place('d2d2d2d2d2d2d2d2d2d2', 'ws-0002', 'running', 22)] } },
    });
    renderPage(DeviceDetail, '/detail/$deviceId/$discoveryId', '/detail/d2d2d2d2d2d2d2d2d2d2/7');
    await screen.findByRole('heading', { name: 'ws-0002' });
    fireEvent.click(screen.getByRole('tab', { name: 'Services and open ports' }));
    const panel = await screen.findByRole('table', { name: 'Services and open ports' });
    expect(await within(panel).findByRole('link', { name: 'sshd' })).toBeTruthy();
    expect(within(panel).getByText('22/tcp')).toBeTruthy();
    expect(queryOf(calls.find((call) => call.url.startsWith('/services/instances'))!.url)).toMatchObject({ device: 'd2d2d2d2d2d2d2d2d2d2', index_id: '7' });
  });
});
