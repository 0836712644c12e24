import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routeByPath } from '../../../src/web/app/routeTable';
import { changeRows, fieldTitle } from '../../../src/web/pages/activities/changeDiff';
import { UserActivityDetail } from '../../../src/web/pages/activities/UserActivityDetail';
import { serveApi } from '../app/helpers';
import { signInWith } from './pageSession';

const activity = (change: { value_before: unknown; value_after: unknown }) => ({
  id: 7, username: 'admin', action: 'users.partial_update', target_type: 'users/users', target_id: '12', source_ip: '127.0.0.1', result: 'success', status_code: 200,
  created_at: '2026-11-20T10:00:00Z', ...change,
});
const renderDetail = () => render(
  <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
    <UserActivityDetail route={routeByPath('/activities/user/{activityId}')!} />
  </QueryClientProvider>,
);
const cellsOf = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);

beforeEach(() => {
  signInWith(['activities.view_activity']);
  window.location.hash = '#/activities/user/7';
});
afterEach(() => vi.unstubAllGlobals());

describe('the activity detail page', () => {
  it('lines up the fields of two values by path: added, removed, changed and unchanged', () => {
    const rows = changeRows(
      { name: 'Jane', groups: [{ id: 2, name: 'Analysts' }], tags: ['a'], note: 'old' },
      { name: 'Janet', groups: [{ id: 2, name: 'Analysts' }], tags: [], password: '[redacted]' },
    );
    expect(rows.map((row) => [row.field, row.state])).toEqual([
      ['name', 'changed'], ['groups[0].id', 'unchanged'], ['groups[0].name', 'unchanged'], ['tags[0]', 'removed'], ['note', 'removed'], ['tags', 'added'], ['password', 'added'],
    ]);
    expect(rows[5]).toMatchObject({ before: undefined, after: '[]' });
    expect(changeRows(null, { port: 25 })).toEqual([{ field: 'port', before: undefined, after: '25', state: 'added' }]);
    expect(changeRows({ port: 25 }, null)).toEqual([{ field: 'port', before: '25', after: undefined, state: 'removed' }]);
  });

  it('names the changed fields by the titles of the schema the request sent, the path in a tooltip', async () => {
    serveApi({
      'GET /activities/activities/7': { body: { ...activity({
        value_before: { enabled: true, host: 'smtp.example.test', port: 25, security: 'none' },
        value_after: { enabled: true, host: 'mail.example.test', port: 587, security: 'starttls' },
      }), action: 'smtp_configuration.update', schema_id: 'cartograph:settings/smtp-configuration' } },
    });
    renderDetail();
    const table = await screen.findByRole('table', { name: 'Each field before and after the change' });
    await within(table).findByText('SMTP server');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => cellsOf(row)[0])).toEqual(['SMTP server', 'Port', 'Security']);
    expect(within(table).getByText('SMTP server').getAttribute('title')).toBe('host');
  });

  it('titles nested fields and list items, and keeps the names a schema lacks', () => {
    const schema = { properties: { groups: { title: 'Groups', items: { properties: { name: { title: 'Group name' } } } } } };
    expect(fieldTitle('groups[1].name', schema)).toBe('Groups › 2 › Group name');
    expect(fieldTitle('groups[0].colour', schema)).toBe('Groups › 1 › colour');
    expect(fieldTitle('first_name', undefined)).toBe('first_name');
  });

  it('shows what an edit changed before and after, and the unchanged fields on request', async () => {
    serveApi({
      'GET /activities/activities/7': { body: activity({
        value_before: { id: 12, username: 'jane', first_name: 'Jane', email: 'jane@example.test' },
        value_after: { id: 12, username: 'jane', first_name: 'Janet', email: 'jane@example.test', password: '[redacted]' },
      }) },
    });
    renderDetail();
    const table = await screen.findByRole('table', { name: 'Each field before and after the change' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map(cellsOf)).toEqual([['first_name', 'Changed', 'Jane', 'Janet'], ['password', 'Added', '—', '[redacted]']]);
    expect(screen.getByText(/Passwords and other secrets are never kept/)).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Show the 3 unchanged fields too' }));
    expect(within(table).getAllByRole('row')).toHaveLength(6);
    expect(within(table).getAllByText('jane@example.test', { selector: 'code' })).toHaveLength(2);
  });

  it('says when nothing of the change was kept, and when a value was too large to keep whole', async () => {
    serveApi({ 'GET /activities/activities/7': [
      { body: activity({ value_before: null, value_after: null }) },
    ] });
    const first = renderDetail();
    expect(await screen.findByText(/Nothing was kept of this activity's change/)).toBeTruthy();
    first.unmount();
    serveApi({ 'GET /activities/activities/7': { body: activity({ value_before: null, value_after: { $truncated: true, size_bytes: 70000, preview: '{"rows":["row 0' } }) } });
    renderDetail();
    expect(await screen.findByText('After: larger than 64 kB (70,000 bytes), so only its start was kept.')).toBeTruthy();
    expect(screen.getByText('{"rows":["row 0')).toBeTruthy();
  });
});
