import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { SnapshotConnection } from '../../../core/connectionNames';
import { apiFetch } from '../../app/http';

/** `value_titles`: display names of coded values (`rsa` → "RSA"), shown instead of the value. */
export type FieldMapEntry = { value_type: 'text' | 'long' | 'double' | 'date' | 'ip' | 'boolean'; label: string; adapter: string; image?: string; value_titles?: Record<string, string> };
export type FieldMap = Record<string, FieldMapEntry>;
export type DiscoveryConfigurationResponse = Record<string, FieldMap | unknown>;

/** An asset as the search answers it: every field a list of values (one per source), plus its PrimaryKey. */
export type AssetRow = Record<string, unknown[]> & { PrimaryKey: [string] };
export type SortKey = { field: string; order: 'asc' | 'desc' };
export type InventorySearchQueryParams = { query: string; fields: string[]; page: number; size: number; ordering: SortKey[]; index_id?: number | null };
/** A page of a list, with the snapshot's connections that the rows' `Connections` ids stand for. */
export type InventoryPageResponse = { count: number; results: AssetRow[]; index_id: number; connections?: SnapshotConnection[] };

export type SourceRecordResponse = { record_key: string; adapter: string; connection_id: number; connection_name: string; fields: Record<string, unknown> };
export type RelationResponse = { kind: string; relation: string; device_asset: string; related_asset: string | null; related_name: string };
export type AssetDetailResponse = Record<string, unknown> & {
  PrimaryKey: [string];
  index_id: number;
  preferred: Record<string, unknown>;
  sources: SourceRecordResponse[];
  /** The snapshot's connections, naming every id of the asset's `Connections`. */
  connections?: SnapshotConnection[];
  merge_reasons: { rule?: string; reason?: string; keys?: string[] }[];
  relations: RelationResponse[];
};

/** Spec §7: the discovery configuration (the field maps) is fetched once. */
export const discoveryConfigurationQuery = () =>
  queryOptions({ queryKey: ['configurations', 'discovery'], queryFn: () => apiFetch<DiscoveryConfigurationResponse>('/configurations/discovery'), staleTime: Infinity });

export const inventorySearchQuery = (searchPath: string, params: InventorySearchQueryParams) =>
  queryOptions({
    queryKey: ['inventory', searchPath, params],
    // A query with a syntax error answers 400 with its position: the query bar shows it, so no notification.
    queryFn: () => apiFetch<InventoryPageResponse>(searchPath, { method: 'POST', body: params, silent: true }),
    placeholderData: keepPreviousData,
    retry: false,
  });

/** How many assets a query matches (the list's own search, one row asked), for the query bar's live count. */
export const inventoryCountQuery = (searchPath: string, query: string) =>
  queryOptions({
    queryKey: ['inventory-count', searchPath, query],
    queryFn: () => apiFetch<InventoryPageResponse>(searchPath, { method: 'POST', body: { query, fields: [], size: 1 }, silent: true }),
    staleTime: 30_000,
    retry: false,
  });

/** The most frequent values of an inventory's field holding `search`, for the query bar's suggestions. */
export const fieldValuesQuery = (valuesPath: string, field: string, search: string) =>
  queryOptions({
    queryKey: ['field-values', valuesPath, field, search],
    queryFn: () => apiFetch<{ values: { value: string; count: number }[] }>(valuesPath, { query: { field, search: search || undefined }, silent: true }),
    staleTime: 60_000,
    retry: false,
  });

/** One asset's detail; software and vulnerabilities answer their own shapes (versions, finding statuses). */
export const assetDetailQuery = <Detail = AssetDetailResponse,>(searchPath: string, id: string, discoveryId: number | null) =>
  queryOptions({
    queryKey: ['inventory-detail', searchPath, id, discoveryId],
    queryFn: () => apiFetch<Detail>(`${searchPath}/${encodeURIComponent(id)}`, { method: 'POST', body: { index_id: discoveryId } }),
  });

/** Downloads exactly the list's view (query, columns with their labels, sort) as CSV or XLSX. */
export async function exportInventory(exportPath: string, format: 'csv' | 'xlsx', view: { query: string; fields: string[]; labels: string[]; ordering: SortKey[]; index_id?: number | null }) {
  const file = await apiFetch<Blob>(exportPath, { method: 'POST', body: { format, ...view, query: view.query || undefined }, responseType: 'blob' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(file);
  link.download = `${exportPath.split('/')[1]}-${new Date().toISOString().slice(0, 10)}.${format}`;
  link.click();
  URL.revokeObjectURL(link.href);
}
