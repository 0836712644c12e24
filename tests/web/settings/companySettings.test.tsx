import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearFieldErrors } from '../../../src/web/app/http';
import { routeByPath } from '../../../src/web/app/routeTable';
import { CompanySettings } from '../../../src/web/pages/settings/CompanySettings';
import { serveApi } from '../app/helpers';
import { signInWith } from '../pages/pageSession';

const sso = {
  enabled: false, protocol: 'oidc', issuer: '', client_id: '', client_secret: '', scopes: 'openid email profile', username_claim: 'preferred_username', group_claim: 'groups',
  group_mappings: [], saml_entry_point: '', saml_idp_certificate: '', saml_idp_issuer: '', saml_sp_entity_id: '',
};
const retention = { user_activity_days: 365, system_log_days: 365 };
const renderSettings = () => render(
  <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
    <CompanySettings route={routeByPath('/settings/company-settings')!} />
  </QueryClientProvider>,
);

beforeEach(() => {
  clearFieldErrors();
  window.location.hash = '#/settings/company-settings';
});
afterEach(() => vi.unstubAllGlobals());

describe('the company settings page', () => {
  it('keeps the activity log retention in a section of its own, saved with its own PUT', async () => {
    signInWith(['configurations.view_companysettings', 'configurations.change_companysettings']);
    const calls = serveApi({
      'GET /configurations/sso-configuration': { body: sso },
      'GET /configurations/activity-retention': { body: retention },
      'GET /configurations/api-tokens': { body: { maximum_lifetime_days: 0 } },
      'PUT /configurations/activity-retention': { body: { ...retention, user_activity_days: 90 } },
    });
    renderSettings();
    const section = await screen.findByRole('region', { name: 'Activity log retention' });
    const days = await within(section).findByLabelText(/^Keep user activities \(days\)/);
    expect((days as HTMLInputElement).value).toBe('365');
    fireEvent.change(days, { target: { value: '90' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'PUT')).toMatchObject({ url: '/configurations/activity-retention', body: { user_activity_days: 90, system_log_days: 365 } }));
    expect(calls.some((call) => call.method === 'PUT' && call.url.includes('sso'))).toBe(false);
    // The page's heading stays the single sign-on document's; the retention is a section under it.
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });
});
