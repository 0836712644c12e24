import { t } from '../../app/i18n/messages';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../app/http';

/** One software installed on one device, its sources folded in (`GET /appinventory/installations`). */
export type InstallationResponse = {
  device_id: string; hostname: string | null; os_type: string | null; software_id: string; software_name: string; vendor: string | null;
  version: string | null; install_date: string | null; install_path: string | null; adapters: string[]; index_id: number;
};

export const findingStatuses = ['open', 'fixed', 'false_positive', 'risk_accepted'] as const;
export type FindingStatus = (typeof findingStatuses)[number];
export const findingStatusLabels: Record<FindingStatus, string> = { get open() { return t('inventories.open'); }, get fixed() { return t('inventories.fixed'); }, get false_positive() { return t('inventories.falsePositive'); }, get risk_accepted() { return t('inventories.riskAccepted'); } };

/** One vulnerability found on one device, every scanner's report merged (`GET /avm/findings`). */
export type FindingResponse = {
  id: string; device_id: string; hostname: string | null; os_type: string | null; vulnerability_id: string; cve_id: string | null; title: string | null;
  severity: string | null; score: number | null; kev: boolean; status: FindingStatus; source_status: string | null; status_reason: string | null;
  status_changed_by: string | null; status_changed_at: string | null; first_seen: string | null; last_seen: string | null;
  ports: unknown[]; software: string[]; adapters: string[]; index_id: number;
  /** Each source's record of the finding; Cartograph's own matcher (cartograph-avm) gives its match reason as evidence. */
  sources?: { adapter: string; evidence: string | null }[];
};

/** Filters of both lists: one device, software or vulnerability, a text, a status, a snapshot. */
export type LinkFilter = { device?: string; software?: string; vulnerability?: string; status?: FindingStatus; search?: string; index_id?: number | null; page: number; size: number };
type LinkPage<T> = { count: number; results: T[] };

const listQuery = <T,>(path: string, filter: LinkFilter) =>
  queryOptions({
    queryKey: ['inventory-links', path, filter],
    queryFn: () => apiFetch<LinkPage<T>>(path, { query: { ...filter, search: filter.search || undefined, index_id: filter.index_id ?? undefined } }),
    placeholderData: keepPreviousData,
  });

export const installationsQuery = (filter: LinkFilter) => listQuery<InstallationResponse>('/appinventory/installations', filter);
export const findingsQuery = (filter: LinkFilter) => listQuery<FindingResponse>('/avm/findings', filter);

export const setFindingStatus = (findingId: string, status: FindingStatus, reason: string) =>
  apiFetch<FindingResponse>(`/avm/findings/${encodeURIComponent(findingId)}/status`, { method: 'POST', body: { status, reason }, silent: true });
