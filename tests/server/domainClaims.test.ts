import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAtProvider, startOidcProvider, type ProviderAccount, type RunningProvider } from '../support/oidcProvider.js';
import { engines, startTestServer, userPassword, type TestServer } from './harness.js';

// Fastify's inject reaches the server as http://localhost, so that is the callback URL registered at the provider.
const callbackUrl = 'http://localhost/api/sso/callback';
const ann: ProviderAccount = { sub: 'sub-ann-claims', email: 'ann@acme.example', preferred_username: 'ann.claims', groups: [] };

/** The DNS of the tests: TXT records by name, published by the test itself (no network here). */
const published = new Map<string, string[][]>();
async function resolveTxt(hostname: string): Promise<string[][]> {
  const records = published.get(hostname.toLowerCase());
  if (!records) throw Object.assign(new Error(`queryTxt ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return records;
}

describe.each(engines)('domain claims on %s', (engine) => {
  let server: TestServer;
  let provider: RunningProvider;
  const tenants: Record<string, { id: number; token: string }> = {};
  const addTenant = async (name: string) => {
    const company = await server.request('POST', '/companies/companies', { token: server.adminToken, body: { name } });
    const username = `${name.toLowerCase()}.admin`;
    await server.request('POST', `/companies/companies/${company.body.id}/administrators`, { token: server.adminToken, body: { username, password: userPassword } });
    tenants[name] = { id: company.body.id, token: await server.signIn(username, userPassword) };
  };
  const claim = (tenant: string, domain: string, extra: Record<string, unknown> = {}) =>
    server.request('POST', '/companies/domains', { token: tenants[tenant]!.token, body: { domain, tenant: tenants[tenant]!.id, ...extra } });
  const startSso = (domain: string) => server.request('POST', '/api/sso/start', { body: { domain } });

  beforeAll(async () => {
    server = await startTestServer(engine, {}, { resolveTxt });
    provider = await startOidcProvider([callbackUrl], [ann]);
    for (const name of ['Acme', 'Globex', 'Initech']) await addTenant(name);
    const settings = { enabled: true, issuer: provider.issuer, client_id: provider.clientId, client_secret: provider.clientSecret, scopes: 'openid email profile', username_claim: 'preferred_username', group_claim: 'groups', group_mappings: [] };
    for (const name of ['Acme', 'Globex']) {
      expect((await server.request('PUT', '/configurations/sso-configuration', { token: tenants[name]!.token, body: settings })).status).toBe(200);
    }
  });
  afterAll(async () => {
    await server.stop();
    await provider.stop();
  });

  it("keeps a tenant's new domain pending, with the TXT record to publish, and routes no sign-in to it", async () => {
    const answer = await claim('Acme', 'Acme.example', { status: 'verified', verification_method: 'provider' });
    expect(answer).toMatchObject({ status: 201, body: { domain: 'acme.example', tenant: tenants.Acme!.id, status: 'pending', verified_at: null, verification_method: null } });
    expect(answer.body.verification).toMatchObject({ type: 'TXT', names: ['_cartograph.acme.example', 'acme.example'], value: expect.stringMatching(/^cartograph-verification=[A-Za-z0-9_-]{20,}$/) });
    const listed = await server.request('GET', `/companies/domains?tenant=${tenants.Acme!.id}&status=pending`, { token: server.adminToken });
    expect(listed.body.results).toEqual([expect.objectContaining({ domain: 'acme.example', status: 'pending', verification: answer.body.verification })]);
    expect(await startSso('ann@acme.example')).toMatchObject({ status: 400, body: { domain: ['Single sign-on is not set up for this domain.'] } });
  });

  it('verifies a claim when the TXT record is published, and says which record it looked for when it is not', async () => {
    const [domain] = (await server.request('GET', `/companies/domains?tenant=${tenants.Acme!.id}`, { token: tenants.Acme!.token })).body.results;
    const missing = await server.request('POST', `/companies/domains/${domain.id}/verify`, { token: tenants.Acme!.token });
    expect(missing).toMatchObject({ status: 400, body: { code: 'domain_not_verified' } });
    expect(missing.body.detail).toContain(domain.verification.value);
    expect(missing.body.detail).toContain('_cartograph.acme.example');
    published.set('_cartograph.acme.example', [['some-other=record'], ['cartograph-verification=not-the-token']]);
    expect((await server.request('POST', `/companies/domains/${domain.id}/verify`, { token: tenants.Acme!.token })).status).toBe(400);
    expect((await server.request('GET', `/companies/domains/${domain.id}`, { token: tenants.Acme!.token })).body.status).toBe('pending');

    // A long TXT value may come back in chunks of at most 255 characters; they are one value.
    const value: string = domain.verification.value;
    published.set('_cartograph.acme.example', [['some-other=record'], [value.slice(0, 10), value.slice(10)]]);
    const verified = await server.request('POST', `/companies/domains/${domain.id}/verify`, { token: tenants.Acme!.token });
    expect(verified).toMatchObject({ status: 200, body: { status: 'verified', verification_method: 'dns', verified_at: expect.any(String) } });
    const started = await startSso('ann@acme.example');
    expect(started.status).toBe(200);
    expect(new URL(started.body.authorization_url).origin).toBe(provider.issuer);
  });

  it('gives each company its own token, so one company’s record never proves another’s claim', async () => {
    const globex = await claim('Globex', 'shared.example');
    const initech = await claim('Initech', 'shared.example');
    expect(globex.status).toBe(201);
    expect(initech.status).toBe(201);
    expect(globex.body.verification.value).not.toBe(initech.body.verification.value);
    published.set('shared.example', [[globex.body.verification.value]]);
    expect((await server.request('POST', `/companies/domains/${initech.body.id}/verify`, { token: tenants.Initech!.token })).status).not.toBe(200);
    expect((await server.request('POST', `/companies/domains/${globex.body.id}/verify`, { token: tenants.Globex!.token })).body.status).toBe('verified');
    // Once Globex holds it, Initech cannot take it over, even with its own record published.
    published.set('shared.example', [[globex.body.verification.value], [initech.body.verification.value]]);
    const taken = await server.request('POST', `/companies/domains/${initech.body.id}/verify`, { token: tenants.Initech!.token });
    expect(taken).toMatchObject({ status: 403, body: { code: 'domain_claimed' } });
  });

  it('makes a renamed domain pending again', async () => {
    const [domain] = (await server.request('GET', `/companies/domains?tenant=${tenants.Acme!.id}&status=verified`, { token: tenants.Acme!.token })).body.results;
    const added = await claim('Acme', 'second.example');
    published.set('second.example', [[added.body.verification.value]]);
    await server.request('POST', `/companies/domains/${added.body.id}/verify`, { token: tenants.Acme!.token });
    const renamed = await server.request('PATCH', `/companies/domains/${added.body.id}`, { token: tenants.Acme!.token, body: { domain: 'victim.example' } });
    expect(renamed).toMatchObject({ status: 200, body: { domain: 'victim.example', status: 'pending', verified_at: null } });
    expect(renamed.body.verification.value).not.toBe(added.body.verification.value);
    expect(await startSso('someone@victim.example')).toMatchObject({ status: 400 });
    const primary = await server.request('PATCH', `/companies/domains/${domain.id}`, { token: tenants.Acme!.token, body: { is_primary: true } });
    expect(primary.body).toMatchObject({ status: 'verified', is_primary: true });
  });

  it("lets only the provider's administrator approve a claim", async () => {
    const pending = await claim('Initech', 'initech.example');
    const selfApproved = await server.request('POST', `/companies/domains/${pending.body.id}/approve`, { token: tenants.Initech!.token });
    expect(selfApproved).toMatchObject({ status: 403, body: { detail: expect.stringContaining('provider') } });
    const approved = await server.request('POST', `/companies/domains/${pending.body.id}/approve`, { token: server.adminToken });
    expect(approved).toMatchObject({ status: 200, body: { domain: 'initech.example', status: 'verified', verification_method: 'provider' } });
    // The provider adding a domain for a company is its approval already.
    const byProvider = await server.request('POST', '/companies/domains', { token: server.adminToken, body: { domain: 'initech.test', tenant: tenants.Initech!.id } });
    expect(byProvider.body).toMatchObject({ status: 'verified', verification_method: 'provider' });
  });

  it('refuses a tenant a domain another company has used for single sign-on; the provider may still assign it', async () => {
    // Ann signs in at Acme through acme.example: the domain is Acme's sign-in domain from now on.
    const started = await startSso('ann@acme.example');
    const returned = await signInAtProvider(started.body.authorization_url, ann.sub, callbackUrl);
    expect((await server.request('GET', returned.pathname + returned.search)).status).toBe(302);
    const users = await server.request('GET', '/users/users?search=ann.claims', { token: tenants.Acme!.token });
    expect(users.body.count).toBe(1);

    // Held and verified by Acme: Globex cannot claim it, with or without a TXT record.
    const whileHeld = await claim('Globex', 'acme.example');
    expect(whileHeld).toMatchObject({ status: 403, body: { code: 'domain_claimed', detail: expect.stringContaining('only the provider company') } });

    // Acme lets the domain go; its users still sign in with addresses there, so Globex still cannot take it.
    const [acmeDomain] = (await server.request('GET', `/companies/domains?tenant=${tenants.Acme!.id}&search=acme.example`, { token: tenants.Acme!.token })).body.results;
    expect((await server.request('DELETE', `/companies/domains/${acmeDomain.id}`, { token: tenants.Acme!.token })).status).toBe(204);
    expect(await claim('Globex', 'acme.example')).toMatchObject({ status: 403, body: { code: 'domain_claimed' } });
    expect((await server.request('GET', `/companies/domains?tenant=${tenants.Globex!.id}&search=acme.example`, { token: server.adminToken })).body.count).toBe(0);

    const assigned = await server.request('POST', '/companies/domains', { token: server.adminToken, body: { domain: 'acme.example', tenant: tenants.Globex!.id } });
    expect(assigned).toMatchObject({ status: 201, body: { tenant: tenants.Globex!.id, status: 'verified', verification_method: 'provider' } });
    expect((await startSso('ann@acme.example')).status).toBe(200);
  });

  it('answers a field error, never a 500, when the DNS lookup fails', async () => {
    const added = await claim('Initech', 'broken.example');
    const failing = async (): Promise<string[][]> => {
      throw Object.assign(new Error('queryTxt ESERVFAIL broken.example'), { code: 'ESERVFAIL' });
    };
    published.delete('broken.example');
    server.context.resolveTxt = failing;
    try {
      const answer = await server.request('POST', `/companies/domains/${added.body.id}/verify`, { token: tenants.Initech!.token });
      expect(answer).toMatchObject({ status: 400, body: { code: 'domain_not_verified' } });
    } finally {
      server.context.resolveTxt = resolveTxt;
    }
  });
});
