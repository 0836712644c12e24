import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { routeByPath } from '../../../src/web/app/routeTable';
import { updateSession } from '../../../src/web/app/session/session';
import { GenericListPage } from '../../../src/web/renderers/list/GenericListPage';
import { searchWithView, viewOfSearch, type ListView, type ViewCodec } from '../../../src/web/renderers/list/listView';
import { adminUser, freshSession, tokenWith } from '../app/helpers';
import { renderWithRouter, userRows } from './render';
import { serveResourceForTests } from './resourceServer';

const server = serveResourceForTests('/users/users', userRows(120), ['username', 'email']);
const route = routeByPath('/settings/user')!;
beforeEach(() => {
  freshSession(tokenWith({}));
  updateSession({ user: { ...adminUser, permissions: ['users.view_user', 'users.add_user', 'users.change_user'] } });
});

const listRequests = () => server.requests.filter((request) => request.path === '/users/users').map((request) => request.query);
const bodyRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
const renderList = (url: string) => renderWithRouter(<GenericListPage route={route} schema={route.schema} />, route.path, url);

describe('the view of a list in the URL', () => {
  const codec: ViewCodec = { text: 'search', sizes: [20, 50, 100] };
  const defaults: ListView = { page: 1, size: 50, text: '', sort: null };

  it('reads a view from search parameters, taking the defaults for missing or unreadable parts', () => {
    expect(viewOfSearch({ page: 2, size: 20, search: 'ops', sort: '-username' }, defaults, codec)).toEqual({ page: 2, size: 20, text: 'ops', sort: { id: 'username', direction: 'desc' } });
    // The router parses `search=123` as a number; a size outside the choices and a page of 0 are not views.
    expect(viewOfSearch({ page: 0, size: 7, search: 123 }, defaults, codec)).toEqual({ page: 1, size: 50, text: '123', sort: null });
    expect(viewOfSearch({ columns: 'Hostname, OS.Type' }, { ...defaults, columns: ['Hostname'] }, codec).columns).toEqual(['Hostname', 'OS.Type']);
  });

  it('writes only what differs from the defaults (and pinned parts), keeping other parameters', () => {
    expect(searchWithView({ adapter: 'csvfile', page: 4 }, { ...defaults, text: 'ops', sort: { id: 'name', direction: 'asc' } }, defaults, codec)).toEqual({ adapter: 'csvfile', search: 'ops', sort: 'name' });
    const pinned: ViewCodec = { text: 'query', sizes: [50], pinned: ['size', 'columns'] };
    expect(searchWithView({}, { ...defaults, page: 3, columns: ['Hostname', 'OS.Type'] }, { ...defaults, columns: ['Hostname', 'OS.Type'] }, pinned)).toEqual({ page: 3, size: 50, columns: 'Hostname,OS.Type' });
  });
});

describe('a generic list page keeps its view in the URL', () => {
  it('opens on the page, size, search and sort a link names', async () => {
    renderList('/settings/user?page=2&size=20&search=user1&sort=-username');
    await waitFor(() => expect(listRequests().at(-1)).toEqual({ page: '2', size: '20', search: 'user1', ordering: '-username' }));
    // 32 users match (user1 by e-mail, user10–19, user100–120): the second page of 20, by username descending.
    await screen.findByText('user100');
    expect(bodyRows()).toHaveLength(12);
    expect((screen.getByLabelText('Search') as HTMLInputElement).value).toBe('user1');
    expect(screen.getByRole('columnheader', { name: /Username/ }).getAttribute('aria-sort')).toBe('descending');
  });

  it('writes paging, sorting, page size and search into the URL, and back and forward restore each view', async () => {
    const { router } = renderList('/settings/user');
    await screen.findByText('user01');
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await screen.findByText('user51');
    expect(router.state.location.search).toEqual({ page: 2 });

    fireEvent.click(within(screen.getByRole('columnheader', { name: /Username/ })).getByRole('button'));
    await waitFor(() => expect(router.state.location.search).toEqual({ sort: 'username' }));
    fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: '20' } });
    await waitFor(() => expect(router.state.location.search).toEqual({ sort: 'username', size: 20 }));
    await waitFor(() => expect(bodyRows()).toHaveLength(20));

    act(() => router.history.back());
    await waitFor(() => expect(router.state.location.search).toEqual({ sort: 'username' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(50));
    act(() => router.history.back());
    await screen.findByText('user51');
    await waitFor(() => expect(listRequests().at(-1)).toEqual({ page: '2', size: '50' }));
    act(() => router.history.forward());
    await waitFor(() => expect(listRequests().at(-1)).toEqual({ page: '1', size: '50', ordering: 'username' }));
  });

  it('replaces the history entry while typing a search, so back leaves the search instead of replaying keystrokes', async () => {
    const { router } = renderList('/settings/user?page=3');
    await screen.findByText('user101');
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'user11' } });
    await waitFor(() => expect(router.state.location.search).toEqual({ search: 'user11' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(11));
    expect(router.history.length).toBe(1);
  });
});
