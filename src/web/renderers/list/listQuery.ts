import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../app/http';
import { listParams, type ListQueryParams, type PageResponse } from './listParams';

export { defaultPageSize, listParams, pageSizes, type ListQueryParams, type PageResponse } from './listParams';

/** One page of a resource list. The previous page stays shown while the next loads (no empty flash when paging). */
export function resourceListQuery<Row = Record<string, unknown>>(path: string, params: ListQueryParams) {
  const sent = listParams(params);
  return queryOptions({
    queryKey: ['resource-list', path, sent] as const,
    queryFn: () => apiFetch<PageResponse<Row>>(path, { query: sent }),
    placeholderData: keepPreviousData,
  });
}

/** One item of a resource, `GET path/{id}`. */
export function resourceItemQuery<Row = Record<string, unknown>>(path: string, id: string | number) {
  return queryOptions({
    queryKey: ['resource-item', path, String(id)] as const,
    queryFn: () => apiFetch<Row>(`${path}/${encodeURIComponent(String(id))}`),
  });
}
