import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeOverlayList, currentOverlayList, filterOverlayItems } from '../../../src/web/app/overlay/overlayList';
import { openCommandPalette, type PaletteItem } from '../../../src/web/app/palette/commandPalette';
import { signInWith } from '../pages/pageSession';
import { serveApi } from './helpers';

afterEach(() => {
  closeOverlayList();
  vi.unstubAllGlobals();
});

const paletteItems = () => (currentOverlayList()?.items ?? []) as PaletteItem[];
const search = (text: string) => filterOverlayItems(paletteItems(), ['name'], text);

describe('the overlay search (Ctrl+K)', () => {
  it('finds CVEs by id or title and software by name, each leading to its detail, and saved software queries under the software inventory', async () => {
    signInWith(['users.view_devices', 'users.view_applications', 'users.view_avm_vulnerabilities', 'queries.view_query']);
    const calls = serveApi({
      'GET /queries/queries': { body: { count: 1, results: [{ id: 5, name: 'Browsers', type: 'application' }] } },
      'POST /devices/devices': { body: { count: 1, index_id: 12, results: [{ PrimaryKey: ['d1'], Hostname: ['web-01'] }] } },
      'POST /appinventory/applications': { body: { count: 1, index_id: 12, results: [{ PrimaryKey: ['s1'], Name: ['Google Chrome'] }] } },
      'POST /avm/vulnerabilities': { body: { count: 1, index_id: 12, results: [{ PrimaryKey: ['v1'], CveId: ['CVE-2021-44228'], Title: ['Log4Shell'] }] } },
    });
    openCommandPalette();
    await vi.waitFor(() => expect(search('CVE-2021').length).toBe(1));
    expect(search('CVE-2021')[0]).toEqual({ name: 'CVE-2021-44228 · Log4Shell', kind: 'vulnerability', to: '/vulnerability-inventory/detail/v1/12' });
    expect(search('log4shell').map((item) => item.to)).toEqual(['/vulnerability-inventory/detail/v1/12']);
    expect(search('chrome')).toEqual([{ name: 'Google Chrome', kind: 'software', to: '/software-inventory/detail/s1/12' }]);
    expect(search('web-01')).toEqual([{ name: 'web-01', kind: 'device', to: '/device-inventory/detail/d1/12' }]);
    expect(search('Browsers')).toEqual([{ name: 'Browsers', kind: 'query', to: '/software-inventory/saved-queries/edit/5' }]);
    expect(calls.find((call) => call.url === '/avm/vulnerabilities')?.body).toMatchObject({ fields: ['CveId', 'Title'] });
  });

  it('asks no inventory the user may not see', async () => {
    signInWith(['users.view_devices']);
    const calls = serveApi({ 'POST /devices/devices': { body: { count: 1, index_id: 12, results: [{ PrimaryKey: ['d1'], Hostname: ['web-01'] }] } } });
    openCommandPalette();
    await vi.waitFor(() => expect(search('web-01').length).toBe(1));
    expect(calls.map((call) => call.url)).toEqual(['/devices/devices']);
  });
});
