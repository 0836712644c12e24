import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearFieldErrors } from '../../../src/web/app/http';
import { routeByPath, routeTable } from '../../../src/web/app/routeTable';
import { updateSession } from '../../../src/web/app/session/session';
import { AdvancedConfiguration } from '../../../src/web/pages/settings/AdvancedConfiguration';
import { settingsOverview } from '../../../src/web/pages/settings/overview/settingsOverview';
import { Settings } from '../../../src/web/pages/settings/Settings';
import { serveApi } from '../app/helpers';
import { renderPage } from '../pages/renderPage';
import { signInWith } from '../pages/pageSession';

afterEach(() => vi.unstubAllGlobals());

describe('the settings overview', () => {
  const every = () => true;

  it('lists only the landing pages whose permission the caller holds, grouped', () => {
    const paths = (permissions: string[]) => settingsOverview(permissions, routeTable, every).map((entry) => entry.route.path);
    expect(paths(['users.view_user'])).toEqual(['/settings/user']);
    expect(paths(['configurations.view_discoverysettings', 'users.view_system_information', 'users.view_user'])).toEqual([
      '/settings/user', '/settings/discovery-schedule', '/settings/discovery-settings', '/settings/system-information',
    ]);
    expect(paths([])).toEqual([]);
    // Create, edit and upload steps are reached from their lists, never listed themselves; nor is the overview.
    const everything = routeTable.flatMap((route) => (route.permission ? [route.permission] : []));
    expect(paths(everything).every((path) => !path.includes('{') && !path.endsWith('/create') && !path.includes('/upload/') && path !== '/settings')).toBe(true);
    expect(paths(everything)).toContain('/settings/advanced-configuration');
  });

  it('leaves out a page that is not built', () => {
    const built = (route: { path: string }) => route.path !== '/settings/license';
    expect(settingsOverview(['configurations.view_licenseconfiguration', 'users.view_user'], routeTable, built).map((entry) => entry.route.path)).toEqual(['/settings/user']);
  });

  it('shows the groups, links and descriptions of what the caller may open, and nothing else', async () => {
    signInWith(['configurations.view_advancedconfiguration', 'users.view_system_information']);
    renderPage(() => <Settings route={routeByPath('/settings')!} />, '/settings', '/settings');
    const discovery = await screen.findByRole('region', { name: 'Discovery' });
    expect(within(discovery).getByRole('link', { name: 'Advanced' })).toBeTruthy();
    expect(within(discovery).getByText('Merge recommendations and which source wins a field.')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'System' })).toBeTruthy();
    // AVM configuration shares the advanced permission, so it is listed too.
    expect(screen.getByRole('link', { name: 'AVM' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Users' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'License' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Access and companies' })).toBeNull();
  });
});

