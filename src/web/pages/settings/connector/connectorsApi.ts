import { apiFetch } from '../../../app/http';

/** A connector as `/connectors/connectors` answers it (never its token, except `token` right after create/rotate). */
export type ConnectorRecord = {
  id: number;
  name: string;
  description: string;
  kind: 'local' | 'remote';
  is_default: boolean;
  token_state: 'active' | 'revoked' | 'none';
  token_issued_at: string | null;
  revoked_at: string | null;
  version: string;
  host: string;
  last_seen_at: string | null;
  last_error: string;
  last_error_at: string | null;
  error_count: number;
  connection_count: number;
  pending_jobs: number;
  created_at: string;
};
export type IssuedConnector = ConnectorRecord & { token: string };

export const connectorsPath = '/connectors/connectors';
export const connectorListPath = '/settings/connector';
export const connectorKey = (id: string | number) => ['connectors', 'one', String(id)] as const;

export const connectorListQuery = (page: number, size: number, search: string) => ({
  queryKey: ['connectors', { page, size, search }],
  queryFn: () => apiFetch<{ count: number; results: ConnectorRecord[] }>(connectorsPath, { query: { page, size, search: search || undefined } }),
});

export const connectorQuery = (id: string) => ({
  queryKey: connectorKey(id),
  queryFn: () => apiFetch<ConnectorRecord>(`${connectorsPath}/${encodeURIComponent(id)}`),
});
