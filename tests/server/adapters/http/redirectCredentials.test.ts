import { generateKeyPairSync } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { authenticatorTypes, type AuthenticatorSpec } from '../../../../src/server/adapters/http/manifest.js';
import { collect, json, manifest, startServer, type TestServer } from './helpers.js';

// A redirect to another origin must not carry what proves who we are: the second host receives none of the
// credentials of any authenticator (the list is the engine's own, so a new kind of authenticator is covered here).

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

// Every value below is a credential or derived from one; none may reach the other host in any header.
const secrets = { token: 'tok-SECRET-1', username: 'user-SECRET-2', password: 'pass-SECRET-3', apiKey: 'key-SECRET-4', clientSecret: 'client-SECRET-5', accessKey: 'AKIDSECRET6', secretKey: 'aws-SECRET-7', sessionToken: 'sts-SECRET-8' };
const issuedToken = 'issued-SECRET-9';
const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** One authenticator of each kind, all signing in at the home host, and the header values that prove it signed. */
const authenticators: Record<(typeof authenticatorTypes)[number], { auth: AuthenticatorSpec; proof: string[] }> = {
  none: { auth: { type: 'none' }, proof: [] },
  bearer: { auth: { type: 'bearer', token: '{{ config.token }}' }, proof: [secrets.token] },
  basic: { auth: { type: 'basic', username: '{{ config.username }}', password: '{{ config.password }}' }, proof: [Buffer.from(`${secrets.username}:${secrets.password}`).toString('base64')] },
  header: { auth: { type: 'header', headers: { 'X-Api-Key': '{{ config.api_key }}' } }, proof: [secrets.apiKey] },
  oauth2_client_credentials: { auth: { type: 'oauth2_client_credentials', token_url: '/token', client_id: 'id', client_secret: '{{ config.client_secret }}' }, proof: [issuedToken] },
  session: { auth: { type: 'session', login: { method: 'POST', url: '/login' }, token: '{{ response.body.token }}', headers: { Cookie: 'sid={{ auth.token }}' } }, proof: [issuedToken] },
  aws_sigv4: { auth: { type: 'aws_sigv4', access_key_id: '{{ config.access_key }}', secret_access_key: '{{ config.secret_key }}', session_token: '{{ config.session_token }}', region: 'eu-west-1', service: 'execute-api' }, proof: [secrets.accessKey, secrets.sessionToken] },
  // Every request is a POST of its JWS to /jws/validate: the proof travels in that body, which a 302 does not resend.
  absolute_jws: { auth: { type: 'absolute_jws', token_id: '{{ config.token }}', secret_key: '{{ config.secret_key }}' }, proof: [] },
  // The Basic value is base64 of "<integration key>:<signature>": its first 12 bytes encode to a fixed prefix.
  duo_hmac: { auth: { type: 'duo_hmac', integration_key: '{{ config.username }}', secret_key: '{{ config.password }}' }, proof: [Buffer.from(secrets.username.slice(0, 12)).toString('base64')] },
  chef_signature: { auth: { type: 'chef_signature', client_name: '{{ config.username }}', private_key: '{{ config.private_key }}' }, proof: [secrets.username] },
  oauth2_jwt_bearer: { auth: { type: 'oauth2_jwt_bearer', token_url: '/token', issuer: 'svc@example.com', private_key: '{{ config.private_key }}' }, proof: [issuedToken] },
  // The keyId (tenancy/user/fingerprint) is in the Authorization header beside the signature.
  oci_signature: { auth: { type: 'oci_signature', tenancy_ocid: '{{ config.username }}', user_ocid: 'ocid1.user.oc1..u', fingerprint: 'aa:bb', private_key: '{{ config.private_key }}' }, proof: [secrets.username] },
  // The AccessKey ID travels in the signed query, not in a header: nothing of it may reach the other host's headers.
  alibaba_rpc_signature: { auth: { type: 'alibaba_rpc_signature', access_key_id: '{{ config.username }}', access_key_secret: '{{ config.password }}' }, proof: [] },
  zscaler_api_key: { auth: { type: 'zscaler_api_key', username: '{{ config.username }}', password: '{{ config.password }}', api_key: '{{ config.api_key }}' }, proof: [issuedToken] },
  // The request opens the handshake with its NEGOTIATE message ("NTLMSSP\0", type 1); the home host here asks no more.
  ntlm: { auth: { type: 'ntlm', username: '{{ config.username }}', password: '{{ config.password }}' }, proof: ['NTLM TlRMTVNTUAABAAAA'] },
};
const config = { token: secrets.token, username: secrets.username, password: secrets.password, api_key: secrets.apiKey, client_secret: secrets.clientSecret, access_key: secrets.accessKey, secret_key: secrets.secretKey, session_token: secrets.sessionToken, private_key: privateKey };

