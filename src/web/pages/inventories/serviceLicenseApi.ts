import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../app/http';

/** One service in one place (device or host, port), every source's report folded in (`GET /services/instances`). */
export type ServiceInstanceResponse = {
  service_id: string; service_name: string; display_name: string | null; device_id: string | null; hostname: string | null; os_type: string | null; host: string | null;
  port: number | null; protocol: string | null; state: string | null; start_type: string | null; account: string | null; product: string | null; version: string | null;
  banner: string | null; path: string | null; last_seen: string | null; adapters: string[]; index_id: number;
};

/** One user a license is assigned to (`GET /licenses/assignments`). */
export type LicenseAssignmentResponse = {
  license_id: string; license_name: string | null; user_id: string | null; reported_name: string; username: string | null; display_name: string | null; email: string | null;
  adapter: string; index_id: number;
};

export type ServiceLicenseFilter = { device?: string; service?: string; license?: string; user?: string; search?: string; index_id?: number | null; page: number; size: number };
type LinkPage<T> = { count: number; results: T[] };

const listQuery = <T,>(path: string, filter: ServiceLicenseFilter) =>
  queryOptions({
    queryKey: ['inventory-links', path, filter],
    queryFn: () => apiFetch<LinkPage<T>>(path, { query: { ...filter, search: filter.search || undefined, index_id: filter.index_id ?? undefined } }),
    placeholderData: keepPreviousData,
  });

export const serviceInstancesQuery = (filter: ServiceLicenseFilter) => listQuery<ServiceInstanceResponse>('/services/instances', filter);
export const licenseAssignmentsQuery = (filter: ServiceLicenseFilter) => listQuery<LicenseAssignmentResponse>('/licenses/assignments', filter);
