import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import userSchema from '../../../schemas/entities/user.json';
import groupSchema from '../../../schemas/entities/group.json';
import { clearFieldErrors } from '../../../src/web/app/http';
import { routeByPath } from '../../../src/web/app/routeTable';
import { formModelOf, type EntitySchema } from '../../../src/web/renderers/form/formSchema';
import { GenericFormPage } from '../../../src/web/renderers/form/GenericFormPage';
import { SchemaForm } from '../../../src/web/renderers/form/SchemaForm';
import { adminUser, freshSession, serveApi, tokenWith } from '../app/helpers';
import { updateSession } from '../../../src/web/app/session/session';

const withQueries = (children: ReactNode) => <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{children}</QueryClientProvider>;
const userModel = formModelOf(userSchema as unknown as EntitySchema, 'create');
const errorUnder = (label: RegExp) => {
  const input = screen.getByLabelText(label);
  const describedBy = input.getAttribute('aria-describedby') ?? '';
  return describedBy
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
};

const noGroups = { 'GET /users/groups': { body: { count: 0, next: null, previous: null, results: [] } } };

beforeEach(() => {
  freshSession(tokenWith({}));
  clearFieldErrors();
  serveApi(noGroups);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the schema form', () => {
  it('shows the form fields of the schema in x-order, without read-only ones, with labels from the names', () => {
    render(withQueries(<SchemaForm model={userModel} onSubmit={async () => undefined} />));
    const labels = [...document.querySelectorAll('label')].map((label) => label.textContent?.replace(/\s*\*$/, ''));
    expect(labels.slice(0, 4)).toEqual(['Username', 'Email', 'First name', 'Last name']);
    expect(screen.queryByLabelText(/^Name$/)).toBeNull();
    expect(screen.getByLabelText(/^Password/)).toHaveProperty('type', 'password');
  });

  it('shows a required field error when the field loses focus, not while typing', async () => {
    render(withQueries(<SchemaForm model={userModel} onSubmit={async () => undefined} />));
    const username = screen.getByLabelText(/^Username/);
    fireEvent.focus(username);
    fireEvent.blur(username);
    await waitFor(() => expect(errorUnder(/^Username/)).toContain('The Username field is required.'));
    fireEvent.change(username, { target: { value: 'jane' } });
    await waitFor(() => expect(errorUnder(/^Username/)).not.toContain('required'));
  });

  it('checks the rule string on blur: an invalid email is reported only after leaving the field', async () => {
    render(withQueries(<SchemaForm model={userModel} onSubmit={async () => undefined} />));
    const email = screen.getByLabelText(/^Email/);
    fireEvent.change(email, { target: { value: 'not-an-email' } });
    await act(async () => undefined);
    expect(errorUnder(/^Email/)).not.toContain('valid email');
    fireEvent.blur(email);
    await waitFor(() => expect(errorUnder(/^Email/)).toContain('The Email field must be a valid email.'));
  });

  it('reports schema errors in the catalogue wording (pattern → format is invalid)', async () => {
    render(withQueries(<SchemaForm model={userModel} onSubmit={async () => undefined} />));
    const username = screen.getByLabelText(/^Username/);
    fireEvent.change(username, { target: { value: 'has spaces' } });
    fireEvent.blur(username);
    await waitFor(() => expect(errorUnder(/^Username/)).toContain('The Username field format is invalid.'));
  });

  it('validates every field on submit and does not send an invalid form', async () => {
    const onSubmit = vi.fn(async () => undefined);
    render(withQueries(<SchemaForm model={userModel} onSubmit={onSubmit} />));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(errorUnder(/^Username/)).toContain('The Username field is required.'));
    expect(document.activeElement?.id).toBe('root_username');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends the writable fields once the form is valid', async () => {
    const onSubmit = vi.fn(async () => undefined);
    render(withQueries(<SchemaForm model={userModel} onSubmit={onSubmit} />));
    fireEvent.change(screen.getByLabelText(/^Username/), { target: { value: 'jane.doe' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'a long passphrase' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]).toEqual([expect.objectContaining({ username: 'jane.doe', password: 'a long passphrase', is_active: true })]);
  });

  it('lists server field errors under their fields until the field changes', async () => {
    render(withQueries(<SchemaForm model={userModel} onSubmit={async () => undefined} serverErrors={{ username: ['A user with that username already exists.'], password: ['This password is too common.'] }} />));
    expect(errorUnder(/^Username/)).toContain('A user with that username already exists.');
    expect(errorUnder(/^Password/)).toContain('This password is too common.');
    fireEvent.change(screen.getByLabelText(/^Username/), { target: { value: 'other.name' } });
    await waitFor(() => expect(errorUnder(/^Username/)).not.toContain('already exists'));
    expect(errorUnder(/^Password/)).toContain('This password is too common.');
  });

  it('groups fields under their x-group heading', () => {
    const grouped = structuredClone(userSchema) as unknown as EntitySchema;
    (grouped.properties!.email as Record<string, unknown>)['x-group'] = 'Contact';
    render(withQueries(<SchemaForm model={formModelOf(grouped)} onSubmit={async () => undefined} />));
    const section = screen.getByText('Contact').closest('fieldset');
    expect(section?.querySelector('input')?.id).toBe('root_email');
  });
});