describe('the advanced configuration page', () => {
  const saved = { generic_host_name_limit: 10, recommendations_kept: 5000, recommended_matches: ['host_name', 'host_name_os', 'host_name_ip', 'host_name_ip_os'], minimum_score: 0.5, ordering: { Hostname: ['crowdstrike'] } };
  const renderAdvanced = () =>
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <AdvancedConfiguration route={routeByPath('/settings/advanced-configuration')!} />
      </QueryClientProvider>,
    );
  beforeEach(() => {
    clearFieldErrors();
    window.location.hash = '#/settings/advanced-configuration';
  });

  it('saves the recommendation choices and keeps the precedence as it was', async () => {
    signInWith(['configurations.view_advancedconfiguration', 'configurations.change_advancedconfiguration']);
    const calls = serveApi({
      'GET /configurations/advanced-configuration': { body: saved },
      'GET /configurations/discovery': { body: { field_map: {}, user_field_map: {}, default_source_order: [] } },
      'PUT /configurations/advanced-configuration': { body: { ...saved, recommended_matches: ['host_name_os', 'host_name_ip', 'host_name_ip_os'] } },
    });
    renderAdvanced();
    const nameOnly = await screen.findByLabelText('Same host name only (score 0.5)');
    expect((nameOnly as HTMLInputElement).checked).toBe(true);
    fireEvent.click(nameOnly);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ ...saved, recommended_matches: ['host_name_os', 'host_name_ip', 'host_name_ip_os'] }));
  });

  it('edits the precedence of a field: adds a field and its sources, reorders them, and shows a refusal under the editor', async () => {
    signInWith(['configurations.view_advancedconfiguration', 'configurations.change_advancedconfiguration']);
    updateSession({ adapters: [{ id: 1, name: 'CrowdStrike Falcon', slug: 'crowdstrike', categories: [], status: 1 }, { id: 2, name: 'Qualys', slug: 'qualys', categories: [], status: 1 }] });
    const calls = serveApi({
      'GET /configurations/advanced-configuration': { body: saved },
      'GET /configurations/discovery': { body: { field_map: { Hostname: {}, 'OS.Type': {}, 'Software.Name': {} }, user_field_map: { Username: {} }, default_source_order: ['crowdstrike', 'qualys'] } },
      'PUT /configurations/advanced-configuration': { status: 400, body: { ordering: ['No connection #9: rank a connection by the id of one of yours.'] } },
    });
    renderAdvanced();
    const field = await screen.findByLabelText('Field');
    expect(await within(field).findByRole('option', { name: 'Username' })).toBeTruthy();
    // Fields of related inventories are not ranked here.
    expect(within(field).queryByRole('option', { name: 'Software.Name' })).toBeNull();
    fireEvent.change(field, { target: { value: 'OS.Type' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add field' }));
    fireEvent.change(screen.getByLabelText('Add a source to OS.Type'), { target: { value: 'crowdstrike' } });
    fireEvent.change(screen.getByLabelText('Add a source to OS.Type'), { target: { value: 'qualys' } });
    fireEvent.click(screen.getByRole('button', { name: 'Move Qualys up for OS.Type' }));
    const sources = screen.getByRole('list', { name: 'Sources of OS.Type, preferred first' });
    expect(within(sources).getAllByRole('listitem').map((item) => item.textContent?.replace(/[↑↓×]/g, ''))).toEqual(['Qualys', 'CrowdStrike Falcon']);
    fireEvent.click(screen.getByRole('button', { name: 'Save precedence' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ ...saved, ordering: { Hostname: ['crowdstrike'], 'OS.Type': ['qualys', 'crowdstrike'] } }));
    expect(await screen.findByText('No connection #9: rank a connection by the id of one of yours.')).toBeTruthy();
  });

  it('is read-only without the change permission', async () => {
    signInWith(['configurations.view_advancedconfiguration']);
    serveApi({
      'GET /configurations/advanced-configuration': { body: saved },
      'GET /configurations/discovery': { body: { field_map: { Hostname: {} }, user_field_map: {}, default_source_order: [] } },
    });
    renderAdvanced();
    expect((await screen.findByLabelText('Same host name only (score 0.5)')).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Save precedence' }).getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByRole('button', { name: 'Remove Hostname' }).getAttribute('aria-disabled')).toBe('true');
  });
});

describe('the settings pages helpers', () => {
  it('formats bytes, shares and durations for the system information', async () => {
    const { bytesText, durationText, shareOf } = await import('../../../src/web/pages/settings/system/formatting');
    expect(bytesText(512)).toBe('512 B');
    expect(bytesText(1.5 * 1024 ** 3)).toBe('1.5 GiB');
    expect(shareOf(1, 4)).toBe('25%');
    expect(shareOf(1, 0)).toBe('-');
    expect(durationText(93_784)).toBe('1d 2h 3m');
    expect(durationText(59)).toBe('0m');
  });

  it('offers the device and user fields for a precedence and moves sources within bounds', async () => {
    const { moved, precedenceFields, withoutEmpty } = await import('../../../src/web/pages/settings/advanced/precedence');
    expect(precedenceFields({ field_map: { Hostname: {}, 'Software.Name': {}, 'OS.Type': {} }, user_field_map: { Username: {}, 'Device.Hostname': {} } })).toEqual(['Hostname', 'OS.Type', 'Username']);
    expect(precedenceFields(undefined)).toEqual([]);
    expect(moved(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
    expect(withoutEmpty({ Hostname: [], 'OS.Type': ['qualys'] })).toEqual({ 'OS.Type': ['qualys'] });
  });
});
