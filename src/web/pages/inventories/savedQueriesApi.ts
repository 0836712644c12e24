import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../app/http';

export type SavedQueryResponse = {
  id: number; name: string; text: string; type: string; tags: string[]; is_public: boolean; user_full_name: string; created_at: string; updated_at: string;
};
export type SavedQueryFormData = Pick<SavedQueryResponse, 'name' | 'text' | 'type' | 'tags' | 'is_public'>;
export type SavedQueryListQueryParams = { type: string; page: number; size: number; search: string; ordering?: string };

// Every inventory's saved-query pages sit under its base path; the first segment names the query type.
const typeOfInventory: Record<string, string> = {
  'device-inventory': 'device',
  'user-inventory': 'user',
  'software-inventory': 'application',
  'vulnerability-inventory': 'vulnerability',
  'certificate-inventory': 'certificate',
  'service-inventory': 'service',
  'license-inventory': 'license',
};

/** `/device-inventory/saved-queries` → `{ basePath: '/device-inventory', type: 'device' }`. */
export function inventoryOfPath(path: string): { basePath: string; type: string } {
  const segment = path.split('/')[1] ?? '';
  return { basePath: `/${segment}`, type: typeOfInventory[segment] ?? 'device' };
}

export const savedQueryListQuery = (params: SavedQueryListQueryParams) =>
  queryOptions({
    queryKey: ['saved-queries', params],
    queryFn: () => apiFetch<{ count: number; results: SavedQueryResponse[] }>('/queries/queries', { query: { ...params, search: params.search || undefined } }),
    placeholderData: keepPreviousData,
  });

export const savedQueryQuery = (id: number) =>
  queryOptions({ queryKey: ['saved-queries', 'one', id], queryFn: () => apiFetch<SavedQueryResponse>(`/queries/queries/${id}`) });
