import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DeviceDetail } from '../../../src/web/pages/inventories/DeviceDetail';
import { serveApi } from '../app/helpers';
import { giveVirtualTablesHeight } from '../layout';
import { queryOf, signInWith } from './pageSession';
import { renderPage } from './renderPage';

giveVirtualTablesHeight();

const device = { PrimaryKey: ['d2d2d2d2d2d2d2d2d2d2'], Hostname: ['web-01'], index_id: 7, preferred: {}, merge_reasons: [], relations: [], sources: [] };
const place = (certificate: string, name: string, host: string, port: number | null, installed: boolean) => ({
  certificate_id: certificate, certificate_name: name, host, port, sni: port ? name : null, device_id: device.PrimaryKey[0], device_name: 'web-01',
  chain: [], chain_verified: installed ? null : true, verification_error: null, tls_version: port ? 'TLSv1.3' : null, adapter: installed ? 'jsonfile' : 'tls-scanner', connection_id: 1, installed, index_id: 7,
});

describe('the device certificates panel', () => {
  it('lists the certificates a device serves and those installed on it, read by device', async () => {
    signInWith(['users.view_devices', 'users.view_device_detail', 'users.view_certificates', 'users.view_certificate_detail']);
    const calls = serveApi({
      'GET /configurations/discovery': { body: { field_map: {} } },
      'POST /devices/devices/d2d2d2d2d2d2d2d2d2d2': { body: device },
      'GET /certificates/places': { body: { count: 2, results: [place('c1c1c1c1c1c1c1c1c1c1', 'portal.corp.example', '10.0.0.5', 443, false), place('c2c2c2c2c2c2c2c2c2c2', 'web-01 machine', 'web-01', null, true)] } },
    });
    renderPage(DeviceDetail, '/detail/$deviceId/$discoveryId', '/detail/d2d2d2d2d2d2d2d2d2d2/7');
    await screen.findByRole('heading', { name: 'web-01' });
    fireEvent.click(screen.getByRole('tab', { name: 'Certificates' }));
    const panel = await screen.findByRole('table', { name: 'Certificates served by or installed on this device' });
    expect(await within(panel).findByRole('link', { name: 'portal.corp.example' })).toBeTruthy();
    expect(within(panel).getByText('Served')).toBeTruthy();
    expect(within(panel).getByText('Installed')).toBeTruthy();
    expect(queryOf(calls.find((call) => call.url.startsWith('/certificates/places'))!.url)).toMatchObject({ device: device.PrimaryKey[0], index_id: '7' });
  });

  it('is absent without the certificate permission', async () => {
    signInWith(['users.view_devices', 'users.view_device_detail']);
    serveApi({ 'GET /configurations/discovery': { body: { field_map: {} } }, 'POST /devices/devices/d2d2d2d2d2d2d2d2d2d2': { body: device } });
    renderPage(DeviceDetail, '/detail/$deviceId/$discoveryId', '/detail/d2d2d2d2d2d2d2d2d2d2/7');
    await screen.findByRole('heading', { name: 'web-01' });
    expect(screen.queryByRole('tab', { name: 'Certificates' })).toBeNull();
  });
});
