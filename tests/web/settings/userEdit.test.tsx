import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearFieldErrors } from '../../../src/web/app/http';
import { routeByPath } from '../../../src/web/app/routeTable';
import { updateSession } from '../../../src/web/app/session/session';
import { UserEdit } from '../../../src/web/pages/settings/UserEdit';
import { adminUser, freshSession, serveApi, tokenWith } from '../app/helpers';

const user = { id: 7, username: 'jane', email: '', first_name: 'Jane', last_name: 'Doe', name: 'Jane Doe', is_active: true, is_ldap: false, groups: [] };
const renderPage = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <UserEdit route={routeByPath('/settings/user/{id}/edit')!} />
    </QueryClientProvider>,
  );

beforeEach(() => {
  freshSession(tokenWith({}));
  clearFieldErrors();
  updateSession({ user: { ...adminUser, permissions: ['users.view_user', 'users.change_user', 'auth.view_group'] } as never });
  window.location.hash = '#/settings/user/7/edit';
});
afterEach(() => vi.unstubAllGlobals());

describe('the user edit page', () => {
  it("shows the user's second factor and resets it after a confirmation", async () => {
    const calls = serveApi({
      'GET /users/users/7': { body: user },
      'GET /auth/groups': { body: { count: 0, next: null, previous: null, results: [] } },
      'GET /users/users/7/otp': [{ body: { enabled: true, recovery_codes_left: 9 } }, { body: { enabled: false, recovery_codes_left: 0 } }],
      'DELETE /users/users/7/otp': { status: 204 },
    });
    vi.stubGlobal('confirm', () => true);
    renderPage();
    expect(await screen.findByText('One-time passwords are on; 9 recovery codes left.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reset second factor' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE' && call.url === '/users/users/7/otp')).toBe(true));
    expect(await screen.findByText('One-time passwords are off for this user.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reset second factor' })).toBeNull();
  });
});
