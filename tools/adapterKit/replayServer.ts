// A real HTTP server on 127.0.0.1 that replays vendor-shaped exchanges (status, headers and body) for the
// declarative HTTP engine's tests, the adapter fixtures and the bench.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NtlmAcceptor, type NtlmServerOptions } from './ntlmAcceptor.js';

export type ReplayExchange = {
  request: { method: string; path: string; query?: Record<string, unknown>; body?: unknown };
  response: { status: number; headers?: Record<string, string | string[]>; body?: unknown };
};

export type ReplayFixture = {
  description: string;
  config: Record<string, unknown>;
  exchanges: ReplayExchange[];
  expected: { count: number; records: { entity: string; fields: Record<string, unknown> }[] };
  /** A Windows server's sign-in: every connection must authenticate with NTLM as one of these accounts first. */
  ntlm?: NtlmServerOptions;
  /** A documented failure: the config changes that bring it and the connectivity reason it must give. */
  failure?: { config: Record<string, unknown>; reason: string };
};

export type ReceivedRequest = { method: string; path: string; query: Record<string, string | string[]>; headers: Record<string, string | string[] | undefined>; body: string };

export type ReplayServer = {
  url: string;
  /** Every request received, in order (for assertions on what the engine sent). */
  received: ReceivedRequest[];
  /** Requests no exchange matched (answered 404). */
  unmatched: string[];
  /** The NTLM acceptor when the server asks for Windows sign-in (its sign-ins and refusals). */
  ntlm?: NtlmAcceptor;
  close: () => Promise<void>;
};

export const replayPlaceholder = '{{replay_url}}';

/** Replaces every `{{replay_url}}` inside strings of a JSON value. */
export function withReplayUrl<T>(value: T, url: string): T {
  if (typeof value === 'string') return value.split(replayPlaceholder).join(url) as T;
  if (Array.isArray(value)) return value.map((item) => withReplayUrl(item, url)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, withReplayUrl(inner, url)])) as T;
  return value;
}

/** True when `actual` holds everything `expected` lists (objects by key, lists item by item, scalars as text). */
export function isSubset(expected: unknown, actual: unknown): boolean {
  if (expected === null || typeof expected !== 'object') return actual === expected || (actual !== undefined && actual !== null && typeof actual !== 'object' && String(actual) === String(expected));
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((item, index) => isSubset(item, actual[index]));
  if (!actual || typeof actual !== 'object') return false;
  return Object.entries(expected).every(([key, inner]) => isSubset(inner, (actual as Record<string, unknown>)[key]));
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (!text) return undefined;
  if (contentType?.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function queryOf(url: URL): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    query[name] = values.length === 1 ? values[0] : values;
  }
  return query;
}

/**
 * Starts the replay server (with `ntlm`, a Windows server whose connections authenticate first). Matching: method + path + the listed query parameters (+ the listed body subset, or for a
 * text body such as XML the listed text found in it); among
 * several matches the first not used yet; once all are used the last one repeats. A string body is sent as is,
 * anything else as JSON. `{{replay_url}}` in response headers and bodies becomes the server's URL.
 */
export async function startReplayServer(exchanges: ReplayExchange[], options: { ntlm?: NtlmServerOptions } = {}): Promise<ReplayServer> {
  const ntlm = options.ntlm ? new NtlmAcceptor(options.ntlm) : undefined;
  const used = new Set<number>();
  const received: ReceivedRequest[] = [];
  const unmatched: string[] = [];
  const encoded = new Map<number, { headers: Record<string, string | string[]>; body: string }>();
  let baseUrl = '';

  const encode = (index: number) => {
    let cached = encoded.get(index);
    if (!cached) {
      const { response } = exchanges[index];
      const headers = withReplayUrl(response.headers ?? {}, baseUrl);
      const body = response.body === undefined ? '' : typeof response.body === 'string' ? withReplayUrl(response.body, baseUrl) : JSON.stringify(withReplayUrl(response.body, baseUrl));
      const hasType = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
      if (!hasType && response.body !== undefined) headers['content-type'] = typeof response.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8';
      cached = { headers, body };
      encoded.set(index, cached);
    }
    return cached;
  };

  const server: Server = createServer(async (request, reply) => {
    const url = new URL(request.url ?? '/', baseUrl);
    const text = await readBody(request);
    const query = queryOf(url);
    const method = request.method ?? 'GET';
    received.push({ method, path: url.pathname, query, headers: request.headers, body: text });
    // A Windows server answers nothing but the NTLM handshake until the connection has authenticated.
    const gate = ntlm?.gate(request.socket, request.headers.authorization);
    if (gate && 'status' in gate) {
      reply.writeHead(gate.status, gate.headers).end(gate.body);
      return;
    }
    const body = parseBody(text, request.headers['content-type']);
    const matches: number[] = [];
    exchanges.forEach((exchange, index) => {
      const wanted = exchange.request;
      if (wanted.method.toUpperCase() !== method || wanted.path !== url.pathname) return;
      if (wanted.query && !Object.entries(wanted.query).every(([name, value]) => isSubset(value, query[name]))) return;
      // A text body (a SOAP envelope) is matched by a part of it: the operation and the values that tell calls apart.
      const bodyMatches = typeof wanted.body === 'string' && typeof body === 'string' ? body.includes(wanted.body) : isSubset(wanted.body, body);
      if (wanted.body !== undefined && !bodyMatches) return;
      matches.push(index);
    });
    const chosen = matches.find((index) => !used.has(index)) ?? matches[matches.length - 1];
    if (chosen === undefined) {
      unmatched.push(`${method} ${url.pathname}${url.search}`);
      reply.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `no replay exchange for ${method} ${url.pathname}` }));
      return;
    }
    used.add(chosen);
    const { headers, body: payload } = encode(chosen);
    reply.writeHead(exchanges[chosen].response.status, headers).end(payload);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: baseUrl,
    received,
    unmatched,
    ntlm,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
