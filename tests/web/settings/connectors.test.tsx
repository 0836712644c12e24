import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearFieldErrors } from '../../../src/web/app/http';
import type { PageProps } from '../../../src/web/app/pageModules';
import { routeByPath } from '../../../src/web/app/routeTable';
import { updateSession } from '../../../src/web/app/session/session';
import { ConnectorForm } from '../../../src/web/pages/settings/ConnectorForm';
import { Connectors } from '../../../src/web/pages/settings/Connectors';
import { adminUser, freshSession, serveApi, tokenWith } from '../app/helpers';

const permissions = ['connectors.view_connector', 'connectors.add_connector', 'connectors.change_connector', 'connectors.delete_connector'];
const base = {
  description: '', token_issued_at: '2026-11-20T10:00:00Z', revoked_at: null, host: '', last_seen_at: null, last_error: '', last_error_at: null,
  error_count: 0, connection_count: 0, pending_jobs: 0, created_at: '2026-11-20T10:00:00Z', version: '',
};
const fallback = { ...base, id: 1, name: 'Default', kind: 'local', is_default: true, token_state: 'none', connection_count: 4 };
const plant = {
  ...base, id: 5, name: 'Plant Lyon', kind: 'remote', is_default: false, token_state: 'active', version: '0.1.0', host: 'lyon-collector-01',
  last_seen_at: '2026-11-25T10:00:00Z', connection_count: 2, error_count: 3, last_error: 'Connection 9: HTTP 401 from the file server', last_error_at: '2026-11-25T09:00:00Z',
};
const token = `cgc_5_${'k'.repeat(43)}`;

const renderAt = (Page: ComponentType<PageProps>, routePath: string, hash: string) => {
  window.location.hash = hash;
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <Page route={routeByPath(routePath)!} />
    </QueryClientProvider>,
  );
};

let navigations: { to: string }[];
beforeEach(() => {
  navigations = freshSession(tokenWith({})).navigations;
  clearFieldErrors();
  updateSession({ user: { ...adminUser, permissions } as never });
});
afterEach(() => vi.unstubAllGlobals());

describe('the connector pages', () => {
  it('lists the Default and remote connectors with kind, version, connections and errors', async () => {
    serveApi({ 'GET /connectors/connectors': { body: { count: 2, next: null, previous: null, results: [fallback, plant] } } });
    renderAt(Connectors, '/settings/connector', '#/settings/connector');
    const row = (await screen.findByText('Plant Lyon')).closest('tr')!;
    expect(within(row).getByText('Remote')).toBeTruthy();
    expect(within(row).getByText('0.1.0')).toBeTruthy();
    expect(within(row).getByText('2')).toBeTruthy();
    expect(within(row).getByTitle('Connection 9: HTTP 401 from the file server').textContent).toMatch(/^3 \(last /);
    const defaultRow = screen.getByText('Default').closest('tr')!;
    expect(within(defaultRow).getByText('Local')).toBeTruthy();
    expect(within(defaultRow).getByText('Built in')).toBeTruthy();
  });

  it('creates a connector and shows its token once, then opens its edit page', async () => {
    const calls = serveApi({ 'POST /connectors/connectors': [{ status: 400, body: { name: ['A connector with that name already exists.'] } }, { status: 201, body: { ...plant, token } }] });
    renderAt(ConnectorForm, '/settings/connector/create', '#/settings/connector/create');
    fireEvent.click(await screen.findByRole('button', { name: 'Create connector' }));
    expect(await screen.findByText('Name is required.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Plant Lyon' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create connector' }));
    expect(await screen.findByText('A connector with that name already exists.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create connector' }));
    expect((await screen.findByTestId('connector-token')).textContent).toBe(token);
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([{ name: 'Plant Lyon', description: '' }, { name: 'Plant Lyon', description: '' }]);
    fireEvent.click(screen.getByRole('button', { name: 'I have copied it' }));
    await waitFor(() => expect(screen.queryByTestId('connector-token')).toBeNull());
    expect(navigations.at(-1)?.to).toBe('/settings/connector/5/edit');
  });

  it('rotates and revokes the token of a remote connector after confirmation', async () => {
    const calls = serveApi({
      'GET /connectors/connectors/5': { body: plant },
      'POST /connectors/connectors/5/rotate': { body: { ...plant, token } },
      'POST /connectors/connectors/5/revoke': { body: { ...plant, token_state: 'revoked' } },
    });
    renderAt(ConnectorForm, '/settings/connector/{id}/edit', '#/settings/connector/5/edit');
    expect(await screen.findByText('lyon-collector-01')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Rotate token' }));
    const confirm = await screen.findByRole('alertdialog');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Rotate token' }));
    expect((await screen.findByTestId('connector-token')).textContent).toBe(token);
    fireEvent.click(screen.getByRole('button', { name: 'I have copied it' }));
    fireEvent.click(screen.getByRole('button', { name: 'Revoke token' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Revoke token' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST' && call.url.endsWith('/connectors/connectors/5/revoke'))).toBe(true));
    // Closing the token of an existing connector stays on its page.
    expect(navigations.filter((navigation) => navigation.to.endsWith('/edit'))).toEqual([]);
  });
});
