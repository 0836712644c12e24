// A session spread over several cookies and a CSRF token (Quest KACE): the login answer's cookies travel as one
// Cookie header (response.cookie_header), further values of the same answer are auth.<name>, and both are taken
// again from the new answer when the engine logs in once more after a 401.
import { afterEach, describe, expect, it } from 'vitest';
import { collect, json, manifest, startServer, type TestServer } from './helpers.js';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const kaceLike = manifest({
  base_url: '{{ config.base_url }}',
  auth: {
    type: 'session',
    login: { method: 'POST', url: '/login', body: { userName: 'svc' } },
    token: '{{ response.cookie_header }}',
    values: { csrf: "{{ response.headers['x-csrf-token'] }}" },
    headers: { Cookie: '{{ auth.token }}', 'x-csrf-token': '{{ auth.csrf }}' },
  },
  streams: [{ name: 'machines', entity: 'device', request: { url: '/machines', query: { page: '{{ page.number }}' } }, paginator: { type: 'page', page_size: 1, total_pages: '2' }, records: '{{ response.body.Machines }}', mapping: { Hostname: '{{ record.name }}' } }],
});

describe('session values and cookie_header', () => {
  it('sends every login cookie and the CSRF value, and takes both again after a 401', async () => {
    let logins = 0;
    const seen: string[] = [];
    server = await startServer((request, response) => {
      if (request.url === '/login') {
        logins += 1;
        response.setHeader('set-cookie', [`kboxid=box${logins}; Path=/; Secure; HttpOnly`, `KACE_LAST_ORG_SECURE=Default; Path=/`]);
        json(response, 200, { account: { id: 1 } }, { 'x-csrf-token': `csrf${logins}` });
        return;
      }
      seen.push(`${request.url} ${request.headers.cookie} ${request.headers['x-csrf-token']}`);
      if (request.url === '/machines?page=2' && logins === 1) return json(response, 401, { error: 'session expired' });
      json(response, 200, { Machines: [{ name: request.url === '/machines?page=1' ? 'm1' : 'm2' }] });
    });
    const { records } = await collect(kaceLike, { base_url: server.url });
    expect(records.map((record) => record.fields.Hostname)).toEqual(['m1', 'm2']);
    expect(seen).toEqual([
      '/machines?page=1 kboxid=box1; KACE_LAST_ORG_SECURE=Default csrf1',
      '/machines?page=2 kboxid=box1; KACE_LAST_ORG_SECURE=Default csrf1',
      '/machines?page=2 kboxid=box2; KACE_LAST_ORG_SECURE=Default csrf2',
    ]);
  });
});
