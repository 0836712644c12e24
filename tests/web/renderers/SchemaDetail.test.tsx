import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import userSchema from '../../../schemas/entities/user.json';
import { dismissAll } from '../../../src/web/app/notifications/notifications';
import { SchemaDetail } from '../../../src/web/renderers/detail/SchemaDetail';
import { entityLinks } from '../../../src/web/renderers/list/entityRoutes';
import type { EntitySchema } from '../../../src/web/renderers/schema/entitySchema';
import { freshSession } from '../app/helpers';
import { renderWithQuery, userRows } from './render';
import { serveResourceForTests } from './resourceServer';

const schema = userSchema as unknown as EntitySchema;
const server = serveResourceForTests('/users/users', userRows(3), ['username']);
beforeEach(() => {
  freshSession();
  dismissAll();
});

const links = entityLinks('cartograph:entities/user', ['users.view_user', 'users.change_user']);

describe('SchemaDetail', () => {
  it('fetches the item, names it by its name field and shows every readable field with its title and formatted value', async () => {
    renderWithQuery(<SchemaDetail schema={schema} id={2} links={links} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Jane Doe' })).toBeTruthy();
    expect(server.requests.map((request) => request.path)).toEqual(['/users/users/2']);
    const terms = screen.getAllByRole('term').map((term) => term.textContent);
    expect(terms).toEqual(['ID', 'Username', 'Email', 'First name', 'Last name', 'Active', 'Full name', 'LDAP user', 'Groups']);
    const definitions = screen.getAllByRole('definition').map((definition) => definition.textContent);
    expect(definitions).toEqual(['2', 'user02', 'user2@example.com', 'Jane', 'Doe', 'Yes', 'Jane Doe', 'No', 'Analysts']);
  });

  it('never shows write-only fields such as the password', async () => {
    renderWithQuery(<SchemaDetail schema={schema} id={1} links={links} />);
    await screen.findByRole('heading', { level: 1, name: 'John Doe' });
    expect(screen.queryByText('Password')).toBeNull();
    expect(screen.queryByText('Group Ids')).toBeNull();
  });

  it('links to the list and to the edit form', async () => {
    renderWithQuery(<SchemaDetail schema={schema} id={3} links={links} />);
    await screen.findByRole('heading', { level: 1, name: 'John Doe' });
    expect(screen.getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe('#/settings/user/3/edit');
    expect(screen.getByRole('link', { name: 'Back to list' }).getAttribute('href')).toBe('#/settings/user');
  });

  it('shows the server’s error text when the item does not exist', async () => {
    renderWithQuery(<SchemaDetail schema={schema} id={99} links={links} />);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Not found.')).toBeTruthy();
  });
});
