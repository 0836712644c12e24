// One app, two APIs (Azure Resource Manager and Microsoft Graph): a request's token_scope asks for a token of that
// scope, each scope's token is fetched once and reused, and a 401 renews only the token of the request that got it.
import { afterEach, describe, expect, it } from 'vitest';
import { collect, json, manifest, startServer, type TestServer } from './helpers.js';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const twoApis = manifest({
  base_url: '{{ config.base_url }}',
  auth: { type: 'oauth2_client_credentials', token_url: '/token', client_id: 'app', client_secret: 's3cret', scope: 'https://management.example/.default' },
  streams: [
    { name: 'vms', entity: 'device', request: { url: '/arm/vms', query: { page: '{{ page.number }}' } }, paginator: { type: 'page', page_size: 1, total_pages: '2' }, records: '{{ response.body.value }}', mapping: { Hostname: '{{ record.name }}' } },
    { name: 'devices', entity: 'device', request: { url: '/graph/devices', token_scope: 'https://graph.example/.default' }, records: '{{ response.body.value }}', mapping: { Hostname: '{{ record.displayName }}' } },
  ],
});

describe('token_scope', () => {
  it('fetches one token per scope, sends each with its own API, and renews only the one refused', async () => {
    const issued: string[] = [];
    const seen: string[] = [];
    server = await startServer((request, response) => {
      if (request.url === '/token') {
        const scope = new URLSearchParams(request.bodyText).get('scope') ?? '';
        const token = `${scope.includes('graph') ? 'graph' : 'arm'}-${issued.length + 1}`;
        issued.push(token);
        return json(response, 200, { access_token: token, expires_in: 3599 });
      }
      const token = String(request.headers.authorization).replace('Bearer ', '');
      seen.push(`${request.url} ${token}`);
      if (request.url === '/arm/vms?page=2' && token === 'arm-1') return json(response, 401, { error: { code: 'ExpiredAuthenticationToken' } });
      if (request.url?.startsWith('/arm/')) return json(response, 200, { value: [{ name: `vm${request.url.slice(-1)}` }] });
      json(response, 200, { value: [{ displayName: 'laptop' }] });
    });
    const { records } = await collect(twoApis, { base_url: server.url });
    expect(records.map((record) => record.fields.Hostname)).toEqual(['vm1', 'vm2', 'laptop']);
    expect(issued).toEqual(['arm-1', 'arm-2', 'graph-3']);
    expect(seen).toEqual(['/arm/vms?page=1 arm-1', '/arm/vms?page=2 arm-1', '/arm/vms?page=2 arm-2', '/graph/devices graph-3']);
  });
});
