import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getNotifications } from '../../../src/web/app/notifications/notifications';
import { updateSession } from '../../../src/web/app/session/session';
import { ConnectionDetail } from '../../../src/web/pages/adapters/ConnectionDetail';
import { Connections } from '../../../src/web/pages/adapters/Connections';
import { serveApi } from '../app/helpers';
import { signInWith } from './pageSession';
import { renderPage } from './renderPage';

const okta = {
  id: 7, adapter: 'okta', adapter_name: 'Okta', name: 'Okta production', description: '', status: 3, status_detail: 'HTTP 401 from /api/v1/users',
  enabled: true, connector: 1, connector_name: 'Default', last_checked_at: '2026-11-20T10:00:00Z', created_at: '2026-11-01T10:00:00Z', updated_at: '2026-11-01T10:00:00Z',
  option_connections: [{ name: 'base_url', typed_value: 'https://acme.okta.com', is_sensitive: false }, { name: 'auth', typed_value: { auth_type: 'api_token', token: '**********' }, is_sensitive: false }],
};

beforeEach(() => {
  signInWith(['adapters.view_connection', 'adapters.change_connection', 'adapters.delete_connection']);
});
afterEach(() => vi.unstubAllGlobals());

describe('the connections pages', () => {
  it('lists connections with adapter, status and connector, filtered by the adapter in the URL', async () => {
    const calls = serveApi({ 'GET /adapters/connections': { body: { count: 1, next: null, previous: null, results: [okta] } } });
    renderPage(Connections, '/adapters/connections', '/adapters/connections?adapter=okta');
    await screen.findByRole('link', { name: 'Okta production' });
    expect(screen.getByText('Error')).toBeTruthy();
    expect(screen.getByText('Default')).toBeTruthy();
    expect(calls[0].url).toContain('adapter=okta');
    expect(calls[0].url).toContain('size=50');
  });

  it('offers no Add connection for an adapter that cannot fetch yet, and offers it for one that can', async () => {
    updateSession({ adapters: [
      { id: 'azure', name: 'Microsoft Azure', slug: 'azure', categories: ['device'], status: 4, can_fetch: false, entities: [] },
      { id: 'okta', name: 'Okta', slug: 'okta', categories: ['user'], status: 3, can_fetch: true, entities: ['user'] },
    ] });
    serveApi({ 'GET /adapters/connections': { body: { count: 0, next: null, previous: null, results: [] } } });
    const azure = renderPage(Connections, '/adapters/connections', '/adapters/connections?adapter=azure');
    await screen.findByRole('heading', { name: 'Connections' });
    expect(screen.queryByRole('link', { name: 'Add connection' })).toBeNull();
    azure.unmount();
    renderPage(Connections, '/adapters/connections', '/adapters/connections?adapter=okta');
    expect((await screen.findByRole('link', { name: 'Add connection' })).getAttribute('href')).toBe('/adapters/connection/create/okta');
  });

  it('shows a connection with its secrets masked, and tests it on request', async () => {
    const calls = serveApi({
      'GET /adapters/connections/7': { body: okta },
      'POST /adapters/test/7': { body: { success: false, reason: 'unauthorized', detail: 'Okta answered 401: the API token was refused.' } },
    });
    renderPage(ConnectionDetail, '/adapters/connections/$id', '/adapters/connections/7');
    await screen.findByRole('heading', { name: 'Okta production' });
    // Settings read as the form shows them: labelled by their titles, never as JSON.
    expect(await screen.findByText('Okta domain')).toBeTruthy();
    expect(screen.getByText('Authentication').nextElementSibling?.textContent).toMatch(/^Authentication method: API token; /);
    expect(screen.queryByText(/\{"auth_type"/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(getNotifications().map((notification) => notification.text)).toContain('Okta answered 401: the API token was refused.'));
    expect(calls.some((call) => call.method === 'POST' && call.url.endsWith('/adapters/test/7'))).toBe(true);
  });
});
