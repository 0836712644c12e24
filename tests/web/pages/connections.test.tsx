import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getNotifications } from '../../../src/web/app/notifications/notifications';
import { updateSession } from '../../../src/web/app/session/session';
import { ConnectionDetail } from '../../../src/web/pages/adapters/ConnectionDetail';
import { connectionStatusLook } from '../../../src/web/pages/adapters/ConnectionStatusBadge';
import { Connections } from '../../../src/web/pages/adapters/Connections';
import { serveApi } from '../app/helpers';
import { signInWith } from './pageSession';
import { renderPage } from './renderPage';

const okta = {
  id: 7, adapter: 'okta', adapter_name: 'Okta', name: 'Okta production', description: '', status: 3, status_detail: 'HTTP 401 from /api/v1/users',
  enabled: true, connector: 1, connector_name: 'Default', last_checked_at: '2026-11-20T10:00:00Z', tested_at: null, test_ok: null, test_detail: '', takes_upload: false, created_at: '2026-11-01T10:00:00Z', updated_at: '2026-11-01T10:00:00Z',
  option_connections: [{ name: 'base_url', typed_value: 'https://acme.okta.com', is_sensitive: false }, { name: 'auth', typed_value: { auth_type: 'api_token', token: '**********' }, is_sensitive: false }],
};

beforeEach(() => {
  signInWith(['adapters.view_connection', 'adapters.add_connection', 'adapters.change_connection', 'adapters.delete_connection']);
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

  it('offers no Add connection without adapters.add_connection', async () => {
    signInWith(['adapters.view_connection']);
    updateSession({ adapters: [{ id: 'okta', name: 'Okta', slug: 'okta', categories: ['user'], status: 3, can_fetch: true, entities: ['user'] }] });
    serveApi({ 'GET /adapters/connections': { body: { count: 1, next: null, previous: null, results: [okta] } } });
    renderPage(Connections, '/adapters/connections', '/adapters/connections?adapter=okta');
    await screen.findByRole('link', { name: 'Okta production' });
    // The adapter by its name, never its slug.
    expect(screen.getByText(/Connections of Okta/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Add connection' })).toBeNull();
  });

  it('says a new connection is not fetched yet, a passed test makes it Reachable (never Done), and a fetch gives it its result', () => {
    const fresh = { ...okta, status: 4, status_detail: '', last_checked_at: null };
    expect(connectionStatusLook(fresh)).toEqual({ tone: 'neutral', label: 'Not fetched yet' });
    expect(connectionStatusLook({ ...fresh, tested_at: '2026-11-21T10:00:00Z', test_ok: true })).toEqual({ tone: 'info', label: 'Reachable' });
    expect(connectionStatusLook({ ...fresh, tested_at: '2026-11-21T10:00:00Z', test_ok: false })).toEqual({ tone: 'danger', label: 'Unreachable' });
    // The later of the two speaks: a fetch after the test gives its own status, a test after the fetch says Reachable.
    expect(connectionStatusLook({ ...okta, status: 1, tested_at: '2026-11-19T10:00:00Z', test_ok: true })).toEqual({ tone: 'success', label: 'Done' });
    expect(connectionStatusLook({ ...okta, status: 1, tested_at: '2026-11-21T10:00:00Z', test_ok: true })).toEqual({ tone: 'info', label: 'Reachable' });
  });

  it('fetches now by starting a discovery, and uploads a new file for a file connection', async () => {
    signInWith(['adapters.view_connection', 'adapters.change_connection', 'discoveries.start_discovery']);
    vi.stubGlobal('XMLHttpRequest', RecordedUpload);
    RecordedUpload.sent = [];
    const csv = { ...okta, id: 9, adapter: 'csvfile', adapter_name: 'CSV file', name: 'Asset export', status: 4, status_detail: '', last_checked_at: null, tested_at: '2026-11-21T10:00:00Z', test_ok: true, test_detail: 'assets.csv can be read.', takes_upload: true, option_connections: [] };
    const calls = serveApi({ 'GET /adapters/connections/9': { body: csv }, 'POST /discoveries/discoveries': { status: 202, body: { id: 31, status: 'running' } } });
    renderPage(ConnectionDetail, '/adapters/connections/$id', '/adapters/connections/9');
    await screen.findByRole('heading', { name: 'Asset export' });
    expect(screen.getAllByText('Reachable').length).toBeGreaterThan(0);
    expect(screen.queryByText('Done')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Fetch now' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST' && call.url === '/discoveries/discoveries')).toBe(true));
    await waitFor(() => expect(getNotifications().map((notification) => notification.text)).toContain('A discovery started: it fetches every enabled connection, this one with it.'));

    const file = new File(['hostname\nws-1\n'], 'assets-december.csv', { type: 'text/csv' });
    fireEvent.change(screen.getByLabelText('File to upload'), { target: { files: [file] } });
    await waitFor(() => expect(RecordedUpload.sent).toHaveLength(1));
    expect(RecordedUpload.sent[0]).toMatchObject({ method: 'POST', url: '/adapters/connections/9/file' });
    expect((RecordedUpload.sent[0].body!.get('file') as File).name).toBe('assets-december.csv');
    RecordedUpload.sent[0].respond(200, { id: 9, file_name: 'assets-december.csv', size: 14, source: { source_type: 'upload', file_name: 'assets-december.csv' } });
    await waitFor(() => expect(getNotifications().map((notification) => notification.text)).toContain('assets-december.csv is uploaded: the next discovery reads it.'));
  });

  it('offers neither Fetch now nor Upload a new file without their permissions, nor Upload for a connection that reads no file', async () => {
    signInWith(['adapters.view_connection', 'adapters.change_connection']);
    serveApi({ 'GET /adapters/connections/7': { body: okta } });
    renderPage(ConnectionDetail, '/adapters/connections/$id', '/adapters/connections/7');
    await screen.findByRole('heading', { name: 'Okta production' });
    expect(screen.queryByRole('button', { name: 'Fetch now' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Upload a new file' })).toBeNull();
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

/** Records the uploads the page sends (the browser's XMLHttpRequest, which reports upload progress) and answers them. */
class RecordedUpload {
  static sent: RecordedUpload[] = [];
  method = '';
  url = '';
  body: FormData | null = null;
  status = 0;
  responseText = '';
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader() {}
  send(body: FormData) {
    this.body = body;
    RecordedUpload.sent.push(this);
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}
