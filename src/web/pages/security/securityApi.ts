import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../app/http';

// The security manager's calls (src/server/security): profiles, policies, the overview, previews and explanations.

export type Page<T> = { count: number; results: T[] };
export type AssetProfile = {
  id: number; name: string; description: string; owner: string; criticality: number; query: string;
  member_count: number | null; score: number | null; error: string | null; updated_at: string;
};
/** What a policy checks: the device inventory (its failures make up device scores) or the user inventory. */
export type PolicyInventory = 'device' | 'user';
export type SecurityPolicy = {
  id: number; name: string; description: string; enabled: boolean; inventory: PolicyInventory; query: string; severity: 'critical' | 'high' | 'medium' | 'low'; weight: number | null;
  profile_ids: number[]; remediation: string; cis_safeguard: string; cis_title: string; starter_id: string | null;
  last_result: { applicable: number; failed: number; error: string | null; index_id: number } | null; updated_at: string;
};
export type TrendPoint = { index_id: number; start_time: string; score: number | null; devices: number; added?: number | null; removed?: number | null };
export type Overview = {
  index_id: number | null; score: number | null; devices: number; formula: string; trend: TrendPoint[];
  worst_profiles: { id: number; name: string; score: number | null; devices: number; error: string | null }[];
  most_failed_policies: { id: number; name: string; inventory: PolicyInventory; failed: number; applicable: number; error: string | null; weight: number }[];
  worst_devices: { asset_id: string; hostname: string | null; score: number; failed: number }[];
  failing_users: (UserNames & { asset_id: string; failed: number; policies: string[] })[];
};
/** How the server names a user: the user inventory's user name, and the display name beside it. */
export type UserNames = { username?: string | null; display_name?: string | null };
export type ProfileMembers = { index_id: number | null; count: number; results: { asset_id: string; hostname: string | null; os: string | null; score: number | null }[]; history: TrendPoint[] };
export type Preview = {
  index_id: number; inventory?: PolicyInventory; matching?: number; applicable?: number; passing?: number; failing?: number; sample: (UserNames & { asset_id: string; hostname?: string | null })[];
};
export type DeviceScore = {
  asset_id: string; index_id: number; score: number | null; criticality: number; formula: string;
  profiles: { id: number; name: string; criticality: number }[];
  policies: { id: number; name: string; query: string; passed: boolean; weight: number; criticality: number; effective_weight: number; remediation: string; cis_safeguard: string; values: { field: string; values: unknown[] }[] }[];
};

export type UserPolicies = {
  asset_id: string; index_id: number;
  policies: { id: number; name: string; query: string; passed: boolean; severity: SecurityPolicy['severity']; remediation: string; cis_safeguard: string; values: { field: string; values: unknown[] }[] }[];
};

export const profilesPath = '/securitymanager/asset-profiles';
export const policiesPath = '/securitymanager/security-policies';

type ListParams = { page: number; size: number; search?: string; ordering?: string };

export const profileListQuery = (params: ListParams) => queryOptions({ queryKey: ['asset-profiles', params], queryFn: () => apiFetch<Page<AssetProfile>>(profilesPath, { query: params }) });
export const policyListQuery = (params: ListParams) => queryOptions({ queryKey: ['security-policies', params], queryFn: () => apiFetch<Page<SecurityPolicy>>(policiesPath, { query: params }) });
export const profileQuery = (id: number) => queryOptions({ queryKey: ['asset-profiles', 'one', id], queryFn: () => apiFetch<AssetProfile>(`${profilesPath}/${id}`) });
export const policyQuery = (id: number) => queryOptions({ queryKey: ['security-policies', 'one', id], queryFn: () => apiFetch<SecurityPolicy>(`${policiesPath}/${id}`) });
export const overviewQuery = () => queryOptions({ queryKey: ['security-overview'], queryFn: () => apiFetch<Overview>('/securitymanager/overview') });
export const membersQuery = (id: number, page: number) =>
  queryOptions({ queryKey: ['asset-profiles', 'members', id, page], queryFn: () => apiFetch<ProfileMembers>(`${profilesPath}/${id}/members`, { query: { page, size: 20 } }) });
export const deviceScoreQuery = (assetId: string, indexId: number) =>
  queryOptions({ queryKey: ['device-security-score', assetId, indexId], queryFn: () => apiFetch<DeviceScore>(`/securitymanager/devices/${encodeURIComponent(assetId)}/score`, { query: { index_id: indexId } }) });
export const userPoliciesQuery = (assetId: string, indexId: number) =>
  queryOptions({ queryKey: ['user-security-policies', assetId, indexId], queryFn: () => apiFetch<UserPolicies>(`/securitymanager/users/${encodeURIComponent(assetId)}/policies`, { query: { index_id: indexId } }) });

/**
 * Tries a profile's or policy's query on the latest snapshot (a policy's over its inventory); field errors (with the
 * position) come back as an ApiError.
 */
export const previewQuery = (kind: 'profile' | 'policy', query: string, profileIds: number[], inventory: PolicyInventory = 'device') =>
  queryOptions({
    queryKey: ['security-preview', kind, query, profileIds, inventory],
    queryFn: () =>
      apiFetch<Preview>(`${kind === 'profile' ? profilesPath : policiesPath}/preview`, { method: 'POST', body: { query, profile_ids: profileIds, ...(kind === 'policy' ? { inventory } : {}) }, silent: true }),
    enabled: query.trim().length > 0,
    retry: false,
  });

/** `/device-inventory/detail/{id}/{discoveryId}` of a device. */
export const deviceDetailPath = (assetId: string, indexId: number) => `/device-inventory/detail/${encodeURIComponent(assetId)}/${indexId}`;
