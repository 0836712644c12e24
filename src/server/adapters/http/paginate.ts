// Walks the pages of one request chain: asks for a page, hands its records over, then decides from the answer
// whether and how to ask for the next one. Only one page is held at a time.
import { sameOrigin } from '../../outbound/redirects.js';
import { CursorRestarts } from './cursorRestart.js';
import type { PaginatorSpec, RetrieverSpec } from './manifest.js';
import type { ResponseScope } from './response.js';
import type { HttpSession } from './session.js';
import { render, toText, truthy, type Scope } from './template.js';
import { TransportError } from './transport.js';

export type Page = { records: unknown[]; response: ResponseScope };

type PageState = { number: number; offset: number; limit?: number; cursor?: unknown; next_url?: string; checkpoint?: unknown };

const defaultMaxPages = 100_000;

function numberOrNull(value: unknown): number | null {
  if (value === undefined || value === null || value === '') return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

function initialState(paginator: PaginatorSpec): PageState {
  if (paginator.type === 'page') return { number: paginator.start_page ?? 1, offset: 0, limit: paginator.page_size };
  if (paginator.type === 'offset') return { number: 1, offset: paginator.start_offset ?? 0, limit: paginator.limit };
  return { number: 1, offset: 0, limit: 'page_size' in paginator ? paginator.page_size : undefined };
}

/** The records list of one answer; a missing list is empty, anything else that is not a list is an error. */
function selectRecords(template: string, scope: Scope, label: string): unknown[] {
  const selected = render(template, scope);
  if (selected === undefined || selected === null) return [];
  if (!Array.isArray(selected)) throw new Error(`the answer to ${label} does not hold a list of records where the manifest expects one`);
  return selected;
}

/**
 * Yields each page of `retriever` in order. `label` names the chain in errors and warnings (e.g. `stream users`).
 * A repeating cursor or next URL, and reaching max_pages, stop with a warning rather than looping. An expired
 * cursor (the paginator's `restart.when`) starts the chain again, at most `max_restarts` times.
 */
export async function* pages(session: HttpSession, retriever: RetrieverSpec, baseScope: Scope, label: string): AsyncGenerator<Page> {
  const paginator: PaginatorSpec = retriever.paginator ?? { type: 'none' };
  const maxPages = paginator.max_pages ?? defaultMaxPages;
  let state = initialState(paginator);
  const seen = new Set<string>();
  const restarts = 'restart' in paginator && paginator.restart ? new CursorRestarts(paginator.restart) : null;
  let received = 0;
  let nextUrl: string | undefined;
  for (let index = 1; ; index += 1) {
    const page = { ...state, next_url: nextUrl };
    const scope = { ...baseScope, page };
    const pageLabel = `${label}, page ${index}`;
    let response: ResponseScope;
    let expired = false;
    const intercept = restarts ? (answer: ResponseScope) => (expired = truthy(render(restarts.spec.when, { ...scope, response: answer }))) : undefined;
    try {
      response = await session.call(retriever.request, scope, pageLabel, true, nextUrl, intercept);
    } catch (error) {
      // Transport errors name only the URL path: add which stream and page failed.
      if (error instanceof TransportError) error.message = `${error.message} (${pageLabel})`;
      throw error;
    }
    if (expired && restarts) {
      if (restarts.count >= restarts.maxRestarts) throw new Error(`${label}: the vendor's cursor expired again at page ${index} after ${restarts.count} restarts; ${received} records were fetched`);
      restarts.count += 1;
      const from = restarts.checkpoint === undefined ? 'the first page' : `the checkpoint ${toText(restarts.checkpoint).slice(0, 80)}`;
      session.warn(`${label}: the vendor's cursor expired at page ${index}; restarted from ${from} (restart ${restarts.count} of ${restarts.maxRestarts}), records already fetched are skipped`);
      state = { ...initialState(paginator), checkpoint: restarts.checkpoint };
      nextUrl = undefined;
      seen.clear();
      continue;
    }
    const method = retriever.request.method ?? 'GET';
    const all = selectRecords(retriever.records, { ...scope, response }, `${method} ${new URL(response.url).pathname} (${pageLabel})`);
    const records = restarts ? restarts.fresh(all, { ...scope, response }) : all;
    received += records.length;
    yield { records, response };
    if (paginator.type === 'none') return;
    if (index >= maxPages) {
      session.warn(`${label}: stopped after ${maxPages} pages (max_pages); later records were not fetched`);
      return;
    }
    const after = { ...scope, response, records: all, last_record: all[all.length - 1] };
    switch (paginator.type) {
      case 'page': {
        if (!records.length) return;
        const totalPages = paginator.total_pages ? numberOrNull(render(paginator.total_pages, after)) : null;
        const total = paginator.total ? numberOrNull(render(paginator.total, after)) : null;
        if (totalPages !== null && state.number - (paginator.start_page ?? 1) + 1 >= totalPages) return;
        if (total !== null && received >= total) return;
        if (totalPages === null && total === null && records.length < paginator.page_size) return;
        state.number += 1;
        break;
      }
      case 'offset': {
        if (!records.length) return;
        const total = paginator.total ? numberOrNull(render(paginator.total, after)) : null;
        state.offset += records.length;
        state.number += 1;
        if (total !== null ? state.offset >= total : records.length < paginator.limit) return;
        break;
      }
      case 'cursor': {
        if (paginator.stop_when && truthy(render(paginator.stop_when, after))) return;
        const cursor = render(paginator.cursor, after);
        if (cursor === undefined || cursor === null || cursor === '' || (Array.isArray(cursor) && !cursor.length)) return;
        const key = typeof cursor === 'string' ? cursor : JSON.stringify(cursor);
        if (seen.has(key)) {
          session.warn(`${label}: the vendor sent the same cursor again after page ${index}; stopped to avoid a loop (${received} records fetched)`);
          return;
        }
        seen.add(key);
        state.cursor = cursor;
        state.number += 1;
        break;
      }
      case 'next_url':
      case 'link': {
        const raw = paginator.type === 'link' ? response.links.next : toText(render(paginator.next_url, after));
        if (!raw) return;
        const next = new URL(raw, response.url);
        // A next URL on another origin would receive our credentials: refuse it.
        if (!sameOrigin(next, response.url)) throw new Error(`${label}: the next-page URL after page ${index} points to another origin (${next.origin}); not followed`);
        if (seen.has(next.href) || next.href === response.url) {
          session.warn(`${label}: the vendor sent the same next-page URL again after page ${index}; stopped to avoid a loop (${received} records fetched)`);
          return;
        }
        seen.add(next.href);
        nextUrl = next.href;
        state.number += 1;
        break;
      }
    }
  }
}
