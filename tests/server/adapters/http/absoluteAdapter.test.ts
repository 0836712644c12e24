// The Absolute adapter end to end: the engine turns every request of the real manifest into a JWS posted to
// /jws/validate, and a server that verifies each JWS with the token secret (as Absolute does) answers the request
// the JWS describes; a JWS signed with another secret is refused there.
import { readFileSync } from 'node:fs';
import { compactVerify } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import type { Manifest } from '../../../../src/server/adapters/http/manifest.js';
import { collect, json, startServer, type TestServer } from './helpers.js';

const absolute = JSON.parse(readFileSync('schemas/adapters/absolute/manifest.json', 'utf8')) as Manifest;
const secret = 'example-secret-key-value';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('the Absolute adapter', () => {
  it('pages devices through verified JWS requests', async () => {
    const described: string[] = [];
    server = await startServer(async (request, response) => {
      if (request.method !== 'POST' || request.url !== '/jws/validate' || request.headers['content-type'] !== 'text/plain') return json(response, 404, {});
      try {
        const { protectedHeader } = await compactVerify(request.bodyText, new TextEncoder().encode(secret));
        described.push(`${protectedHeader.method} ${protectedHeader.uri}?${protectedHeader['query-string']}`);
        const second = String(protectedHeader['query-string']).includes('nextPage=p2');
        json(response, 200, { data: [{ deviceUid: second ? 'u2' : 'u1', deviceName: second ? 'B' : 'A' }], metadata: { pagination: { nextPage: second ? '' : 'p2' } } });
      } catch {
        json(response, 401, { message: 'Signature verification failed' });
      }
    });
    const config = { base_url: server.url, auth: { auth_type: 'api_key_pair', token_id: 'tok-1', secret_key: secret } };
    const { records } = await collect(absolute, config);
    expect(records.map((record) => record.fields.AgentId)).toEqual(['u1', 'u2']);
    expect(described).toEqual(['GET /v3/reporting/devices?pageSize=500', 'GET /v3/reporting/devices?pageSize=500&nextPage=p2']);
    await expect(collect(absolute, { ...config, auth: { ...config.auth, secret_key: 'wrong' } })).rejects.toThrow(/401/);
  });
});
