import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import userSchema from '../../../schemas/entities/user.json';
import { dismissAll, getNotifications } from '../../../src/web/app/notifications/notifications';
import { entityLinks } from '../../../src/web/renderers/list/entityRoutes';
import { SchemaList } from '../../../src/web/renderers/list/SchemaList';
import type { EntitySchema } from '../../../src/web/renderers/schema/entitySchema';
import { freshSession } from '../app/helpers';
import { renderWithQuery, userRows } from './render';
import { serveResourceForTests } from './resourceServer';

const schema = userSchema as unknown as EntitySchema;
const rows = userRows(120);
const server = serveResourceForTests('/users/users', rows, ['username', 'email', 'first_name', 'last_name']);
beforeEach(() => {
  freshSession();
  dismissAll();
});
afterEach(() => dismissAll());

const allLinks = entityLinks('cartograph:entities/user', ['users.view_user', 'users.add_user', 'users.change_user']);
const listRequests = () => server.requests.filter((request) => request.path === '/users/users').map((request) => request.query);
const bodyRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

describe('SchemaList', () => {
  it('asks the resource for page 1 of 50 and shows the x-list columns with their titles', async () => {
    renderWithQuery(<SchemaList schema={schema} links={allLinks} searchDebounce={0} />);
    await screen.findByText('user01');
    expect(listRequests()).toEqual([{ page: '1', size: '50' }]);
    const headers = within(screen.getByRole('table', { name: 'Users' })).getAllByRole('columnheader').map((cell) => cell.textContent?.replace(/[▲▼↕]/g, ''));
    expect(headers).toEqual(['Username', 'Email', 'First name', 'Last name', 'Active']);
    expect(bodyRows()).toHaveLength(50);
    expect(screen.getByText('1–50 of 120')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Users' })).toBeTruthy();
  });

  it('links each row to its edit form and offers the create form', async () => {
    renderWithQuery(<SchemaList schema={schema} links={allLinks} searchDebounce={0} />);
    expect((await screen.findByRole('link', { name: 'user02' })).getAttribute('href')).toBe('#/settings/user/2/edit');
    expect(screen.getByRole('link', { name: 'Create user' }).getAttribute('href')).toBe('#/settings/user/create');
  });

  it('offers neither link without the permissions', async () => {
    renderWithQuery(<SchemaList schema={schema} links={entityLinks('cartograph:entities/user', ['users.view_user'])} searchDebounce={0} />);
    await screen.findByText('user01');
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('pages through the server: the next page is asked for and shown', async () => {
    renderWithQuery(<SchemaList schema={schema} links={allLinks} searchDebounce={0} />);
    await screen.findByText('user01');
    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    await screen.findByText('user120');
    expect(listRequests().at(-1)).toEqual({ page: '3', size: '50' });
    expect(bodyRows()).toHaveLength(20);
    expect(screen.getByText('101–120 of 120')).toBeTruthy();
  });

  it('sorts on the server by a sortable header, ascending then descending, back to page 1', async () => {
    renderWithQuery(<SchemaList schema={schema} links={allLinks} searchDebounce={0} />);
    await screen.findByText('user01');
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await screen.findByText('user51');
    const usernameHeader = screen.getByRole('columnheader', { name: /Username/ });
    fireEvent.click(within(usernameHeader).getByRole('button'));
    await waitFor(() => expect(listRequests().at(-1)).toEqual({ page: '1', size: '50', ordering: 'username' }));
    fireEvent.click(within(usernameHeader).getByRole('button'));
    await screen.findByText('user120');
    expect(listRequests().at(-1)).toEqual({ page: '1', size: '50', ordering: '-username' });
    expect(within(bodyRows()[0]).getByText('user120')).toBeTruthy();
    expect(usernameHeader.getAttribute('aria-sort')).toBe('descending');
    expect(within(screen.getByRole('columnheader', { name: /Active/ })).queryByRole('button')).toBeNull();
  });

  it('searches on the server and shows what matched', async () => {
    renderWithQuery(<SchemaList schema={schema} links={allLinks} searchDebounce={0} />);
    await screen.findByText('user01');
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'user11' } });
    await waitFor(() => expect(bodyRows()).toHaveLength(11));
    expect(listRequests().at(-1)).toEqual({ page: '1', size: '50', search: 'user11' });
  });

  it('shows the empty state when a search matches nothing, and clears the search from there', async () => {
    renderWithQuery(<SchemaList schema={schema} links={allLinks} searchDebounce={0} />);
    await screen.findByText('user01');
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'nobody-matches' } });
    await screen.findByText('Nothing matches “nobody-matches”.');
    expect(screen.getByText('No data found')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    // The first page is shown from the cache at once and asked for again behind it.
    await screen.findByText('user01');
    await waitFor(() => expect(listRequests().at(-1)).toEqual({ page: '1', size: '50' }));
  });

  it('changes the page size and starts again on page 1', async () => {
    renderWithQuery(<SchemaList schema={schema} links={allLinks} searchDebounce={0} />);
    await screen.findByText('user01');
    fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: '20' } });
    await waitFor(() => expect(bodyRows()).toHaveLength(20));
    expect(listRequests().at(-1)).toEqual({ page: '1', size: '20' });
  });

  it('shows the error state when the server fails, the client notifies, and a retry loads the list', async () => {
    server.failNext(500, { detail: 'Database unavailable' });
    server.failNext(500, { detail: 'Database unavailable' });
    renderWithQuery(<SchemaList schema={schema} links={allLinks} searchDebounce={0} />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('An error occurred');
    expect(alert.textContent).toContain('Database unavailable');
    expect(getNotifications().map((notification) => notification.title)).toContain('Internal server error');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByText('user01');
  });

  it('refuses to list a schema without an API resource', () => {
    renderWithQuery(<SchemaList schema={{ $id: 'cartograph:entities/device', title: 'Device', properties: {} }} links={allLinks} />);
    expect(screen.getByRole('alert').textContent).toContain('Device has no API resource.');
    expect(server.requests).toHaveLength(0);
  });
});
