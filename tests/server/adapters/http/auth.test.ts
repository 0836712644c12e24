import { afterEach, describe, expect, it } from 'vitest';
import { check, collect, json, manifest, startServer, type TestServer } from './helpers.js';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const listStream = { name: 'items', entity: 'device' as const, request: { url: '/items' }, records: '{{ response.body.items }}', mapping: { Hostname: '{{ record.name }}' } };

describe('the HTTP engine authenticators', () => {
  it('sends a bearer token from a config field', async () => {
    const seen: (string | undefined)[] = [];
    server = await startServer((request, response) => {
      seen.push(request.headers.authorization);
      json(response, 200, { items: [{ name: 'a' }] });
    });
    const result = await collect(manifest({ base_url: '{{ config.base_url }}', auth: { type: 'bearer', token: '{{ config.token }}' }, streams: [listStream] }), { base_url: server.url, token: 't-123' });
    expect(result.records).toHaveLength(1);
    expect(seen).toEqual(['Bearer t-123']);
  });

  it('sends custom header and query templates that combine several secrets', async () => {
    const seen: { key?: string | string[]; url?: string }[] = [];
    server = await startServer((request, response) => {
      seen.push({ key: request.headers['x-apikeys'], url: request.url });
      json(response, 200, { items: [] });
    });
    const target = manifest({
      base_url: '{{ config.base_url }}',
      auth: { type: 'header', headers: { 'X-ApiKeys': 'accessKey={{ config.access }};secretKey={{ config.secret }}' }, query: { apiKey: '{{ config.access }}' } },
      streams: [listStream],
    });
    await collect(target, { base_url: server.url, access: 'AK', secret: 'SK' });
    expect(seen).toEqual([{ key: 'accessKey=AK;secretKey=SK', url: '/items?apiKey=AK' }]);
  });

  it('sends HTTP Basic credentials and picks the authenticator whose `when` matches the config', async () => {
    const seen: (string | undefined)[] = [];
    server = await startServer((request, response) => {
      seen.push(request.headers.authorization);
      json(response, 200, { items: [] });
    });
    const target = manifest({
      base_url: '{{ config.base_url }}',
      auth: [
        { type: 'bearer', when: "{{ config.auth.auth_type == 'token' }}", token: '{{ config.auth.token }}' },
        { type: 'basic', when: "{{ config.auth.auth_type == 'basic' }}", username: '{{ config.auth.username }}', password: '{{ config.auth.password }}' },
      ],
      streams: [listStream],
    });
    await collect(target, { base_url: server.url, auth: { auth_type: 'basic', username: 'svc', password: 'p:w{{x}}' } });
    expect(seen).toEqual([`Basic ${Buffer.from('svc:p:w{{x}}').toString('base64')}`]);
  });

  it('gets an OAuth2 client-credentials token once, reuses it until it expires, and gets a new one after a 401', async () => {
    const tokenRequests: string[] = [];
    let issued = 0;
    let rejectNext = false;
    server = await startServer((request, response) => {
      if (request.url === '/oauth2/token') {
        tokenRequests.push(request.bodyText);
        issued += 1;
        return json(response, 201, { access_token: `tok-${issued}`, token_type: 'bearer', expires_in: 1799 });
      }
      if (rejectNext && request.headers.authorization === 'Bearer tok-1') {
        rejectNext = false;
        return json(response, 401, { errors: [{ message: 'access denied, invalid bearer token' }] });
      }
      if (request.url?.startsWith('/items?page=1')) rejectNext = true;
      json(response, 200, { items: [{ name: request.headers.authorization }], next: request.url?.startsWith('/items?page=1') ? 2 : request.url === '/items' ? 1 : null });
    });
    const target = manifest({
      base_url: '{{ config.base_url }}',
      auth: { type: 'oauth2_client_credentials', token_url: '/oauth2/token', client_id: '{{ config.id }}', client_secret: '{{ config.secret }}', grant_type: null, extra: { member_cid: '{{ config.cid }}' } },
      streams: [{ ...listStream, request: { url: '/items', query: { page: '{{ page.cursor }}' } }, paginator: { type: 'cursor', cursor: '{{ response.body.next }}' } }],
    });
    const result = await collect(target, { base_url: server.url, id: 'client', secret: 's&cret' });
    expect(result.records.map((record) => record.fields.Hostname)).toEqual(['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-2']);
    expect(tokenRequests).toHaveLength(2);
    expect(Object.fromEntries(new URLSearchParams(tokenRequests[0]))).toEqual({ client_id: 'client', client_secret: 's&cret' });
  });

  it('sends client credentials as Basic with a scope when the manifest says so', async () => {
    const seen: { authorization?: string; body: string }[] = [];
    server = await startServer((request, response) => {
      if (request.url === '/token') {
        seen.push({ authorization: request.headers.authorization, body: request.bodyText });
        return json(response, 200, { access_token: 'abc', expires_in: 3600 });
      }
      json(response, 200, { items: [] });
    });
    const target = manifest({
      base_url: '{{ config.base_url }}',
      auth: { type: 'oauth2_client_credentials', token_url: '/token', client_id: 'id', client_secret: 'secret', client_auth: 'basic', scope: 'https://graph.example.com/.default' },
      streams: [listStream],
    });
    await collect(target, { base_url: server.url });
    expect(seen[0].authorization).toBe(`Basic ${Buffer.from('id:secret').toString('base64')}`);
    expect(Object.fromEntries(new URLSearchParams(seen[0].body))).toEqual({ grant_type: 'client_credentials', scope: 'https://graph.example.com/.default' });
  });

  it('logs in to a session, sends the token in a custom header, logs in again on a 401 and logs out at the end', async () => {
    const calls: string[] = [];
    let sessions = 0;
    server = await startServer((request, response) => {
      calls.push(`${request.method} ${request.url} ${request.headers['session-token'] ?? ''}`);
      if (request.url === '/initSession') {
        sessions += 1;
        return json(response, 200, { session_token: `s${sessions}` });
      }
      if (request.url === '/killSession') return json(response, 200, []);
      if (request.headers['session-token'] === 's1' && request.url === '/items') return json(response, 401, ['ERROR_SESSION_TOKEN_INVALID', 'session expired']);
      json(response, 200, { items: [{ name: 'x' }] });
    });
    const target = manifest({
      base_url: '{{ config.base_url }}',
      auth: {
        type: 'session',
        login: { url: '/initSession', headers: { Authorization: 'user_token {{ config.user_token }}' } },
        token: '{{ response.body.session_token }}',
        headers: { 'Session-Token': '{{ auth.token }}' },
        logout: { url: '/killSession' },
      },
      streams: [listStream],
    });
    const result = await collect(target, { base_url: server.url, user_token: 'u' });
    expect(result.records).toHaveLength(1);
    expect(calls).toEqual(['GET /initSession ', 'GET /items s1', 'GET /initSession ', 'GET /items s2', 'GET /killSession s2']);
  });

  it('trades the login answer for the session token with an exchange request, both again on a 401', async () => {
    const calls: string[] = [];
    let grants = 0;
    server = await startServer((request, response) => {
      calls.push(`${request.method} ${request.url} ${request.headers['refresh-token'] ?? request.headers.authorization ?? ''}`);
      if (request.url === '/auth/refresh-token') {
        grants += 1;
        return json(response, 200, { refresh_token: `r${grants}` });
      }
      if (request.url === '/auth/access-token') return json(response, 200, { access_token: `a-${String(request.headers['refresh-token']).slice(7)}`, access_token_expires_in: 3600 });
      if (request.headers.authorization === 'Bearer a-r1') return json(response, 401, { message: 'expired' });
      json(response, 200, { items: [{ name: String(request.headers.authorization) }] });
    });
    const target = manifest({
      base_url: '{{ config.base_url }}',
      auth: {
        type: 'session',
        login: { method: 'POST', url: '/auth/refresh-token', headers: { username: 'u', password: 'p' } },
        exchange: { method: 'POST', url: '/auth/access-token', headers: { 'refresh-token': 'Bearer {{ login.body.refresh_token }}' } },
        token: '{{ response.body.access_token }}',
        expires_in: '{{ response.body.access_token_expires_in }}',
      },
      streams: [listStream],
    });
    const result = await collect(target, { base_url: server.url });
    expect(result.records[0].fields.Hostname).toBe('Bearer a-r2');
    expect(calls).toEqual(['POST /auth/refresh-token ', 'POST /auth/access-token Bearer r1', 'GET /items Bearer a-r1', 'POST /auth/refresh-token ', 'POST /auth/access-token Bearer r2', 'GET /items Bearer a-r2']);
  });

  it('chains exchange steps, each seeing the login answer and the answer before it', async () => {
    const calls: string[] = [];
    server = await startServer((request, response) => {
      calls.push(`${request.method} ${request.url} ${request.headers.cookie ?? ''}${request.headers['x-csrf-token'] ?? ''}`);
      if (request.url === '/login') return response.writeHead(200, { 'content-type': 'application/json', 'set-cookie': ['csrftoken=c1; Path=/', 'session=s1; Path=/'] }).end('{"status":true}');
      if (request.url === '/authorize') return json(response, 200, { auth_code: 'code-1' });
      if (request.url?.startsWith('/token')) return json(response, 200, { access_token: `t-${new URL(request.url, 'http://x').searchParams.get('code')}` });
      json(response, 200, { items: [{ name: String(request.headers.authorization) }] });
    });
    const target = manifest({
      base_url: '{{ config.base_url }}',
      auth: {
        type: 'session',
        login: { method: 'POST', url: '/login', body: { username: 'u' } },
        exchange: [
          { method: 'POST', url: '/authorize', headers: { Cookie: 'session={{ previous.cookies.session }}', 'X-CSRF-Token': '{{ login.cookies.csrftoken }}' } },
          { method: 'POST', url: '/token', query: { code: '{{ previous.body.auth_code }}' } },
        ],
        token: '{{ response.body.access_token }}',
      },
      streams: [listStream],
    });
    const result = await collect(target, { base_url: server.url });
    expect(result.records[0].fields.Hostname).toBe('Bearer t-code-1');
    expect(calls).toEqual(['POST /login ', 'POST /authorize session=s1c1', 'POST /token?code=code-1 ', 'GET /items ']);
  });

  it('takes a session token from a bare string body or a cookie', async () => {
    server = await startServer((request, response) => {
      if (request.url === '/api/session') return json(response, 201, 'b00f1e5d7a', { 'set-cookie': 'vmware-api-session-id=b00f1e5d7a; Path=/; HttpOnly' });
      if (request.url === '/cookie-login') return response.writeHead(204, { 'set-cookie': ['other=1; Path=/', 'JSESSIONID=abc123; Path=/; Secure'] }).end();
      json(response, 200, { items: [{ name: `${request.headers['vmware-api-session-id'] ?? ''}${request.headers.cookie ?? ''}` }] });
    });
    const bare = manifest({
      base_url: '{{ config.base_url }}',
      auth: { type: 'session', login: { method: 'POST', url: '/api/session', basic: { username: 'u', password: 'p' } }, token: '{{ response.body }}', headers: { 'vmware-api-session-id': '{{ auth.token }}' } },
      streams: [listStream],
    });
    const cookie = manifest({
      base_url: '{{ config.base_url }}',
      auth: { type: 'session', login: { method: 'POST', url: '/cookie-login' }, token: '{{ response.cookies.JSESSIONID }}', headers: { Cookie: 'JSESSIONID={{ auth.token }}' } },
      streams: [listStream],
    });
    expect((await collect(bare, { base_url: server.url })).records[0].fields.Hostname).toBe('b00f1e5d7a');
    expect((await collect(cookie, { base_url: server.url })).records[0].fields.Hostname).toBe('JSESSIONID=abc123');
  });

  it('reports a rejected login as unauthorized and a 403 as forbidden in the connectivity check', async () => {
    server = await startServer((request, response) => {
      if (request.url === '/login') return json(response, 401, { message: 'Invalid credentials' });
      json(response, 403, { message: 'Missing scope devices:read' });
    });
    const session = manifest({
      base_url: '{{ config.base_url }}',
      auth: { type: 'session', login: { method: 'POST', url: '/login' }, token: '{{ response.body.token }}' },
      streams: [listStream],
    });
    const bearer = manifest({ base_url: '{{ config.base_url }}', auth: { type: 'bearer', token: 'x' }, streams: [listStream] });
    expect(await check(session, { base_url: server.url })).toMatchObject({ ok: false, reason: 'unauthorized', detail: expect.stringContaining('Invalid credentials') });
    expect(await check(bearer, { base_url: server.url })).toMatchObject({ ok: false, reason: 'forbidden', detail: expect.stringContaining('Missing scope') });
  });

  it('answers invalid_config when no authenticator matches the connection settings', async () => {
    const target = manifest({ base_url: 'http://127.0.0.1:9', auth: [{ type: 'bearer', when: "{{ config.auth.auth_type == 'token' }}", token: 'x' }], streams: [listStream] });
    expect(await check(target, { auth: { auth_type: 'jwt' } })).toMatchObject({ ok: false, reason: 'invalid_config' });
  });
});
