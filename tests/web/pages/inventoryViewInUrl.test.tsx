import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeviceInventory } from '../../../src/web/pages/inventories/DeviceInventory';
import { serveApi } from '../app/helpers';
import { giveVirtualTablesHeight } from '../layout';
import { signInWith } from './pageSession';
import { renderPage } from './renderPage';

giveVirtualTablesHeight();

const fieldMap = {
  Hostname: { value_type: 'text', label: 'Hostname', adapter: 'cartograph' },
  'OS.Type': { value_type: 'text', label: 'OS Type', adapter: 'cartograph' },
  Adapters: { value_type: 'text', label: 'Adapters', adapter: 'cartograph' },
};
const web01 = { PrimaryKey: ['a1'], Hostname: ['web-01'], 'OS.Type': ['Linux'], Adapters: ['okta'] };
type SearchBody = { query: string; fields: string[]; page: number; size: number; ordering: unknown[] };

beforeEach(() => {
  signInWith(['users.view_devices', 'users.view_device_detail']);
  localStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

function serveInventory() {
  const calls = serveApi({
    'GET /configurations/discovery': { body: { field_map: fieldMap } },
    'POST /devices/devices': { body: { count: 240, results: [web01], index_id: 12 } },
  });
  return () => calls.filter((call) => call.method === 'POST' && call.url === '/devices/devices').map((call) => call.body as SearchBody);
}

describe('the device inventory keeps its view in the URL', () => {
  it('opens on the query, sort, page, page size and columns a shared link names', async () => {
    const searches = serveInventory();
    renderPage(DeviceInventory, '/device-inventory', '/device-inventory?query=OS.Type+%3D+Linux&sort=-Hostname&page=2&size=20&columns=Hostname,OS.Type');
    await screen.findByText('web-01');
    expect(searches().at(-1)).toEqual({ query: 'OS.Type = Linux', fields: ['Hostname', 'OS.Type'], page: 2, size: 20, ordering: [{ field: 'Hostname', order: 'desc' }] });
    expect(searches().every((body) => body.query === 'OS.Type = Linux')).toBe(true);
    expect((screen.getByLabelText('Query') as HTMLInputElement).value).toBe('OS.Type = Linux');
    expect(screen.queryByRole('columnheader', { name: /Adapters/ })).toBeNull();
    expect(screen.getByRole('columnheader', { name: /Hostname/ }).getAttribute('aria-sort')).toBe('descending');
  });

  it('resumes the stored view on a bare link and writes it into the URL in place, so a copied link carries it', async () => {
    localStorage.setItem('pconfig-device-inventory', JSON.stringify({ columns: ['Hostname', 'Adapters'], size: 100, query: 'Hostname = web*' }));
    const searches = serveInventory();
    const { router } = renderPage(DeviceInventory, '/device-inventory', '/device-inventory');
    await screen.findByText('web-01');
    await waitFor(() => expect(router.state.location.search).toEqual({ query: 'Hostname = web*', size: 100, columns: 'Hostname,Adapters' }));
    expect(router.history.length).toBe(1);
    // The Adapters column also asks for the connections it names.
    expect(searches()[0]).toMatchObject({ query: 'Hostname = web*', fields: ['Hostname', 'Adapters', 'Connections'], size: 100 });
  });

  it('keeps the columns a link leaves out from the stored configuration (a saved query opened by its link)', async () => {
    localStorage.setItem('pconfig-device-inventory', JSON.stringify({ columns: ['Hostname', 'Adapters'], size: 50 }));
    const searches = serveInventory();
    const { router } = renderPage(DeviceInventory, '/device-inventory', '/device-inventory?query=Adapters+%3D+okta');
    await screen.findByText('web-01');
    expect(searches()[0]).toMatchObject({ query: 'Adapters = okta', fields: ['Hostname', 'Adapters', 'Connections'] });
    await waitFor(() => expect(router.state.location.search).toEqual({ query: 'Adapters = okta', size: 50, columns: 'Hostname,Adapters' }));
    // The query leads, as in the links saved queries make.
    expect(router.history.location.search).toMatch(/^\?query=/);
  });

  it('makes each query, sort and page a history entry: back and forward show each again', async () => {
    const searches = serveInventory();
    const { router } = renderPage(DeviceInventory, '/device-inventory', '/device-inventory');
    await screen.findByText('web-01');
    fireEvent.change(screen.getByLabelText('Query'), { target: { value: 'OS.Type = Linux' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(router.state.location.search).toMatchObject({ query: 'OS.Type = Linux' }));
    fireEvent.click(screen.getByRole('columnheader', { name: /Hostname/ }).querySelector('button')!);
    await waitFor(() => expect(router.state.location.search).toMatchObject({ query: 'OS.Type = Linux', sort: 'Hostname' }));
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(searches().at(-1)).toMatchObject({ query: 'OS.Type = Linux', page: 2, ordering: [{ field: 'Hostname', order: 'asc' }] }));

    act(() => router.history.back());
    await waitFor(() => expect(searches().at(-1)).toMatchObject({ query: 'OS.Type = Linux', page: 1, ordering: [{ field: 'Hostname', order: 'asc' }] }));
    act(() => router.history.back());
    await waitFor(() => expect(router.state.location.search).not.toHaveProperty('sort'));
    act(() => router.history.back());
    await waitFor(() => expect((screen.getByLabelText('Query') as HTMLInputElement).value).toBe(''));
    expect(router.state.location.search).not.toHaveProperty('query');
    act(() => router.history.forward());
    await waitFor(() => expect((screen.getByLabelText('Query') as HTMLInputElement).value).toBe('OS.Type = Linux'));
  });
});
