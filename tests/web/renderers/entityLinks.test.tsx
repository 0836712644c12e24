import { describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../../src/web/app/routeTable';
import { entityLinks } from '../../../src/web/renderers/list/entityRoutes';
import { listParams, resourceItemQuery, resourceListQuery } from '../../../src/web/renderers/list/listQuery';

describe('entityLinks', () => {
  it('finds the user create and edit forms of schemas/routes.json when the user may open them', () => {
    const links = entityLinks('cartograph:entities/user', ['users.view_user', 'users.add_user', 'users.change_user']);
    expect(links.list).toBe('/settings/user');
    expect(links.create).toBe('/settings/user/create');
    expect(links.edit?.(7)).toBe('/settings/user/7/edit');
  });

  it('leaves out the pages the user lacks the permission for', () => {
    const links = entityLinks('cartograph:entities/user', ['users.view_user']);
    expect(links.create).toBeNull();
    expect(links.edit).toBeNull();
  });

  it('finds a generic detail page and encodes the id', () => {
    const routes: RouteEntry[] = [{ path: '/things/{id}', name: 'thing', layout: 'default', permission: null, page: 'generic:detail', schema: 'cartograph:entities/thing' }];
    expect(entityLinks('cartograph:entities/thing', [], routes).detail?.('a/b')).toBe('/things/a%2Fb');
  });
});

describe('list queries', () => {
  it('send page and size always, search and ordering only when set', () => {
    expect(listParams({ page: 1, size: 50, search: '  ', ordering: undefined })).toEqual({ page: 1, size: 50 });
    expect(listParams({ page: 2, size: 20, search: ' ops ', ordering: '-name' })).toEqual({ page: 2, size: 20, search: 'ops', ordering: '-name' });
  });

  it('put every argument sent to the API in the query key', () => {
    expect(resourceListQuery('/users/users', { page: 3, size: 20, search: 'jane', ordering: 'username' }).queryKey).toEqual(['resource-list', '/users/users', { page: 3, size: 20, search: 'jane', ordering: 'username' }]);
    expect(resourceItemQuery('/users/users', 5).queryKey).toEqual(['resource-item', '/users/users', '5']);
  });
});
