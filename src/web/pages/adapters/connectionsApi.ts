import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../app/http';

/** A connection as `/adapters/connections` answers it (secrets already masked by the server). */
export type ConnectionResponse = {
  id: number;
  adapter: string;
  adapter_name: string;
  name: string;
  description: string;
  status: number;
  status_detail: string;
  enabled: boolean;
  connector: number;
  connector_name: string;
  /** When a discovery last fetched it (its status and status_detail are that fetch's). */
  last_checked_at: string | null;
  /** When it was last tested, whether the system answered, and what the test said. */
  tested_at: string | null;
  test_ok: boolean | null;
  test_detail: string;
  /** Whether it reads a file that is uploaded to it (CSV, JSON, XLSX, custom adapters). */
  takes_upload: boolean;
  created_at: string;
  updated_at: string;
  option_connections: { name: string; typed_value: unknown; is_sensitive: boolean }[];
};

export type ConnectionListQueryParams = { page: number; size: number; search: string; ordering?: string; adapter?: string };
type ConnectionPageResponse = { count: number; results: ConnectionResponse[] };

/** One page of connections; every parameter sent is part of the key. */
export const connectionListQuery = (params: ConnectionListQueryParams) =>
  queryOptions({
    queryKey: ['connections', params],
    queryFn: () => apiFetch<ConnectionPageResponse>('/adapters/connections', { query: { ...params, search: params.search || undefined } }),
    placeholderData: keepPreviousData,
  });

export const connectionQuery = (id: number) =>
  queryOptions({ queryKey: ['connection', id], queryFn: () => apiFetch<ConnectionResponse>(`/adapters/connections/${id}`) });

export type ConnectivityResponse = { success: boolean; detail?: string; reason?: string };
