import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createConsoleRouter } from '../../../src/web/app/router';
import { login } from '../../../src/web/app/session/login';
import { getSession } from '../../../src/web/app/session/session';
import { adminUser, freshSession, serveApi, tokenWith } from './helpers';

beforeEach(() => void vi.spyOn(console, 'warn').mockImplementation(() => undefined));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const signedInAnswers = { 'GET /api/me': { body: adminUser }, 'GET /api/company': { body: { id: 1, name: 'Acme', domain: 'acme.test' } } };

async function openLogin(path = '/login?redirect=/settings/user') {
  const router = createConsoleRouter({ history: createMemoryHistory({ initialEntries: [path] }) });
  await act(async () => {
    render(<RouterProvider router={router} />);
    await router.load();
  });
  return router;
}

function fill(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label, { exact: true }), { target: { value } });
}

describe('the login page', () => {
  it('asks for the one-time code when the server requires it, then continues to the redirect', async () => {
    freshSession();
    const access = tokenWith({});
    const calls = serveApi({ 'POST /api/token': [{ body: { otp_required: true } }, { body: { access } }], ...signedInAnswers });
    const router = await openLogin();
    fill('Username', 'admin');
    fill('Password', 'secret-password');
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Sign in' })));
    expect(await screen.findByRole('heading', { name: 'Enter your one-time code' })).toBeTruthy();
    fill('One-time code', '123456');
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Verify' })));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/user'));
    const tokenCalls = calls.filter((call) => call.url === '/api/token');
    expect(tokenCalls.map((call) => call.body)).toEqual([
      { username: 'admin', password: 'secret-password' },
      { username: 'admin', password: 'secret-password', otp: '123456' },
    ]);
    expect(localStorage.getItem('cartograph.token')).toBe(access);
  });

  it('shows a failed sign-in on the page and stays on /login', async () => {
    freshSession();
    serveApi({ 'POST /api/token': { status: 401, body: { detail: 'Invalid username or password.' } } });
    const router = await openLogin();
    fill('Username', 'admin');
    fill('Password', 'wrong');
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Sign in' })));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid username or password.');
    expect(router.state.location.pathname).toBe('/login');
  });

  it('goes to /locked when the account is locked', async () => {
    freshSession();
    serveApi({ 'POST /api/token': { status: 403, body: { detail: 'Account locked.', code: 'account_locked' } } });
    const router = await openLogin();
    fill('Username', 'admin');
    fill('Password', 'wrong');
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Sign in' })));
    await waitFor(() => expect(router.state.location.pathname).toBe('/locked'));
    expect(await screen.findByRole('heading', { name: 'Account locked' })).toBeTruthy();
  });

  it('offers no LDAP box when no directory is configured', async () => {
    freshSession();
    const calls = serveApi({ 'GET /api/sign-in-methods': { body: { password: true, ldap: false } } });
    await openLogin('/login');
    await waitFor(() => expect(calls.some((call) => call.url === '/api/sign-in-methods')).toBe(true));
    expect(screen.queryByLabelText('Sign in with LDAP')).toBeNull();
  });

  it('signs in through LDAP when the LDAP box is ticked', async () => {
    freshSession();
    const calls = serveApi({ 'GET /api/sign-in-methods': { body: { password: true, ldap: true } }, 'POST /api/token/ldap': { body: { access: tokenWith({}) } }, ...signedInAnswers });
    const router = await openLogin('/login');
    fill('Username', 'jdoe');
    fill('Password', 'directory-password');
    fireEvent.click(await screen.findByLabelText('Sign in with LDAP'));
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Sign in' })));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(calls.find((call) => call.method === 'POST')).toMatchObject({ method: 'POST', url: '/api/token/ldap', body: { username: 'jdoe', password: 'directory-password' } });
  });
});

describe('login outcomes', () => {
  it('retries an LDAP sign-in once when the answer has a detail and no access, then fails', async () => {
    freshSession();
    const calls = serveApi({ 'POST /api/token/ldap': { status: 400, body: { detail: 'LDAP is not configured.' } } });
    await expect(login({ username: 'jdoe', password: 'x' }, 'ldap')).resolves.toEqual({ outcome: 'failure', message: 'LDAP is not configured.', locked: false });
    expect(calls).toHaveLength(2);
  });

  it('succeeds on the LDAP retry when the second answer has the access token', async () => {
    freshSession();
    const access = tokenWith({ username: 'jdoe' });
    serveApi({ 'POST /api/token/ldap': [{ body: { detail: 'Directory busy.' } }, { body: { access } }] });
    await expect(login({ username: 'jdoe', password: 'x' }, 'ldap')).resolves.toEqual({ outcome: 'success', passwordExpired: false });
    expect(getSession().decoded?.username).toBe('jdoe');
  });

  it('sets the logging-in flag while the sign-in runs', async () => {
    freshSession();
    serveApi({ 'POST /api/token': { body: { access: tokenWith({}), password_expired: true } } });
    const pending = login({ username: 'admin', password: 'x' });
    expect(getSession().loggingIn).toBe(true);
    await expect(pending).resolves.toEqual({ outcome: 'success', passwordExpired: true });
    expect(getSession().loggingIn).toBe(false);
  });
});
