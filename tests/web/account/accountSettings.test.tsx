import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearFieldErrors } from '../../../src/web/app/http';
import { getSession, updateSession } from '../../../src/web/app/session/session';
import { AccountSettings } from '../../../src/web/pages/account/AccountSettings';
import { adminUser, freshSession, serveApi, tokenWith } from '../app/helpers';

const tokenPermissions = ['authtoken.view_token', 'authtoken.add_token', 'authtoken.delete_token'];
const renderPage = () => render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}><AccountSettings /></QueryClientProvider>);

beforeEach(() => {
  freshSession(tokenWith({}));
  clearFieldErrors();
  updateSession({ user: { ...adminUser, permissions: tokenPermissions } as never });
  window.location.hash = '#/account-settings';
});
afterEach(() => vi.unstubAllGlobals());

describe('account settings', () => {
  it('checks the password confirmation on blur and sends the change, keeping the fresh token', async () => {
    const fresh = tokenWith({ username: 'admin', fresh: true });
    const calls = serveApi({ 'GET /api/otp': { body: { enabled: false } }, 'GET /api/tokens': { body: [] }, 'POST /api/password': { body: { access: fresh } } });
    renderPage();
    fireEvent.change(screen.getByLabelText(/^Current password/), { target: { value: 'old phrase' } });
    fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: 'a much longer new phrase' } });
    const confirmation = screen.getByLabelText(/^Confirm the new password/);
    fireEvent.change(confirmation, { target: { value: 'something else' } });
    fireEvent.blur(confirmation);
    expect(await screen.findByText('The New Password Confirmation field confirmation does not match.')).toBeTruthy();
    fireEvent.change(confirmation, { target: { value: 'a much longer new phrase' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(calls.find((call) => call.url === '/api/password')?.body).toEqual({ old_password: 'old phrase', new_password: 'a much longer new phrase' }));
    await waitFor(() => expect(getSession().token).toBe(fresh));
    expect(getSession().user?.username).toBe('admin');
  });

  it('lists a wrong current password from the server under its field', async () => {
    serveApi({ 'GET /api/otp': { body: { enabled: false } }, 'GET /api/tokens': { body: [] }, 'POST /api/password': { status: 400, body: { old_password: ['Wrong password.'] } } });
    renderPage();
    fireEvent.change(screen.getByLabelText(/^Current password/), { target: { value: 'bad' } });
    fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: 'a much longer new phrase' } });
    fireEvent.change(screen.getByLabelText(/^Confirm the new password/), { target: { value: 'a much longer new phrase' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    const current = screen.getByLabelText(/^Current password/);
    await waitFor(() => expect(document.getElementById(current.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Wrong password.'));
  });

  it('enrols an authenticator: QR code, then a six-digit code verified by the server', async () => {
    const calls = serveApi({
      'GET /api/otp': [{ body: { enabled: false } }, { body: { enabled: true } }],
      'GET /api/tokens': { body: [] },
      'POST /api/otp/setup': { body: { secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/Cartograph:admin?secret=JBSWY3DPEHPK3PXP&issuer=Cartograph' } },
      'POST /api/otp/confirm': { body: { enabled: true, recovery_codes: ['abcde-fghjk', 'mnpqr-stuvw'] } },
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Set up' }));
    const qr = (await screen.findByAltText('QR code of the one-time password enrolment')) as HTMLImageElement;
    expect(qr.src.startsWith('data:image/svg+xml')).toBe(true);
    expect(screen.getByText('JBSWY3DPEHPK3PXP')).toBeTruthy();
    const code = screen.getByLabelText(/^Code from the app/);
    fireEvent.change(code, { target: { value: '12a' } });
    fireEvent.blur(code);
    expect(await screen.findByText('The Code field must be numeric and exactly contain 6 digits.')).toBeTruthy();
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify and turn on' }));
    await waitFor(() => expect(calls.find((call) => call.url === '/api/otp/confirm')?.body).toEqual({ code: '123456' }));
    // The recovery codes are shown once, until the user says they saved them.
    const codes = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(codes).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['abcde-fghjk', 'mnpqr-stuvw']);
    expect(decodeURIComponent(screen.getByRole('link', { name: 'Download as a text file' }).getAttribute('href') ?? '')).toContain('abcde-fghjk\nmnpqr-stuvw');
    fireEvent.click(screen.getByRole('button', { name: 'I have saved these codes' }));
    expect(await screen.findByRole('button', { name: 'Turn off' })).toBeTruthy();
    expect(screen.queryByText('abcde-fghjk')).toBeNull();
  });

  it('cancels an enrolment: back to Set up, and the server forgets the secret', async () => {
    const calls = serveApi({
      'GET /api/otp': { body: { enabled: false } },
      'GET /api/tokens': { body: [] },
      'POST /api/otp/setup': { body: { secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/Cartograph:admin?secret=JBSWY3DPEHPK3PXP&issuer=Cartograph' } },
      'POST /api/otp/cancel': { body: { enabled: false } },
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Set up' }));
    expect(await screen.findByText('JBSWY3DPEHPK3PXP')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('button', { name: 'Set up' })).toBeTruthy();
    expect(screen.queryByText('JBSWY3DPEHPK3PXP')).toBeNull();
    await waitFor(() => expect(calls.some((call) => call.url === '/api/otp/cancel' && call.method === 'POST')).toBe(true));
  });

  it('turns one-time passwords off with the account password', async () => {
    const calls = serveApi({ 'GET /api/otp': [{ body: { enabled: true } }, { body: { enabled: false } }], 'GET /api/tokens': { body: [] }, 'POST /api/otp/disable': { body: { enabled: false } } });
    renderPage();
    fireEvent.change(await screen.findByLabelText(/^Your password/), { target: { value: 'my passphrase' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(calls.find((call) => call.url === '/api/otp/disable')?.body).toEqual({ password: 'my passphrase' }));
    expect(await screen.findByRole('button', { name: 'Set up' })).toBeTruthy();
  });

  it('creates an API token of 90 days unless another lifetime is chosen, shows it once, lists and revokes tokens', async () => {
    const listed = { id: 4, name: 'export', created_at: '2026-11-20T10:00:00Z', expires_at: null, last_used_at: null };
    const calls = serveApi({
      'GET /api/otp': { body: { enabled: false } },
      'GET /api/tokens': [{ body: [] }, { body: [listed] }],
      'POST /api/tokens': { status: 201, body: { ...listed, token: 'cgt_secret-value' } },
      'DELETE /api/tokens/4': { status: 204 },
    });
    renderPage();
    expect(await screen.findByText('No API tokens')).toBeTruthy();
    expect((screen.getByLabelText(/^Lifetime/) as HTMLSelectElement).value).toBe('90');
    fireEvent.change(screen.getByLabelText(/^Token name/), { target: { value: 'export' } });
    fireEvent.change(screen.getByLabelText(/^Lifetime/), { target: { value: 'never' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    expect((await screen.findByTestId('new-api-token')).textContent).toBe('cgt_secret-value');
    expect(calls.find((call) => call.method === 'POST' && call.url === '/api/tokens')?.body).toEqual({ name: 'export', never_expires: true });
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByTestId('new-api-token')).toBeNull());
    const row = (await screen.findByText('export')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Never expires')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Revoke' }));
    const dialog = await screen.findByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE' && call.url === '/api/tokens/4')).toBe(true));
  });

  it('asks for the date of a custom lifetime before sending, and sends its end', async () => {
    const calls = serveApi({ 'GET /api/otp': { body: { enabled: false } }, 'GET /api/tokens': { body: [] }, 'POST /api/tokens': { status: 201, body: { id: 5, name: 'export', created_at: '2026-11-20T10:00:00Z', expires_at: null, last_used_at: null, token: 'cgt_x' } } });
    renderPage();
    fireEvent.change(screen.getByLabelText(/^Token name/), { target: { value: 'export' } });
    fireEvent.change(screen.getByLabelText(/^Lifetime/), { target: { value: 'custom' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByText('The Expires on field is required.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    fireEvent.change(screen.getByLabelText(/^Expires on/), { target: { value: '2027-03-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ name: 'export', expires_at: new Date('2027-03-01T23:59:59').toISOString() }));
  });

  it('hides API tokens from a user without the token permission', async () => {
    updateSession({ user: { ...adminUser, permissions: [] } as never });
    serveApi({ 'GET /api/otp': { body: { enabled: false } } });
    renderPage();
    expect(await screen.findByRole('button', { name: 'Set up' })).toBeTruthy();
    expect(screen.queryByText('API tokens')).toBeNull();
  });
});
