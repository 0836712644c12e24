import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getNotifications } from '../../../src/web/app/notifications/notifications';
import { AssetProfileForm } from '../../../src/web/pages/security/AssetProfileForm';
import { DeviceSecurityScore } from '../../../src/web/pages/security/DeviceSecurityScore';
import { SecurityManager } from '../../../src/web/pages/security/SecurityManager';
import { SecurityPolicies } from '../../../src/web/pages/security/SecurityPolicies';
import { SecurityPolicyForm } from '../../../src/web/pages/security/SecurityPolicyForm';
import { UserSecurityPolicies } from '../../../src/web/pages/security/UserSecurityPolicies';
import { serveApi } from '../app/helpers';
import { signInWith, withPermissions } from './pageSession';
import { renderPage } from './renderPage';

const all = ['securitymanager.view_assetprofile', 'securitymanager.add_assetprofile', 'securitymanager.change_assetprofile', 'securitymanager.delete_assetprofile',
  'securitymanager.view_securitypolicy', 'securitymanager.add_securitypolicy', 'securitymanager.change_securitypolicy', 'securitymanager.delete_securitypolicy', 'users.view_device_detail',
  'users.view_user_inventory_detail'];
const edr = {
  id: 5, name: 'EDR or anti-malware agent reports it', description: '', enabled: false, inventory: 'device', query: 'Adapters = crowdstrike', severity: 'critical', weight: null, profile_ids: [],
  remediation: 'Install the agent.', cis_safeguard: '10.1', cis_title: 'Deploy and Maintain Anti-Malware Software', starter_id: 'cis-10.1-anti-malware',
  last_result: { applicable: 300, failed: 42, error: null, index_id: 9 }, created_at: '2026-11-20T10:00:00Z', updated_at: '2026-11-20T10:00:00Z',
};
const leavers = {
  ...edr, id: 6, name: 'Leavers with an active account', inventory: 'user', query: 'NOT (Employment.Status = terminated AND Enabled = true)', severity: 'high', starter_id: 'cis-5.3-leavers-active-account',
  cis_safeguard: '5.3', cis_title: 'Disable Dormant Accounts', remediation: 'Disable the account.', last_result: { applicable: 1000, failed: 3, error: null, index_id: 9 },
};
const servers = { id: 2, name: 'Servers', description: '', owner: '', criticality: 4, query: 'Hostname = srv-*', member_count: 40, score: 55, error: null };

beforeEach(() => {
  signInWith(all);
});
afterEach(() => vi.unstubAllGlobals());

