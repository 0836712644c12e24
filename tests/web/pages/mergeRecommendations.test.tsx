import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dismissAll, getNotifications } from '../../../src/web/app/notifications/notifications';
import { MergeRecommendations } from '../../../src/web/pages/inventories/MergeRecommendations';
import { serveApi } from '../app/helpers';
import { queryOf, signInWith, withPermissions } from './pageSession';
import { renderPage } from './renderPage';

const device = (id: string, hostname: string, ip: string, adapters: string[]) => ({ id, Hostname: [hostname], IpAddresses: [ip], 'OS.Type': ['Windows'], Adapters: adapters });
const first = { id: 7, score: 0.9, reasons: ['Same host name web-01', 'Same IP address 10.0.0.5'], index_id: 12, left: device('a1', 'web-01', '10.0.0.5', ['crowdstrike']), right: device('a2', 'WEB-01', '10.0.0.5', ['qualys']) };
const second = { id: 8, score: 0.5, reasons: ['Same host name db-02'], index_id: 12, left: device('b1', 'db-02', '10.0.0.9', ['crowdstrike']), right: device('b2', 'db-02', '10.1.0.9', ['cmdb']) };


beforeEach(() => {
  signInWith(['users.view_device_merge_recommendation', 'devices.merge_device', 'users.view_device_detail']);
  dismissAll();
});
afterEach(() => vi.unstubAllGlobals());

describe('the merge recommendations page', () => {
  it('shows each recommendation\'s score, reasons and the two devices\' key fields side by side', async () => {
    const calls = serveApi({ 'GET /devices/merge-recommendations': { body: { count: 2, results: [first, second] } } });
    renderPage(MergeRecommendations, '/device-inventory/merge-recommendations', '/device-inventory/merge-recommendations');
    const card = await screen.findByRole('article', { name: 'web-01 and WEB-01' });
    expect(within(card).getByText('Score 90%')).toBeTruthy();
    expect(within(card).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Same host name web-01', 'Same IP address 10.0.0.5']);
    const rows = within(card).getAllByRole('row').map((row) => Array.from(row.children).map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Field', 'web-01', 'WEB-01'],
      ['Hostname', 'web-01', 'WEB-01'],
      ['IP addresses', '10.0.0.5', '10.0.0.5'],
      ['OS type', 'Windows', 'Windows'],
      ['Sources', 'crowdstrike', 'qualys'],
    ]);
    expect(within(card).getByRole('link', { name: 'WEB-01' }).getAttribute('href')).toBe('/device-inventory/detail/a2/12');
    expect(screen.getByRole('article', { name: 'db-02 and db-02' })).toBeTruthy();
    expect(queryOf(calls[0].url)).toEqual({ page: '1', size: '20' });
  });

  it('accepts and rejects with a notification each, then reloads the list', async () => {
    const calls = serveApi({
      'GET /devices/merge-recommendations': [{ body: { count: 2, results: [first, second] } }, { body: { count: 1, results: [second] } }, { body: { count: 0, results: [] } }],
      'POST /devices/merge-recommendations/7/accept': { body: { id: 'm1', index_id: 12 } },
      'POST /devices/merge-recommendations/8/reject': { status: 204 },
    });
    renderPage(MergeRecommendations, '/device-inventory/merge-recommendations', '/device-inventory/merge-recommendations');
    fireEvent.click(await screen.findByRole('button', { name: 'Merge web-01 and WEB-01' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'web-01 and WEB-01' })).toBeNull());
    expect(getNotifications().at(-1)?.text).toBe('web-01 and WEB-01 were merged into one device.');
    fireEvent.click(screen.getByRole('button', { name: 'Keep db-02 and db-02 apart' }));
    expect(await screen.findByText('No merge recommendations')).toBeTruthy();
    expect(getNotifications().at(-1)?.text).toBe('db-02 and db-02 stay apart, now and in later discoveries.');
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.url)).toEqual(['/devices/merge-recommendations/7/accept', '/devices/merge-recommendations/8/reject']);
  });

  it('pages through recommendations and offers no decision without the merge permission', async () => {
    withPermissions(['users.view_device_merge_recommendation']);
    const calls = serveApi({ 'GET /devices/merge-recommendations': { body: { count: 45, results: [first] } } });
    renderPage(MergeRecommendations, '/device-inventory/merge-recommendations', '/device-inventory/merge-recommendations');
    const card = await screen.findByRole('article', { name: 'web-01 and WEB-01' });
    expect(within(card).queryByRole('button')).toBeNull();
    expect(within(card).queryByRole('link')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(queryOf(calls.at(-1)!.url)).toEqual({ page: '3', size: '20' }));
  });
});