const headerText = (headers: IncomingHttpHeaders) => JSON.stringify(headers);
const credentialNames = ['authorization', 'cookie', 'x-api-key', 'x-amz-date', 'x-amz-security-token', 'x-amz-content-sha256', 'x-ops-userid', 'x-ops-authorization-1'];

/** The home host: signs in, then redirects the list to `target` (absolute, or a path on itself). */
async function home(target: (homeUrl: string) => string) {
  const seen: IncomingHttpHeaders[] = [];
  const server = await startServer((request, response) => {
    if (request.url === '/token' || request.url === '/login') return json(response, 200, { access_token: issuedToken, token: issuedToken, expires_in: 3600 });
    // Zscaler's sign-in answers its session as a cookie.
    if (request.url === '/authenticatedSession') return response.writeHead(200, { 'set-cookie': `JSESSIONID=${issuedToken}; Path=/; Secure; HttpOnly`, 'content-type': 'application/json' }).end('{"authType":"ADMIN_LOGIN"}');
    // Alibaba signs in the query string, so the list is recognised by its path alone.
    const path = request.url?.split('?')[0];
    if (path === '/items' || path === '/jws/validate') return response.writeHead(302, { location: target(server.url) }).end();
    seen.push(request.headers);
    json(response, 200, { items: [{ name: 'same-origin' }] });
  });
  servers.push(server);
  return { server, seen };
}

/** Another host (127.0.0.2, another address of loopback), recording what reaches it. */
async function otherHost() {
  const seen: IncomingHttpHeaders[] = [];
  const server = await startServer((request, response) => {
    seen.push(request.headers);
    json(response, 200, { items: [{ name: 'other-host' }] });
  }, '127.0.0.2');
  servers.push(server);
  return { server, seen };
}

const listStream = { name: 'items', entity: 'device' as const, request: { url: '/items' }, records: '{{ response.body.items }}', mapping: { Hostname: '{{ record.name }}' } };

describe('redirects keep credentials at home', () => {
  it('covers every authenticator kind of the manifest schema', () => {
    const schema = JSON.parse(readFileSync(new URL('../../../../schemas/adapters/manifest.meta.json', import.meta.url), 'utf8'));
    expect([...authenticatorTypes].sort()).toEqual([...schema.definitions.authenticator.properties.type.enum].sort());
    expect(Object.keys(authenticators).sort()).toEqual([...authenticatorTypes].sort());
  });

  for (const type of authenticatorTypes) {
    it(`follows a redirect to another host without the ${type} credentials, and keeps them on the same origin`, async () => {
      const { auth, proof } = authenticators[type];
      const other = await otherHost();
      const away = await home(() => `${other.server.url}/items-elsewhere`);
      // A manifest-wide header holding a secret is a credential too.
      const target = manifest({ base_url: '{{ config.base_url }}', auth, headers: { 'X-Tenant-Key': '{{ config.api_key }}' }, streams: [listStream] });
      const result = await collect(target, { ...config, base_url: away.server.url });
      expect(result.records.map((record) => record.fields.Hostname)).toEqual(['other-host']);
      expect(other.seen).toHaveLength(1);
      for (const name of [...credentialNames, 'x-tenant-key']) expect(other.seen[0][name], name).toBeUndefined();
      for (const value of [...Object.values(secrets), issuedToken]) expect(headerText(other.seen[0])).not.toContain(value);

      const same = await home((url) => `${url}/items-moved`);
      const kept = await collect(target, { ...config, base_url: same.server.url });
      expect(kept.records.map((record) => record.fields.Hostname)).toEqual(['same-origin']);
      for (const value of [...proof, secrets.apiKey]) expect(headerText(same.seen[0])).toContain(value);
    });
  }

  it('never resends a request body to another host, and never follows a redirect to another scheme', async () => {
    const other = await otherHost();
    const away = await startServer((_request, response) => response.writeHead(307, { location: `${other.server.url}/search` }).end());
    servers.push(away);
    const post = manifest({ base_url: '{{ config.base_url }}', streams: [{ ...listStream, request: { method: 'POST', url: '/search', body: { secret: '{{ config.api_key }}' } } }] });
    await expect(collect(post, { ...config, base_url: away.url })).rejects.toThrow(/redirected a request with a body to another origin/);
    expect(other.seen).toHaveLength(0);

    const downgrade = await startServer((_request, response) => response.writeHead(301, { location: 'https://127.0.0.2/items' }).end());
    servers.push(downgrade);
    await expect(collect(manifest({ base_url: '{{ config.base_url }}', streams: [listStream] }), { base_url: downgrade.url })).rejects.toThrow(/redirected to another scheme/);
  });
});