describe('the security manager pages', () => {
  it('shows the company score, the formula and the lowest-scoring devices, each opening its detail', async () => {
    serveApi({
      'GET /securitymanager/overview': {
        body: {
          index_id: 9, score: 71.5, devices: 300, formula: 'score = 100 × Σ weight of passed policies ÷ Σ weight of applicable policies',
          trend: [{ index_id: 8, start_time: '2026-11-24T10:00:00Z', score: 65, devices: 290 }, { index_id: 9, start_time: '2026-11-25T10:00:00Z', score: 71.5, devices: 300 }],
          worst_profiles: [{ id: 2, name: 'Servers', score: 55, devices: 40, error: null }],
          most_failed_policies: [{ id: 5, name: edr.name, inventory: 'device', failed: 42, applicable: 300, error: null, weight: 10 }, { id: 6, name: leavers.name, inventory: 'user', failed: 3, applicable: 1000, error: null, weight: 6 }],
          worst_devices: [{ asset_id: 'd-1', hostname: 'ws-17', score: 12, failed: 7 }],
          failing_users: [{ asset_id: 'u-7', username: 'alovelace7', display_name: 'Ada Lovelace', failed: 1, policies: [leavers.name] }],
        },
      },
    });
    renderPage(SecurityManager, '/security-manager', '/security-manager');
    expect((await screen.findByText('71.5')).getAttribute('aria-label')).toBe('Company score');
    expect(screen.getByText(/Σ weight of passed policies/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'ws-17' }).getAttribute('href')).toBe('/device-inventory/detail/d-1/9');
    expect(screen.getByText('42 of 300')).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Company score per snapshot' }).children).toHaveLength(2);
    // Policies on users count users, and the users failing them open their user detail.
    expect(screen.getByText('3 of 1,000 users')).toBeTruthy();
    const failingUsers = screen.getByRole('table', { name: 'Users failing policies' });
    expect(within(failingUsers).getByRole('link', { name: 'Ada Lovelace (alovelace7)' }).getAttribute('href')).toBe('/user-inventory/detail/u-7/9');
    expect(within(failingUsers).getByText(leavers.name)).toBeTruthy();
  });

  it('enables the starter library in one click and lists each policy with its CIS safeguard and failures', async () => {
    const calls = serveApi({
      'GET /securitymanager/security-policies': { body: { count: 2, results: [edr, leavers] } },
      'POST /securitymanager/security-policies/starter': { body: { added: 19, enabled: 20, available: 20, queries_added: 1 } },
    });
    renderPage(SecurityPolicies, '/security-manager/security-policy', '/security-manager/security-policy');
    const failures = await screen.findByRole('link', { name: '42 of 300 failed' });
    expect(failures.getAttribute('href')!.split('?')[0]).toBe('/device-inventory');
    expect(new URL(failures.getAttribute('href')!, 'http://console').searchParams.get('query')).toBe(`FailedPolicies = "${edr.name}"`);
    expect(within(failures.closest('tr')!).getByText('10.1')).toBeTruthy();
    expect(within(failures.closest('tr')!).getByText('Devices')).toBeTruthy();
    // A policy on users lists its failures in the user inventory (user names, each opening its detail).
    const leaverFailures = screen.getByRole('link', { name: '3 of 1,000 failed' });
    expect(leaverFailures.getAttribute('href')!.split('?')[0]).toBe('/user-inventory');
    expect(new URL(leaverFailures.getAttribute('href')!, 'http://console').searchParams.get('query')).toBe(`FailedPolicies = "${leavers.name}"`);
    expect(within(leaverFailures.closest('tr')!).getByText('Users')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: /Inventory/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Enable starter policies' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ enable: true }));
    await waitFor(() => expect(getNotifications().map((notification) => notification.text)).toContain('1 starter saved query of the user inventory added (Leavers with an active account), for dashboards and reports.'));
  });

  it('says so when every starter policy is already there, and names each policy once with a switch labelled for screen readers', async () => {
    serveApi({
      'GET /securitymanager/security-policies': { body: { count: 1, results: [edr] } },
      'POST /securitymanager/security-policies/starter': { body: { added: 0, already_present: 22, enabled: 0, available: 22 } },
    });
    renderPage(SecurityPolicies, '/security-manager/security-policy', '/security-manager/security-policy');
    const link = await screen.findByRole('link', { name: edr.name });
    const row = link.closest('tr')!;
    // The name shows once in the row; the switch still says which policy it turns on.
    expect(within(row).getAllByText(edr.name, { exact: false }).filter((element) => !element.closest('.ui-visually-hidden'))).toEqual([link]);
    expect(within(row).getByRole('switch', { name: `Enable ${edr.name}` })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add starter policies' }));
    await waitFor(() => expect(getNotifications().map((notification) => notification.text)).toContain('All 22 starter policies are already here; nothing was added.'));
  });

  it('offers no starter, create or enable controls to a viewer', async () => {
    withPermissions(['securitymanager.view_securitypolicy']);
    serveApi({ 'GET /securitymanager/security-policies': { body: { count: 1, results: [edr] } } });
    renderPage(SecurityPolicies, '/security-manager/security-policy', '/security-manager/security-policy');
    await screen.findByText(edr.name);
    expect(screen.queryByRole('button', { name: 'Enable starter policies' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'New policy' })).toBeNull();
  });

  it('previews a policy as it is typed and shows the server refusing an unknown field', async () => {
    const calls = serveApi({
      'GET /securitymanager/asset-profiles': { body: { count: 1, results: [servers] } },
      'POST /securitymanager/security-policies/preview': [
        { body: { index_id: 9, applicable: 300, passing: 258, failing: 42, sample: [{ asset_id: 'd-1', hostname: 'ws-17' }] } },
        { status: 400, body: { query: ['Unknown field "Colour". (at character 1)'], position: ['0'] } },
      ],
    });
    renderPage(SecurityPolicyForm, '/security-manager/security-policy/create', '/security-manager/security-policy/create');
    const query = await screen.findByLabelText(/^Query/);
    fireEvent.change(query, { target: { value: 'Adapters = crowdstrike' } });
    expect(await screen.findByText('258', {}, { timeout: 3000 })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'ws-17' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: /Servers/ })).toBeTruthy();
    fireEvent.change(query, { target: { value: 'Colour = red' } });
    expect(await screen.findByText(/Unknown field "Colour"/, {}, { timeout: 3000 })).toBeTruthy();
    expect(calls.filter((call) => call.url.endsWith('/preview')).at(-1)?.body).toEqual({ query: 'Colour = red', profile_ids: [], inventory: 'device' });
  });

  it('checks the inventory chosen: on users the asset profiles go, the preview counts and names users, and the policy is saved for users', async () => {
    const calls = serveApi({
      'GET /securitymanager/asset-profiles': { body: { count: 1, results: [servers] } },
      'POST /securitymanager/security-policies/preview': {
        body: { index_id: 9, inventory: 'user', applicable: 1000, passing: 997, failing: 3, sample: [{ asset_id: 'u-7', username: 'alovelace7', display_name: 'Ada Lovelace' }, { asset_id: 'u-107', username: 'aturing107', display_name: null }] },
      },
      'POST /securitymanager/security-policies': { status: 201, body: { ...leavers, id: 12, name: 'Leavers' } },
    });
    renderPage(SecurityPolicyForm, '/security-manager/security-policy/create', '/security-manager/security-policy/create');
    const inventory = (await screen.findByLabelText(/^Inventory/)) as HTMLSelectElement;
    // Titles, never codes; devices unless chosen otherwise, with the device profiles to choose from.
    expect([...inventory.options].filter((option) => option.value).map((option) => option.textContent)).toEqual(['Devices', 'Users']);
    expect(inventory.value).toBe('device');
    expect(screen.getByRole('checkbox', { name: /Servers/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: /Servers/ }));
    fireEvent.change(inventory, { target: { value: 'user' } });
    await waitFor(() => expect(screen.queryByRole('checkbox', { name: /Servers/ })).toBeNull());
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Leavers' } });
    fireEvent.change(screen.getByLabelText(/^Query/), { target: { value: leavers.query } });
    expect(await screen.findByText('997', {}, { timeout: 3000 })).toBeTruthy();
    expect(screen.getByText(/user\(s\):/)).toBeTruthy();
    expect(calls.filter((call) => call.url.endsWith('/preview')).at(-1)?.body).toEqual({ query: leavers.query, profile_ids: [], inventory: 'user' });
    expect(screen.getByRole('link', { name: 'Ada Lovelace (alovelace7)' }).getAttribute('href')).toBe('/user-inventory/detail/u-7/9');
    expect(screen.getByRole('link', { name: 'aturing107' }).getAttribute('href')).toBe('/user-inventory/detail/u-107/9');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    // The profile ticked while the policy checked devices is not sent: a policy on users applies to every user.
    await waitFor(() => expect(calls.find((call) => call.method === 'POST' && call.url === '/securitymanager/security-policies')?.body).toMatchObject({ name: 'Leavers', inventory: 'user', query: leavers.query, profile_ids: [] }));
  });

  it('takes a typed criticality as the integer it is, with no false "must be an integer", and refuses a fraction', async () => {
    const calls = serveApi({
      'POST /securitymanager/asset-profiles/preview': { body: { index_id: 9, matching: 41, sample: [] } },
      'POST /securitymanager/asset-profiles': { status: 201, body: { id: 3, name: 'Servers' } },
    });
    renderPage(AssetProfileForm, '/security-manager/asset-profile/create', '/security-manager/asset-profile/create');
    const criticality = await screen.findByLabelText(/Criticality/);
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Servers' } });
    fireEvent.change(screen.getByLabelText(/^Query/), { target: { value: 'Hostname = srv-*' } });
    fireEvent.change(criticality, { target: { value: '5.5' } });
    fireEvent.blur(criticality);
    expect(await screen.findByText('The Criticality field must be an integer.')).toBeTruthy();
    fireEvent.change(criticality, { target: { value: '5' } });
    fireEvent.blur(criticality);
    await waitFor(() => expect(screen.queryByText('The Criticality field must be an integer.')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'POST' && call.url === '/securitymanager/asset-profiles')?.body).toMatchObject({ name: 'Servers', criticality: 5 }));
  });

  it("shows a profile's devices in the latest scored snapshot and, per snapshot, its size, who joined and left, and its score", async () => {
    const profile = { id: 2, name: 'Servers', description: '', owner: 'Ops', criticality: 4, query: 'Hostname = srv-*', created_at: '2026-11-20T10:00:00Z', updated_at: '2026-11-20T10:00:00Z' };
    const calls = serveApi({
      'GET /securitymanager/asset-profiles/2': { body: profile },
      'GET /securitymanager/asset-profiles/2/members': {
        body: {
          index_id: 9, count: 41,
          results: [{ asset_id: 'd-7', hostname: 'srv-000007', os: 'Linux', score: 38 }, { asset_id: 'd-9', hostname: null, os: null, score: null }],
          history: [
            { index_id: 7, start_time: '2026-11-23T10:00:00Z', score: 60.4, devices: 40, added: null, removed: null },
            { index_id: 8, start_time: '2026-11-24T10:00:00Z', score: 58, devices: 42, added: 3, removed: 1 },
            { index_id: 9, start_time: '2026-11-25T10:00:00Z', score: 55.2, devices: 41, added: 0, removed: 1 },
          ],
        },
      },
      'POST /securitymanager/asset-profiles/preview': { body: { index_id: 9, matching: 41, sample: [] } },
    });
    renderPage(AssetProfileForm, '/security-manager/asset-profile/edit/$id', '/security-manager/asset-profile/edit/2');
    expect(await screen.findByText('Devices in the latest scored snapshot (41)')).toBeTruthy();
    const devices = screen.getByRole('table', { name: 'Profile devices' });
    const deviceRows = within(devices).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
    expect(deviceRows).toEqual([['srv-000007', 'Linux', '38 / 100'], ['d-9', '-', 'No score']]);
    expect(within(devices).getByRole('link', { name: 'srv-000007' }).getAttribute('href')).toBe('/device-inventory/detail/d-7/9');
    // Newest snapshot first; the oldest has no snapshot before it to compare with.
    const history = screen.getByRole('table', { name: 'Profile history' });
    expect(within(history).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Snapshot', 'Devices', 'Joined', 'Left', 'Score']);
    const historyRows = within(history).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').slice(1).map((cell) => cell.textContent));
    expect(historyRows).toEqual([['41', '0', '1', '55 / 100'], ['42', '3', '1', '58 / 100'], ['40', '-', '-', '60 / 100']]);
    expect(calls.filter((call) => call.url.startsWith('/securitymanager/asset-profiles/2/members')).map((call) => new URL(call.url, 'http://console').searchParams.get('page'))).toEqual(['1']);
  });

  it("explains a device's score: each policy's result, weight and the values that decided", async () => {
    serveApi({
      'GET /securitymanager/devices/d-1/score': {
        body: {
          asset_id: 'd-1', index_id: 9, score: 40, criticality: 4, formula: 'score = 100 × …', profiles: [{ id: 2, name: 'Servers', criticality: 4 }],
          policies: [
            { id: 5, name: edr.name, query: edr.query, passed: false, weight: 10, criticality: 4, effective_weight: 40, remediation: 'Install the agent.', cis_safeguard: '10.1', values: [{ field: 'Adapters', values: ['qualys', 'servicenow'] }] },
            { id: 6, name: 'Seen in the last 7 days', query: 'LastSeen last now-7d', passed: true, weight: 3, criticality: 4, effective_weight: 12, remediation: '', cis_safeguard: '1.1', values: [{ field: 'LastSeen', values: ['2026-11-24T08:00:00Z'] }] },
          ],
        },
      },
    });
    const Panel = () => <DeviceSecurityScore deviceId="d-1" discoveryId={9} />;
    renderPage(Panel, '/', '/');
    const failed = (await screen.findByText(edr.name)).closest('tr')!;
    expect(within(failed).getByText('Failed')).toBeTruthy();
    expect(within(failed).getByText('10 × 4 = 40')).toBeTruthy();
    expect(within(failed).getByText(/qualys, servicenow/)).toBeTruthy();
    expect(within(failed).getByText('Install the agent.')).toBeTruthy();
    expect(screen.getByText(/Servers \(criticality 4\)/)).toBeTruthy();
  });

  it("lists the policies on users a user fails, with the remediation and the values that decided", async () => {
    serveApi({
      'GET /securitymanager/users/u-7/policies': {
        body: {
          asset_id: 'u-7', index_id: 9,
          policies: [{ id: 6, name: leavers.name, query: leavers.query, passed: false, severity: 'high', remediation: 'Disable the account.', cis_safeguard: '5.3', values: [{ field: 'Employment.Status', values: ['terminated'] }, { field: 'Enabled', values: [true] }] }],
        },
      },
    });
    const Panel = () => <UserSecurityPolicies userId="u-7" discoveryId={9} />;
    renderPage(Panel, '/', '/');
    const failed = (await screen.findByText(leavers.name)).closest('tr')!;
    expect(within(failed).getByText('Failed')).toBeTruthy();
    expect(within(failed).getByText('High')).toBeTruthy();
    expect(within(failed).getByText('Disable the account.')).toBeTruthy();
    expect(within(failed).getByText('Employment.Status').closest('li')?.textContent).toBe('Employment.Status: terminated');
    expect(screen.getByText('Fails 1 of the 1 policies on users.')).toBeTruthy();
  });
});
