import type { FastifyRequest } from 'fastify';
import { fieldError } from './errors.js';

export type ListQuery = { page?: number; size?: number; search?: string; ordering?: string };
export type Page<T> = { count: number; next: string | null; previous: string | null; results: T[] };

/** LIMIT and OFFSET for the requested page (page 1 and 50 rows when not given). */
export function pageWindow(query: ListQuery): { page: number; size: number; limit: number; offset: number } {
  const page = query.page ?? 1;
  const size = query.size ?? 50;
  return { page, size, limit: size, offset: (page - 1) * size };
}

function pageUrl(request: FastifyRequest, page: number): string {
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  url.searchParams.set('page', String(page));
  return url.toString();
}

/** The DRF-style envelope `{count, next, previous, results}` with absolute page links. */
export function paginated<T>(request: FastifyRequest, query: ListQuery, count: number, results: T[]): Page<T> {
  const { page, size } = pageWindow(query);
  return {
    count,
    next: page * size < count ? pageUrl(request, page + 1) : null,
    previous: page > 1 ? pageUrl(request, Math.min(page - 1, Math.max(1, Math.ceil(count / size)))) : null,
    results,
  };
}

/** The SQL `order by` for an `ordering` parameter, choosing only among allowed columns (never user text). */
export function orderByClause(ordering: string | undefined, columns: Record<string, string>, fallback: string): string {
  if (!ordering) return fallback;
  const descending = ordering.startsWith('-');
  const name = ordering.replace(/^-/, '');
  // Own keys only: `__proto__` or `constructor` must not reach the object's prototype and become SQL.
  const column = Object.hasOwn(columns, name) ? columns[name] : undefined;
  if (!column) throw fieldError('ordering', `Ordering by "${name}" is not supported.`);
  return `${column} ${descending ? 'desc' : 'asc'}, ${fallback}`;
}
