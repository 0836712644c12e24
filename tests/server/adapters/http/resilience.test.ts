import { afterEach, describe, expect, it } from 'vitest';
import { retryDelaySeconds } from '../../../../src/server/adapters/http/transport.js';
import { check, collect, json, manifest, startServer, type TestServer } from './helpers.js';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const base = { base_url: '{{ config.base_url }}', retry: { base_delay_ms: 10 } };
const stream = (extra: Record<string, unknown> = {}) => ({
  name: 'items', entity: 'device' as const, request: { url: '/items' }, records: '{{ response.body.items }}', mapping: { Hostname: '{{ record.name }}' }, ...extra,
});

describe('the HTTP engine under vendor trouble', () => {
  it('retries a 500 and goes on when the next answer is 200, with a warning', async () => {
    let calls = 0;
    server = await startServer((_request, response) => {
      calls += 1;
      if (calls === 1) return json(response, 500, { message: 'Internal Server Error' });
      json(response, 200, { items: [{ name: 'a' }] });
    });
    const { records, warnings } = await collect(manifest({ ...base, streams: [stream()] }), { base_url: server.url });
    expect(records).toHaveLength(1);
    expect(calls).toBe(2);
    expect(warnings).toEqual([expect.stringMatching(/^500 from \/items; retrying/)]);
  });

  it('waits as a 429 Retry-After asks (seconds or an HTTP date) and then fetches', async () => {
    const answers = [
      () => ({ status: 429, headers: { 'retry-after': '0' } }),
      () => ({ status: 429, headers: { 'retry-after': new Date(Date.now() - 1000).toUTCString() } }),
      () => ({ status: 200, headers: {} }),
    ];
    let calls = 0;
    server = await startServer((_request, response) => {
      const answer = answers[calls++]();
      json(response, answer.status, answer.status === 200 ? { items: [{ name: 'a' }] } : { errors: ['rate limited'] }, answer.headers);
    });
    const { records, warnings } = await collect(manifest({ ...base, retry: { base_delay_ms: 60_000 }, streams: [stream()] }), { base_url: server.url });
    expect(records).toHaveLength(1);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('429 from /items; retrying in 0.0 s');
  });

  it('reads Retry-After seconds, Retry-After dates and epoch reset headers', () => {
    const now = Date.parse('2024-03-14T12:00:00Z');
    expect(retryDelaySeconds({ 'retry-after': '7' }, undefined, now)).toBe(7);
    expect(retryDelaySeconds({ 'retry-after': 'Thu, 14 Mar 2024 12:00:30 GMT' }, undefined, now)).toBe(30);
    expect(retryDelaySeconds({ 'x-rate-limit-reset': String(now / 1000 + 12) }, 'X-Rate-Limit-Reset', now)).toBe(12);
    expect(retryDelaySeconds({}, 'X-Rate-Limit-Reset', now)).toBeNull();
  });

  it('gives up after max_attempts and names the status, the path and the page', async () => {
    let calls = 0;
    server = await startServer((_request, response) => {
      calls += 1;
      json(response, 503, { message: 'Service Unavailable' });
    });
    await expect(collect(manifest({ ...base, retry: { max_attempts: 3, base_delay_ms: 1 }, streams: [stream()] }), { base_url: server.url })).rejects.toThrow(
      '503 from GET /items (stream items, page 1): Service Unavailable',
    );
    expect(calls).toBe(3);
  });

  it('retries a dropped connection (network error) and succeeds', async () => {
    let calls = 0;
    server = await startServer((request, response) => {
      calls += 1;
      if (calls === 1) return request.socket.destroy();
      json(response, 200, { items: [{ name: 'a' }] });
    });
    expect((await collect(manifest({ ...base, streams: [stream()] }), { base_url: server.url })).records).toHaveLength(1);
  });

  it('fails on a truncated JSON body with the URL path and the page number', async () => {
    server = await startServer((request, response) => {
      const page = new URL(request.url!, 'http://x').searchParams.get('page');
      if (page === '1') return json(response, 200, { items: [{ name: 'a' }], more: true });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[{"name":"b"},{"na');
    });
    const target = manifest({ ...base, streams: [stream({ request: { url: '/items', query: { page: '{{ page.number }}' } }, paginator: { type: 'page', page_size: 1 } })] });
    await expect(collect(target, { base_url: server.url })).rejects.toThrow(/invalid or truncated JSON in the answer to GET \/items \(stream items, page 2\)/);
  });

  it('stops with a warning when the vendor sends the same cursor again', async () => {
    let calls = 0;
    server = await startServer((_request, response) => {
      calls += 1;
      json(response, 200, { items: [{ name: `n${calls}` }], next: calls === 1 ? 'A' : 'B' });
    });
    const target = manifest({ ...base, streams: [stream({ request: { url: '/items', query: { cursor: '{{ page.cursor }}' } }, paginator: { type: 'cursor', cursor: '{{ response.body.next }}' } })] });
    const { records, warnings } = await collect(target, { base_url: server.url });
    expect(records).toHaveLength(3);
    expect(warnings).toEqual([expect.stringContaining('same cursor again after page 3; stopped to avoid a loop (3 records fetched)')]);
  });

  it('stops with a warning when the next URL repeats', async () => {
    server = await startServer((_request, response) => json(response, 200, { items: [{ name: 'a' }], next: `${server!.url}/items?p=2` }));
    const target = manifest({ ...base, streams: [stream({ paginator: { type: 'next_url', next_url: '{{ response.body.next }}' } })] });
    const { records, warnings } = await collect(target, { base_url: server.url });
    expect(records).toHaveLength(2);
    expect(warnings).toEqual([expect.stringContaining('same next-page URL again')]);
  });

  it('refuses a page larger than max_response_bytes, declared or streamed', async () => {
    const big = { items: Array.from({ length: 5000 }, (_, index) => ({ name: `host-${index}`, padding: 'x'.repeat(50) })) };
    server = await startServer((request, response) => {
      if (request.url === '/chunked') {
        response.writeHead(200, { 'content-type': 'application/json' });
        for (let index = 0; index < 50; index += 1) response.write('x'.repeat(10_000));
        return response.end();
      }
      const text = JSON.stringify(big);
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }).end(text);
    });
    const target = manifest({ ...base, max_response_bytes: 100_000, streams: [stream()] });
    await expect(collect(target, { base_url: server.url })).rejects.toThrow(/the answer of \/items is \d+ bytes, over the 100000-byte cap \(stream items, page 1\)/);
    const chunked = manifest({ ...base, max_response_bytes: 100_000, streams: [stream({ request: { url: '/chunked' } })] });
    await expect(collect(chunked, { base_url: server.url })).rejects.toThrow(/exceeds the 100000-byte cap/);
  });

  it('times out a slow answer after the configured timeout', async () => {
    server = await startServer((_request, response) => {
      setTimeout(() => json(response, 200, { items: [] }), 2000).unref();
    });
    const target = manifest({ ...base, retry: { max_attempts: 1 }, streams: [stream()] });
    await expect(collect(target, { base_url: server.url, timeout_seconds: 0.2 })).rejects.toThrow(/\/items did not answer within 0.2 s \(stream items, page 1\)/);
    expect(await check(target, { base_url: server.url, timeout_seconds: 0.2 })).toMatchObject({ ok: false, reason: 'timeout' });
  });

  it('stops promptly when the discovery is cancelled', async () => {
    server = await startServer((_request, response) => {
      setTimeout(() => json(response, 200, { items: [] }), 5000).unref();
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expect(collect(manifest({ ...base, streams: [stream()] }), { base_url: server.url }, controller.signal)).rejects.toThrow(/cancelled/);
  });

  it('follows a redirect on the same scheme but never to another scheme', async () => {
    server = await startServer((request, response) => {
      if (request.url === '/old') return response.writeHead(301, { location: '/items' }).end();
      if (request.url === '/downgrade') return response.writeHead(302, { location: 'https://127.0.0.1:1/items' }).end();
      json(response, 200, { items: [{ name: 'a' }] });
    });
    expect((await collect(manifest({ ...base, streams: [stream({ request: { url: '/old' } })] }), { base_url: server.url })).records).toHaveLength(1);
    await expect(collect(manifest({ ...base, streams: [stream({ request: { url: '/downgrade' } })] }), { base_url: server.url })).rejects.toThrow(/redirected to another scheme/);
  });

  it('treats an error inside a 200 answer as a failure, and an empty status as no records', async () => {
    server = await startServer((request, response) => {
      if (request.url === '/rpc') return json(response, 200, { jsonrpc: '2.0', error: { code: -32602, message: 'Invalid params.', data: 'Not authorised.' }, id: 1 });
      json(response, 404, { error: { code: 'ResourceNotFound' } });
    });
    const rpc = manifest({ ...base, streams: [stream({ request: { method: 'POST', url: '/rpc', body: { method: 'host.get' }, error_when: [{ condition: '{{ response.body.error }}', message: '{{ response.body.error.message }} {{ response.body.error.data }}' }] } })] });
    await expect(collect(rpc, { base_url: server.url })).rejects.toThrow('POST /rpc (stream items, page 1) answered an error: Invalid params. Not authorised.');
    const empty = manifest({ ...base, streams: [stream({ request: { url: '/machines', empty_statuses: [404] } })] });
    expect((await collect(empty, { base_url: server.url })).records).toEqual([]);
  });

  it('fails clearly when the records are not a list', async () => {
    server = await startServer((_request, response) => json(response, 200, { items: { name: 'not a list' } }));
    await expect(collect(manifest({ ...base, streams: [stream()] }), { base_url: server.url })).rejects.toThrow(/does not hold a list of records/);
  });
});