describe('the generic form page', () => {
  it('shows the server field errors of its POST under the fields', async () => {
    window.location.hash = '#/settings/user/create';
    serveApi({
      'GET /users/groups': { body: { count: 0, next: null, previous: null, results: [] } },
      'POST /users/users': { status: 400, body: { username: ['A user with that username already exists.'] } },
    });
    render(withQueries(<GenericFormPage route={routeByPath('/settings/user/create')!} />));
    const username = await screen.findByLabelText(/^Username/);
    fireEvent.change(username, { target: { value: 'admin' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'a long passphrase' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(errorUnder(/^Username/)).toContain('A user with that username already exists.'));
  });

  it('loads the item to edit, fills the group list from its groups and saves with PUT', async () => {
    window.location.hash = '#/settings/user/7/edit';
    updateSession({ user: { ...adminUser, permissions: ['users.view_user', 'users.change_user'] } as never });
    const calls = serveApi({
      'GET /users/users/7': { body: { id: 7, username: 'jane', email: 'jane@example.com', first_name: 'Jane', last_name: '', is_active: true, groups: [{ id: 3, name: 'SOC' }] } },
      'GET /users/groups': { body: { count: 1, next: null, previous: null, results: [{ id: 3, name: 'SOC' }, { id: 4, name: 'Viewers' }] } },
      'PUT /users/users/7': { body: { id: 7, username: 'jane' } },
    });
    render(withQueries(<GenericFormPage route={routeByPath('/settings/user/{id}/edit')!} />));
    expect(await screen.findByDisplayValue('jane')).toBeTruthy();
    expect(((await screen.findByLabelText('SOC')) as HTMLInputElement).checked).toBe(true);
    fireEvent.change(screen.getByLabelText(/^First name/), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    const put = calls.find((call) => call.method === 'PUT');
    // Only what changed is sent, and the required username.
    expect(put?.body).toEqual({ username: 'jane', first_name: '' });
  });

  it('offers permissions grouped by app for a group', async () => {
    window.location.hash = '#/settings/group/create';
    serveApi({
      'GET /users/permissions': {
        body: { count: 3, next: null, previous: null, results: [
          { id: 1, name: 'Can view user', codename: 'view_user', app: 'users' },
          { id: 2, name: 'Can add user', codename: 'add_user', app: 'users' },
          { id: 3, name: 'Can view group', codename: 'view_group', app: 'auth' },
        ] },
      },
    });
    const calls: unknown[] = [];
    render(withQueries(<SchemaForm model={formModelOf(groupSchema as unknown as EntitySchema)} onSubmit={async (body) => void calls.push(body)} />));
    const usersApp = await screen.findByLabelText('Users (0/2)');
    fireEvent.click(usersApp);
    expect(await screen.findByLabelText('Users (2/2)')).toBeTruthy();
    expect((screen.getByLabelText('Can view group') as HTMLInputElement).checked).toBe(false);
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Helpdesk' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls).toEqual([{ name: 'Helpdesk', permissions: [1, 2] }]));
  });
});
