// Absolute API v3 signing: the request travels as a compact HS256 JWS whose protected header describes it (kid,
// method, uri, query-string, issuedAt) and whose payload is {"data": body}; checked with jose's own verifier (the
// engine end to end: tests/server/adapters/http/absoluteAdapter.test.ts).
import { compactVerify, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { absoluteJws, signAbsoluteRequest } from '../../../src/server/adapters/http/absoluteJws.js';

const credentials = { tokenId: '7f3a1c2b-4d5e-4f60-8a9b-0c1d2e3f4a5b', secretKey: 'example-secret-key-value' };
const key = new TextEncoder().encode(credentials.secretKey);

describe('Absolute JWS signing', () => {
  it('describes a GET in the protected header, with an empty payload, verifiable with the token secret', async () => {
    const jws = absoluteJws({ method: 'get', url: 'https://api.absolute.com/v3/reporting/devices?pageSize=500&nextPage=eyJ0b2tlbiI6IjEifQ%3D%3D&%24filter=agentStatus%20eq%20%27A%27' }, credentials, 1716199200000);
    const { payload, protectedHeader } = await compactVerify(jws, key);
    expect(protectedHeader).toEqual({ alg: 'HS256', kid: credentials.tokenId, method: 'GET', 'content-type': 'application/json', uri: '/v3/reporting/devices', 'query-string': 'pageSize=500&nextPage=eyJ0b2tlbiI6IjEifQ%3D%3D&%24filter=agentStatus%20eq%20%27A%27', issuedAt: 1716199200000 });
    expect(JSON.parse(new TextDecoder().decode(payload))).toEqual({});
  });

  it('wraps a body as {"data": …} and refuses a wrong secret', async () => {
    const jws = absoluteJws({ method: 'POST', url: 'https://api.eu2.absolute.com/v3/actions/requests/freeze', body: '{"deviceUids":["a1"]}' }, credentials, 1);
    expect(JSON.parse(new TextDecoder().decode((await compactVerify(jws, key)).payload))).toEqual({ data: { deviceUids: ['a1'] } });
    await expect(compactVerify(jws, new TextEncoder().encode('another-secret'))).rejects.toThrow();
  });

  it('sends the JWS as text/plain to /jws/validate on the request host', () => {
    const signed = signAbsoluteRequest({ method: 'GET', url: 'https://api.us.absolute.com/v3/reporting/devices?pageSize=1' }, credentials, 42);
    expect(signed).toMatchObject({ method: 'POST', url: 'https://api.us.absolute.com/jws/validate', headers: { 'content-type': 'text/plain' } });
    expect(decodeProtectedHeader(signed.body)).toMatchObject({ uri: '/v3/reporting/devices', 'query-string': 'pageSize=1', issuedAt: 42 });
  });
});
