import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetch as nodeFetch } from 'undici';
import { afterAll, beforeAll, beforeEach, vi } from 'vitest';

export type ServedRequest = { method: string; path: string; query: Record<string, string>; authorization: string | undefined };
export type ResourceServer = { base: string; requests: ServedRequest[]; close: () => Promise<void>; failNext: (status: number, body: unknown) => void };
type Row = Record<string, unknown> & { id: number };

/**
 * A small HTTP server on 127.0.0.1 that answers like the console's API for one resource: `GET path` with DRF-style
 * pages (page, size, search over `searchFields`, ordering over any field, 400 with field errors for a bad one) and
 * `GET path/{id}` (404 `{detail}` when missing). The renderers' calls go over real HTTP to it.
 */
export async function startResourceServer(path: string, rows: Row[], searchFields: string[]): Promise<ResourceServer> {
  const requests: ServedRequest[] = [];
  const failures: { status: number; body: unknown }[] = [];
  const send = (response: import('node:http').ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const server: Server = createServer((request: IncomingMessage, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const query = Object.fromEntries(url.searchParams);
    requests.push({ method: request.method ?? 'GET', path: url.pathname, query, authorization: request.headers.authorization });
    const failure = failures.shift();
    if (failure) return send(response, failure.status, failure.body);
    if (url.pathname === path) {
      const page = Number(query.page ?? 1);
      const size = Number(query.size ?? 50);
      const search = (query.search ?? '').toLowerCase();
      let matched = search ? rows.filter((row) => searchFields.some((field) => String(row[field] ?? '').toLowerCase().includes(search))) : [...rows];
      if (query.ordering) {
        const field = query.ordering.replace(/^-/, '');
        if (!rows.some((row) => field in row)) return send(response, 400, { ordering: [`Ordering by "${field}" is not supported.`] });
        const sign = query.ordering.startsWith('-') ? -1 : 1;
        matched = matched.sort((left, right) => sign * String(left[field]).localeCompare(String(right[field]), undefined, { numeric: true }));
      }
      const results = matched.slice((page - 1) * size, page * size);
      const link = (target: number) => `http://127.0.0.1${path}?page=${target}&size=${size}`;
      return send(response, 200, { count: matched.length, next: page * size < matched.length ? link(page + 1) : null, previous: page > 1 ? link(page - 1) : null, results });
    }
    const item = url.pathname.startsWith(`${path}/`) ? rows.find((row) => String(row.id) === url.pathname.slice(path.length + 1)) : undefined;
    if (item) return send(response, 200, item);
    return send(response, 404, { detail: 'Not found.' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The console calls its own host with relative paths; in happy-dom that host is this server.
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) => nodeFetch(`${base}${input}`, init as never));
  return {
    base,
    requests,
    failNext: (status, body) => void failures.push({ status, body }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The resource server for one test file: started before its tests, stopped (with the fetch stub) after them, its
 * request log emptied before each test so a test sees only its own calls. The object is filled in when it starts.
 */
export function serveResourceForTests(path: string, rows: Row[], searchFields: string[]): ResourceServer {
  const server = {} as ResourceServer;
  beforeAll(async () => void Object.assign(server, await startResourceServer(path, rows, searchFields)));
  afterAll(async () => {
    vi.unstubAllGlobals();
    await server.close();
  });
  beforeEach(() => void (server.requests.length = 0));
  return server;
}
