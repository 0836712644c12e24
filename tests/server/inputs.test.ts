import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyLimitBytes } from '../../src/server/http/app.js';
import { startTestServer, type TestServer } from './harness.js';

// Words that would betray internals in an answer: stack frames, SQL, file paths, library names.
const internals = /(\bat \w+ \(|node_modules|\.ts:\d+|syntax error|relation "|duplicate key|pglite|TypeError|ReferenceError|stack)/i;

const hostileValue = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom("' or 1=1 --", '"; drop table users; --', '<script>alert(1)</script>', '../../etc/passwd', '\u0000', '%00', '${7*7}', '{{7*7}}', 'a'.repeat(5000)),
  fc.array(fc.string({ maxLength: 20 }), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }), { maxKeys: 3 }),
);
const hostileBody = fc.oneof(
  fc.dictionary(fc.constantFrom('username', 'password', 'otp', 'token', 'name', 'text', 'email', 'group_ids', 'permissions', '__proto__', 'constructor', 'tenant', 'domain', 'x'), hostileValue, { maxKeys: 6 }),
  hostileValue,
);

describe('hostile and malformed input', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite');
  });
  afterAll(() => server.stop());

  const targets: [string, string, boolean][] = [
    ['POST', '/api/token', false],
    ['POST', '/api/token/ldap', false],
    ['POST', '/api/token/token', false],
    ['POST', '/api/password', true],
    ['POST', '/users/users', true],
    ['PUT', '/users/users/1', true],
    ['POST', '/users/groups', true],
    ['POST', '/companies/domains', true],
    ['POST', '/queries/queries', true],
    ['PATCH', '/queries/queries/1', true],
  ];

  it.each(targets)('never answers 5xx or internals to generated bodies on %s %s', async (method, url, signedIn) => {
    await fc.assert(
      fc.asyncProperty(hostileBody, async (body) => {
        const answer = await server.request(method, url, { body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, token: signedIn ? server.adminToken : undefined });
        expect(answer.status).toBeLessThan(500);
        expect(JSON.stringify(answer.body)).not.toMatch(internals);
      }),
      { numRuns: 60 },
    );
  });

  it('answers 400 with a clear detail to malformed JSON', async () => {
    const answer = await server.request('POST', '/api/token', { body: '{"username": "admin",', headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toMatch(/JSON/);
  });

  it('answers 413 to a body over the size limit', async () => {
    const answer = await server.request('POST', '/queries/queries', { token: server.adminToken, body: JSON.stringify({ name: 'x', text: 'y'.repeat(bodyLimitBytes) }), headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(413);
  });

  it('answers 415 to a body that is not JSON', async () => {
    const answer = await server.request('POST', '/api/token', { body: 'username=admin', headers: { 'content-type': 'text/plain' } });
    expect(answer.status).toBe(415);
  });

  it('answers 400 to prototype pollution attempts', async () => {
    const answer = await server.request('POST', '/queries/queries', { token: server.adminToken, body: '{"name":"x","text":"y","__proto__":{"admin":true}}', headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(400);
  });

  it('answers 400 naming the field to an invalid id', async () => {
    // "1e999" and "Infinity" read as a number are infinite: ajv's coercion lets them past `integer` and `maximum`.
    for (const id of ['abc', '-1', '0', '99999999999999999999', '1.5', '1e999', 'Infinity', '-Infinity']) {
      expect(await server.request('GET', `/users/users/${id}`, { token: server.adminToken })).toMatchObject({ status: 400, body: { id: [expect.any(String)] } });
    }
  });

  it('answers 400 naming the parameter to an infinite number in a query string', async () => {
    for (const page of ['1e999', 'Infinity']) {
      expect(await server.request('GET', `/users/users?page=${page}`, { token: server.adminToken })).toMatchObject({ status: 400, body: { page: [expect.any(String)] } });
    }
  });

  it('treats search text literally, wildcards and quotes included', async () => {
    const answer = await server.request('GET', `/users/users?search=${encodeURIComponent("%' or '1'='1")}`, { token: server.adminToken });
    expect(answer.body.count).toBe(0);
    expect((await server.request('GET', '/users/users?search=%25', { token: server.adminToken })).body.count).toBe(0);
  });

  it('sends the security headers and a strict content security policy', async () => {
    const answer = await server.request('GET', '/api/ping');
    expect(answer.headers['content-security-policy']).toContain("script-src 'self'");
    expect(answer.headers['content-security-policy']).not.toContain('unsafe');
    expect(answer.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' });
  });

  it('answers an unknown path with a 404 detail', async () => {
    expect(await server.request('GET', '/no/such/path')).toMatchObject({ status: 404, body: { detail: 'Not found.' } });
  });

  it('describes every route in the OpenAPI document', async () => {
    const document = (await server.request('GET', '/api/docs/openapi.json')).body;
    expect(document.openapi).toBe('3.1.0');
    for (const definition of server.app.routeCatalogue.definitions) {
      const operation = document.paths[definition.url.replace(/:(\w+)/g, '{$1}')]?.[definition.method.toLowerCase()];
      expect(operation, `${definition.method} ${definition.url}`).toMatchObject({ operationId: definition.name });
      if (definition.body) expect(document.components.schemas[operation.requestBody.content['application/json'].schema.$ref.split('/').at(-1)]).toBeDefined();
    }
  });
});
