// Pure list-query helpers (no HTTP client), shared with the server-side contract test.

/** A DRF-style page, as every list endpoint answers (ARCHITECTURE.md, API conventions). */
export type PageResponse<Row> = { count: number; next: string | null; previous: string | null; results: Row[] };

/** The list query string (schemas/api/list-query.json): every one of these is sent, so all are in the query key. */
export type ListQueryParams = { page: number; size: number; search?: string; ordering?: string };

export const defaultPageSize = 50;
export const pageSizes = [20, 50, 100] as const;

/** Empty search and ordering are left out of the call (and the key), so `?search=` is never sent. */
export function listParams(params: ListQueryParams): ListQueryParams {
  const search = params.search?.trim();
  return { page: params.page, size: params.size, ...(search ? { search } : {}), ...(params.ordering ? { ordering: params.ordering } : {}) };
}
