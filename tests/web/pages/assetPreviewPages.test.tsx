import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { previewTarget } from '../../../src/web/pages/inventories/AssetPreviewPage';
import { DevicePreview } from '../../../src/web/pages/inventories/DevicePreview';
import { UserPreview } from '../../../src/web/pages/inventories/UserPreview';
import { serveApi } from '../app/helpers';
import { signInWith } from './pageSession';
import { renderPage } from './renderPage';

const configuration = {
  field_map: { Hostname: { value_type: 'text', label: 'Hostname', adapter: 'cartograph' }, 'OS.Type': { value_type: 'text', label: 'OS Type', adapter: 'cartograph' } },
  user_field_map: { Username: { value_type: 'text', label: 'Username', adapter: 'cartograph' }, Email: { value_type: 'text', label: 'Email', adapter: 'cartograph' } },
};
const asset = (fields: Record<string, unknown[]>, id: string, indexId: number) => ({ ...fields, PrimaryKey: [id], index_id: indexId, preferred: {}, merge_reasons: [], relations: [], sources: [{ record_key: '3:x', adapter: 'okta', connection_id: 3, fields: {} }] });

beforeEach(() => {
  signInWith(['users.view_devices', 'users.view_device_detail', 'users.view_user_inventory']);
});
afterEach(() => vi.unstubAllGlobals());

describe('the preview routes', () => {
  it('reads the id and snapshot from the raw query string, so ids that look like numbers stay text', () => {
    expect(previewTarget('?id=1e5&discoveryId=12')).toEqual({ id: '1e5', discoveryId: 12 });
    expect(previewTarget('?id=%22123%22')).toEqual({ id: '123', discoveryId: null });
    expect(previewTarget('?discoveryId=-3')).toEqual({ id: '', discoveryId: null });
  });

  it('shows the device named by ?id= of the snapshot named by discoveryId, with its details link', async () => {
    const calls = serveApi({ 'GET /configurations/discovery': { body: configuration }, 'POST /devices/devices/1e5': { body: asset({ Hostname: ['web-01'], 'OS.Type': ['Linux'] }, '1e5', 9) } });
    renderPage(DevicePreview, '/device-inventory/preview', '/device-inventory/preview?id=1e5&discoveryId=9');
    const preview = await screen.findByRole('complementary', { name: 'Preview of web-01' });
    await within(preview).findByText('Linux');
    expect(within(preview).getByRole('link', { name: 'Open details' }).getAttribute('href')).toBe('/device-inventory/detail/1e5/9');
    expect(calls.find((call) => call.url === '/devices/devices/1e5')?.body).toEqual({ index_id: 9 });
  });

  it('shows a user of the latest snapshot without a details link when the user may not open details', async () => {
    const calls = serveApi({ 'GET /configurations/discovery': { body: configuration }, 'POST /userinventory/users/u7': { body: asset({ Username: ['ada'], Email: ['ada@example.com'] }, 'u7', 12) } });
    renderPage(UserPreview, '/user-inventory/preview', '/user-inventory/preview?id=u7');
    const preview = await screen.findByRole('complementary', { name: 'Preview of ada' });
    await within(preview).findByText('ada@example.com');
    expect(within(preview).queryByRole('link', { name: 'Open details' })).toBeNull();
    expect(calls.find((call) => call.url === '/userinventory/users/u7')?.body).toEqual({ index_id: null });
  });

  it('says so when the link names no asset, and shows the server\'s answer for an unknown one', async () => {
    const calls = serveApi({ 'GET /configurations/discovery': { body: configuration } });
    const { unmount } = renderPage(DevicePreview, '/device-inventory/preview', '/device-inventory/preview');
    expect(await screen.findByText('No device chosen')).toBeTruthy();
    expect(calls.some((call) => call.url.startsWith('/devices/devices'))).toBe(false);
    unmount();
    renderPage(DevicePreview, '/device-inventory/preview', '/device-inventory/preview?id=gone');
    await waitFor(() => expect(screen.getByRole('complementary', { name: 'Preview of gone' }).textContent).toContain('Not found.'));
  });
});
