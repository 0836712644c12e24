import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { routeByPath } from '../../../src/web/app/routeTable';
import { UserActivities } from '../../../src/web/pages/activities/UserActivities';
import { SystemActivities } from '../../../src/web/pages/activities/SystemActivities';
import { serveApi } from '../app/helpers';
import { queryOf, signInWith } from './pageSession';
import { renderPage } from './renderPage';

const row = (id: number, action: string, result = 'success') => ({
  id, username: 'admin', action, target_type: 'devices/devices', target_id: '', source_ip: '127.0.0.1', result, status_code: result === 'success' ? 200 : 400, created_at: '2026-11-20T10:00:00Z',
});

beforeEach(() => signInWith(['activities.view_activity']));

describe('the user activity log', () => {
  it('shows each action as people read it, with its recorded name on hover, and results by their labels', async () => {
    serveApi({ 'GET /activities/activities': { body: { count: 2, results: [row(1, 'devices.search'), row(2, 'smtp_configuration.update', 'failure')] } } });
    renderPage(() => <UserActivities route={routeByPath('/activities/user')!} />, '/activities/user', '/activities/user');
    const searched = await screen.findByRole('link', { name: 'Searched devices' });
    expect(searched.getAttribute('title')).toBe('devices.search');
    expect(screen.getByRole('link', { name: 'Changed SMTP settings' }).getAttribute('title')).toBe('smtp_configuration.update');
    const table = screen.getByRole('table', { name: 'User activities' });
    expect(within(table).queryByText('devices.search')).toBeNull();
    expect(within(table).getByText('Failure (400)')).toBeTruthy();
    expect(within(table).queryByText(/^success/)).toBeNull();
  });

  it('filters by an action chosen by its text and by days picked in date pickers', async () => {
    const calls = serveApi({ 'GET /activities/activities': { body: { count: 0, results: [] } } });
    renderPage(() => <UserActivities route={routeByPath('/activities/user')!} />, '/activities/user', '/activities/user');
    const action = await screen.findByLabelText('Action') as HTMLSelectElement;
    expect([...action.options].some((option) => option.value === 'devices.search' && option.text === 'Searched devices')).toBe(true);
    // Every option reads as text, never as a recorded name.
    expect([...action.options].filter((option) => /^[a-z_]+\.[a-z_]+$/.test(option.text))).toEqual([]);
    fireEvent.change(action, { target: { value: 'devices.search' } });
    const from = screen.getByLabelText('From') as HTMLInputElement;
    expect(from.type).toBe('date');
    expect((screen.getByLabelText('Before') as HTMLInputElement).type).toBe('date');
    fireEvent.change(from, { target: { value: '2026-11-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(calls.map((call) => queryOf(call.url)).some((query) => query.action === 'devices.search' && query.from === '2026-11-01T00:00:00.000Z')).toBe(true));
  });
});

describe('the system log', () => {
  it('shows levels by their labels', async () => {
    serveApi({ 'GET /activities/system': { body: { count: 1, results: [{ id: 1, level: 'warning', event: 'discovery.failed', message: 'No connection answered', detail: {}, created_at: '2026-11-20T10:00:00Z' }] } } });
    renderPage(() => <SystemActivities route={routeByPath('/activities/system')!} />, '/activities/system', '/activities/system');
    const table = await screen.findByRole('table', { name: 'System log' });
    await within(table).findByText('Warning');
    expect(within(table).queryByText('warning')).toBeNull();
  });
});
