import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearFieldErrors } from '../../../src/web/app/http';
import { routeByPath } from '../../../src/web/app/routeTable';
import { updateSession } from '../../../src/web/app/session/session';
import { CompanyEdit } from '../../../src/web/pages/settings/CompanyEdit';
import { adminUser, freshSession, serveApi, tokenWith } from '../app/helpers';

const company = { id: 2, name: 'Acme', domain: 'acme.example', is_active: true, is_constant: false };
const permissions = ['companies.view_company', 'companies.change_company', 'companies.view_domain', 'companies.add_domain', 'companies.change_domain', 'companies.delete_domain'];
const renderPage = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <CompanyEdit route={routeByPath('/settings/company/{id}/edit')!} />
    </QueryClientProvider>,
  );
const page = (results: unknown[]) => ({ body: { count: results.length, next: null, previous: null, results } });

beforeEach(() => {
  freshSession(tokenWith({}));
  clearFieldErrors();
  updateSession({ user: { ...adminUser, permissions } as never });
  window.location.hash = '#/settings/company/2/edit';
});
afterEach(() => vi.unstubAllGlobals());

describe('the company edit page', () => {
  it('edits the basic info with PUT and lists a duplicate name from the server under the name', async () => {
    const calls = serveApi({
      'GET /companies/companies/2': { body: company },
      'PUT /companies/companies/2': { status: 400, body: { name: ['A company with that name already exists.'] } },
    });
    renderPage();
    const name = await screen.findByLabelText(/^Name/);
    expect((name as HTMLInputElement).value).toBe('Acme');
    fireEvent.change(name, { target: { value: 'Globex' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ name: 'Globex' }));
    await waitFor(() => expect(document.getElementById(name.getAttribute('aria-describedby')?.split(' ').at(-1) ?? '')?.textContent).toContain('A company with that name already exists.'));
  });

  it('lists the domains of the company and adds one for it', async () => {
    const calls = serveApi({
      'GET /companies/companies/2': { body: company },
      'GET /companies/domains': [page([{ id: 5, domain: 'acme.example', tenant: 2, tenant_name: 'Acme', is_primary: true }]), page([
        { id: 5, domain: 'acme.example', tenant: 2, tenant_name: 'Acme', is_primary: true },
        { id: 6, domain: 'acme.test', tenant: 2, tenant_name: 'Acme', is_primary: false },
      ])],
      'POST /companies/domains': { status: 201, body: { id: 6, domain: 'acme.test', tenant: 2, tenant_name: 'Acme', is_primary: false } },
    });
    renderPage();
    fireEvent.mouseDown(await screen.findByRole('tab', { name: 'Domains' }));
    fireEvent.click(screen.getByRole('tab', { name: 'Domains' }));
    expect(await screen.findByText('acme.example')).toBeTruthy();
    expect(calls.find((call) => call.url.startsWith('/companies/domains?'))?.url).toContain('tenant=2');
    const domain = screen.getByRole('textbox', { name: /^Domain/ });
    fireEvent.change(domain, { target: { value: 'acme test' } });
    fireEvent.blur(domain);
    expect(await screen.findByText('The Domain field may not contain spaces.')).toBeTruthy();
    fireEvent.change(domain, { target: { value: 'acme.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add domain' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ domain: 'acme.test', tenant: 2, is_primary: false }));
    const row = (await screen.findByText('acme.test')).closest('tr') as HTMLElement;
    expect(within(row).getByRole('button', { name: 'Make primary' })).toBeTruthy();
  });

  it('shows a pending claim with the TXT record to publish, verifies it, and offers approval to the provider only', async () => {
    const verification = { type: 'TXT', names: ['_cartograph.acme.test', 'acme.test'], value: 'cartograph-verification=abcdefghijklmnopqrstuvwxyz012345' };
    const pending = { id: 6, domain: 'acme.test', tenant: 2, tenant_name: 'Acme', is_primary: false, status: 'pending', verified_at: null, verification_method: null, verification };
    const verified = { ...pending, status: 'verified', verified_at: '2026-01-02T03:04:05Z', verification_method: 'dns' };
    const calls = serveApi({
      'GET /companies/companies/2': { body: company },
      'GET /companies/domains': [page([pending]), page([verified])],
      'POST /companies/domains/6/verify': { body: verified },
    });
    updateSession({ company: { id: 2, name: 'Acme', domain: '', is_constant: false } });
    renderPage();
    fireEvent.mouseDown(await screen.findByRole('tab', { name: 'Domains' }));
    fireEvent.click(screen.getByRole('tab', { name: 'Domains' }));
    const row = (await screen.findByText('acme.test')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Pending')).toBeTruthy();
    expect(within(row).getByText(verification.value)).toBeTruthy();
    expect(within(row).getByText(/_cartograph\.acme\.test/)).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'Approve' })).toBeNull();
    fireEvent.click(within(row).getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST' && call.url.startsWith('/companies/domains/6/verify'))).toBe(true));
    expect(await screen.findByText('Verified')).toBeTruthy();
  });

  it('offers the provider company an Approve button on a pending claim', async () => {
    const pending = { id: 7, domain: 'globex.test', tenant: 2, tenant_name: 'Acme', is_primary: false, status: 'pending', verified_at: null, verification_method: null,
      verification: { type: 'TXT', names: ['_cartograph.globex.test', 'globex.test'], value: 'cartograph-verification=zyxwvutsrqponmlkjihgfedcba543210' } };
    const calls = serveApi({
      'GET /companies/companies/2': { body: company },
      'GET /companies/domains': [page([pending]), page([{ ...pending, status: 'verified', verification_method: 'provider' }])],
      'POST /companies/domains/7/approve': { body: { ...pending, status: 'verified', verification_method: 'provider' } },
    });
    updateSession({ company: { id: 1, name: 'Provider', domain: '', is_constant: true } });
    renderPage();
    fireEvent.mouseDown(await screen.findByRole('tab', { name: 'Domains' }));
    fireEvent.click(screen.getByRole('tab', { name: 'Domains' }));
    const row = (await screen.findByText('globex.test')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST' && call.url.startsWith('/companies/domains/7/approve'))).toBe(true));
  });

  it('lists the administrators and creates one with the administrator form', async () => {
    const calls = serveApi({
      'GET /companies/companies/2': { body: company },
      'GET /companies/companies/2/administrators': [{ body: [] }, { body: [{ id: 9, username: 'acme.admin', name: '', email: '', is_active: true }] }],
      'POST /companies/companies/2/administrators': { status: 201, body: { id: 9, username: 'acme.admin', name: '', email: '', is_active: true } },
    });
    renderPage();
    fireEvent.mouseDown(await screen.findByRole('tab', { name: 'Administrator' }));
    fireEvent.click(screen.getByRole('tab', { name: 'Administrator' }));
    expect(await screen.findByText('No administrators')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create administrator' }));
    expect(await screen.findByText('The Username field is required.')).toBeTruthy();
    expect(screen.getByText('The Password field is required.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Username/), { target: { value: 'acme.admin' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'acme initial passphrase' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create administrator' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ username: 'acme.admin', password: 'acme initial passphrase' }));
    expect(await screen.findByText('acme.admin')).toBeTruthy();
  });
});
