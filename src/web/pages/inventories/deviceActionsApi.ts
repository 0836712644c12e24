import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { printQuery } from '../../../core/query';
import { apiFetch } from '../../app/http';

type Page<T> = { count: number; results: T[] };

export type TagResponse = { id: number; name: string; description: string; color: string; device_count: number; created_at: string; updated_at: string };
export type TagFormData = Pick<TagResponse, 'name' | 'description' | 'color'>;
export type TagListQueryParams = { page: number; size: number; search: string; ordering?: string };
export type DeviceTagUpdate = { tags: string[]; action: 'add' | 'remove'; assets?: string[]; query?: string; index_id?: number | null };
export type DeviceTagUpdateResponse = { tags: { id: number; name: string }[]; devices: number; index_id: number };

export type RelationKind = 'device-user' | 'device-device';
export type RelationRowResponse = {
  id: number; kind: RelationKind; relation: string; index_id: number; adapters: string[];
  device: { id: string; name: string | null };
  related: { id: string | null; name: string; reported_as: string; entity: 'user' | 'device' };
};
export type RelationListQueryParams = { page: number; size: number; search: string; kind?: RelationKind; device?: string };

export type DeviceSummary = { id: string; Hostname: unknown[]; Adapters: unknown[]; IpAddresses: unknown[]; 'OS.Type': unknown[] };
export type RecommendationResponse = { id: number; score: number; reasons: string[]; index_id: number; left: DeviceSummary; right: DeviceSummary };

export type MergeResponse = { id: string; index_id: number; record_keys: string[] };
export type UnmergeResponse = { index_id: number; devices: { id: string; record_keys: string[] }[] };

/** Query text that finds the devices carrying a tag (quoted, so names with spaces or wildcards match literally). */
export const tagQuery = (name: string): string => printQuery({ kind: 'comparison', field: 'Tags', operator: '=', value: { kind: 'text', text: name, quoted: true } });

export const tagListQuery = (params: TagListQueryParams) =>
  queryOptions({
    queryKey: ['device-tags', params],
    queryFn: () => apiFetch<Page<TagResponse>>('/devices/tags', { query: { ...params, search: params.search || undefined } }),
    placeholderData: keepPreviousData,
  });

export const tagQueryById = (id: number) => queryOptions({ queryKey: ['device-tags', 'one', id], queryFn: () => apiFetch<TagResponse>(`/devices/tags/${id}`) });

/** Adds or removes tags on chosen devices or on every device a query matches; answers how many devices changed. */
export const updateDeviceTags = (update: DeviceTagUpdate) => apiFetch<DeviceTagUpdateResponse>('/devices/tags/update', { method: 'POST', body: update, silent: true });

export const relationListQuery = (params: RelationListQueryParams) =>
  queryOptions({
    queryKey: ['device-relations', params],
    queryFn: () => apiFetch<Page<RelationRowResponse>>('/devices/relations', { query: { ...params, search: params.search || undefined } }),
    placeholderData: keepPreviousData,
  });

export const recommendationListQuery = (params: { page: number; size: number }) =>
  queryOptions({
    queryKey: ['merge-recommendations', params],
    queryFn: () => apiFetch<Page<RecommendationResponse>>('/devices/merge-recommendations', { query: params }),
    placeholderData: keepPreviousData,
  });

export const mergeDevices = (assets: string[], indexId: number | null) => apiFetch<MergeResponse>('/devices/merge', { method: 'POST', body: { assets, index_id: indexId }, silent: true });

export const unmergeDevice = (asset: string, records: string[], indexId: number | null) =>
  apiFetch<UnmergeResponse>('/devices/unmerge', { method: 'POST', body: { asset, records, index_id: indexId }, silent: true });
