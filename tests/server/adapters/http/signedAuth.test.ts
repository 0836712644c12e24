// Authenticators that sign: Duo's HMAC over each request (the server recomputes it from what it received), Chef's
// RSA-signed headers (verified with the client's public key, body hash included), and the
// JWT bearer grant of Google service accounts (the token endpoint verifies the assertion with the public key; a 401
// asks for a new token with a fresh assertion).
import { createHash, generateKeyPairSync, verify } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { chefCanonicalRequest } from '../../../../src/server/adapters/http/chefSignature.js';
import { duoAuthorization, duoCanonicalRequest } from '../../../../src/server/adapters/http/duoSignature.js';
import { collect, json, manifest, startServer, type TestServer } from './helpers.js';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('signing authenticators', () => {
  it("signs every Duo request, retries included, with a fresh Date the server can check the HMAC of", async () => {
    const verdicts: boolean[] = [];
    let calls = 0;
    server = await startServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://x');
      const date = String(request.headers.date);
      const expected = duoAuthorization(duoCanonicalRequest(date, request.method ?? 'GET', String(request.headers.host), url.pathname, [...url.searchParams]), 'DIWJ8X6AEYOR5OMC6TQ1', 'Zh5eGmUq9zpfQnyUIu5OL9iWoMMv5ZNmk3zLJ4Ep');
      verdicts.push(request.headers.authorization === expected && /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} -0000$/.test(date));
      calls += 1;
      if (calls === 1) return json(response, 429, { stat: 'FAIL', code: 42901, message: 'Too Many Requests' }, { 'retry-after': '0' });
      json(response, 200, { stat: 'OK', response: [{ username: 'jdoe' }] });
    });
    const target = manifest({
      base_url: '{{ config.base_url }}',
      auth: { type: 'duo_hmac', integration_key: '{{ config.ikey }}', secret_key: '{{ config.skey }}' },
      streams: [{ name: 'users', entity: 'user', request: { url: '/admin/v1/users', query: { limit: 300, offset: 0, 'user name': 'a b' } }, records: '{{ response.body.response }}', mapping: { Username: '{{ record.username }}' } }],
    });
    const result = await collect(target, { base_url: server.url, ikey: 'DIWJ8X6AEYOR5OMC6TQ1', skey: 'Zh5eGmUq9zpfQnyUIu5OL9iWoMMv5ZNmk3zLJ4Ep' });
    expect(result.records.map((record) => record.fields.Username)).toEqual(['jdoe']);
    expect(verdicts).toEqual([true, true]);
  });

  it("signs every Chef request, POST body included, so the server verifies it with the client's public key", async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const verdicts: boolean[] = [];
    server = await startServer((request, response) => {
      const header = (name: string) => String(request.headers[name] ?? '');
      const signature = Object.keys(request.headers).filter((name) => name.startsWith('x-ops-authorization-')).sort((a, b) => Number(a.split('-').pop()) - Number(b.split('-').pop())).map(header).join('');
      const bodyHash = createHash('sha256').update(request.bodyText).digest('base64');
      const canonical = chefCanonicalRequest(request.method ?? 'GET', new URL(request.url ?? '/', 'http://x').pathname, header('x-ops-content-hash'), header('x-ops-timestamp'), header('x-ops-userid'), header('x-ops-server-api-version'));
      verdicts.push(bodyHash === header('x-ops-content-hash') && verify('sha256', Buffer.from(canonical), publicKey, Buffer.from(signature, 'base64')));
      json(response, 200, { total: 1, start: 0, rows: [{ data: { name: 'web01' } }] });
    });
    const target = manifest({
      base_url: '{{ config.base_url }}',
      auth: { type: 'chef_signature', client_name: '{{ config.client }}', private_key: '{{ config.key }}' },
      streams: [{ name: 'nodes', entity: 'device', request: { method: 'POST', url: '/organizations/acme/search/node', query: { q: '*:*' }, body: { name: ['name'] } }, records: '{{ response.body.rows | pluck("data") }}', mapping: { Hostname: '{{ record.name }}' } }],
    });
    const result = await collect(target, { base_url: server.url, client: 'cartograph', key: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString() });
    expect(result.records.map((record) => record.fields.Hostname)).toEqual(['web01']);
    expect(verdicts).toEqual([true]);
  });

  it('exchanges a signed JWT for a token, sends it, and asks again with a fresh assertion after a 401', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const assertions: Record<string, unknown>[] = [];
    const seen: (string | undefined)[] = [];
    let issued = 0;
    server = await startServer((request, response) => {
      if (request.url === '/token') {
        const form = new URLSearchParams(request.bodyText);
        const [header, payload, signature] = String(form.get('assertion')).split('.');
        const valid = form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer' && verify('sha256', Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, 'base64url'));
        if (!valid) return json(response, 400, { error: 'invalid_grant' });
        assertions.push(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
        issued += 1;
        return json(response, 200, { access_token: `ya29.token-${issued}`, expires_in: 3599, token_type: 'Bearer' });
      }
      seen.push(request.headers.authorization);
      if (seen.length === 1) return json(response, 401, { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } });
      json(response, 200, { users: [{ primaryEmail: 'ada@acme.example' }] });
    });
    const target = manifest({
      base_url: '{{ config.base_url }}',
      auth: { type: 'oauth2_jwt_bearer', token_url: '/token', issuer: '{{ (config.key | from_json).client_email }}', private_key: '{{ (config.key | from_json).private_key }}', subject: '{{ config.admin }}', scope: 'https://www.googleapis.com/auth/admin.directory.user.readonly' },
      streams: [{ name: 'users', entity: 'user', request: { url: '/users' }, records: '{{ response.body.users }}', mapping: { Email: '{{ record.primaryEmail }}' } }],
    });
    const key = JSON.stringify({ type: 'service_account', client_email: 'cartograph@acme.iam.gserviceaccount.com', private_key: pem });
    const result = await collect(target, { base_url: server.url, key, admin: 'admin@acme.example' });
    expect(result.records.map((record) => record.fields.Email)).toEqual(['ada@acme.example']);
    expect(seen).toEqual(['Bearer ya29.token-1', 'Bearer ya29.token-2']);
    expect(assertions).toHaveLength(2);
    expect(assertions[0]).toMatchObject({ iss: 'cartograph@acme.iam.gserviceaccount.com', sub: 'admin@acme.example', scope: 'https://www.googleapis.com/auth/admin.directory.user.readonly', aud: `${server.url}/token` });
  });
});
