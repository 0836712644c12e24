import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAtProvider, startOidcProvider, type ProviderAccount, type RunningProvider } from '../support/oidcProvider.js';
import { createUserWithGroups, engines, startTestServer, type TestServer } from './harness.js';

// Fastify's inject reaches the server as http://localhost, so that is the callback URL registered at the provider.
const callbackUrl = 'http://localhost/api/sso/callback';
const annAtStart: ProviderAccount = { sub: 'sub-ann-0001', email: 'ann@acme.example', preferred_username: 'ann.sso', given_name: 'Ann', family_name: 'Lee', groups: ['cartograph-viewers', 'unrelated'] };
let ann: ProviderAccount = annAtStart;
const squatter: ProviderAccount = { sub: 'sub-squatter', email: 'admin@acme.example', preferred_username: 'admin', groups: [] };

describe.each(engines)('single sign-on (OpenID Connect) on %s', (engine) => {
  let server: TestServer;
  let provider: RunningProvider;
  const settings = () => ({
    enabled: true, issuer: provider.issuer, client_id: provider.clientId, client_secret: provider.clientSecret, scopes: 'openid email profile groups',
    username_claim: 'preferred_username', group_claim: 'groups', group_mappings: [{ claim_value: 'cartograph-viewers', group: 'Viewers' }],
  });
  /** The whole sign-in as a browser does it: start, the provider's login form, the callback, the hand-off. */
  const signInThroughProvider = async (account: ProviderAccount, redirect = '/device-inventory') => {
    const started = await server.request('POST', '/api/sso/start', { body: { redirect } });
    expect(started.status).toBe(200);
    const returned = await signInAtProvider(started.body.authorization_url, account.sub, callbackUrl);
    const callback = await server.request('GET', returned.pathname + returned.search);
    expect(callback.status).toBe(302);
    const target = new URL(String(callback.headers.location).replace('/#/sso', '/sso'), 'http://localhost');
    return { started, returned, target };
  };

  beforeAll(async () => {
    server = await startTestServer(engine);
    ann = { ...annAtStart, groups: [...annAtStart.groups] };
    provider = await startOidcProvider([callbackUrl], [ann, squatter]);
  });
  afterAll(async () => {
    await server.stop();
    await provider.stop();
  });

  it('is not offered until a company switches it on', async () => {
    expect(await server.request('GET', '/api/sso')).toMatchObject({ status: 200, body: { enabled: false } });
    expect((await server.request('POST', '/api/sso/start', { body: {} })).status).toBe(400);
  });

  it('keeps the client secret sealed at rest and masked in answers, and keeps it when the form sends the mask back', async () => {
    const saved = await server.request('PUT', '/configurations/sso-configuration', { token: server.adminToken, body: settings() });
    expect(saved).toMatchObject({ status: 200, body: { client_secret: '**********', issuer: provider.issuer } });
    const stored = await server.context.db.query<{ document: string }>(`select document::text from resources where kind = 'cartograph:settings/sso-configuration'`);
    expect(stored[0]!.document).not.toContain(provider.clientSecret);
    const again = await server.request('PUT', '/configurations/sso-configuration', { token: server.adminToken, body: { ...settings(), client_secret: '**********' } });
    expect(again.status).toBe(200);
    expect(await server.request('GET', '/api/sso')).toMatchObject({ body: { enabled: true, domain_required: false } });
  });

  it('refuses a plain-http issuer off this machine, and settings without the permission', async () => {
    const insecure = await server.request('PUT', '/configurations/sso-configuration', { token: server.adminToken, body: { ...settings(), issuer: 'http://idp.example.com' } });
    expect(insecure).toMatchObject({ status: 400, body: { issuer: ['The issuer must be an https URL.'] } });
    const viewer = await createUserWithGroups(server, server.adminToken, 'sso-viewer', ['Viewers']);
    expect((await server.request('GET', '/configurations/sso-configuration', { token: viewer.token })).status).toBe(403);
  });

  it('signs a new user in through the provider with PKCE, creating them with the mapped group\'s permissions', async () => {
    const { started, returned, target } = await signInThroughProvider(ann);
    const authorization = new URL(started.body.authorization_url);
    expect(authorization.origin).toBe(provider.issuer);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('state')).toBe(returned.searchParams.get('state'));
    expect(target.searchParams.get('redirect')).toBe('/device-inventory');
    const handoff = target.searchParams.get('handoff')!;
    const token = await server.request('POST', '/api/token/sso', { body: { code: handoff } });
    expect(token.status).toBe(200);
    const me = await server.request('GET', '/api/me', { token: token.body.access });
    expect(me.body).toMatchObject({ username: 'ann.sso', email: 'ann@acme.example', groups: [{ name: 'Viewers' }] });
    expect(me.body.permissions).toContain('users.view_devices');
    expect(me.body.permissions).not.toContain('users.add_user');
    // The hand-off code and the provider's code are good once.
    expect((await server.request('POST', '/api/token/sso', { body: { code: handoff } })).status).toBe(401);
    const replay = await server.request('GET', returned.pathname + returned.search);
    expect(String(replay.headers.location)).toContain('error=');
  });

  it('follows the provider\'s groups at the next sign-in, on the same account', async () => {
    ann.groups.splice(0, ann.groups.length, 'unrelated');
    const { target } = await signInThroughProvider(ann);
    const token = await server.request('POST', '/api/token/sso', { body: { code: target.searchParams.get('handoff') } });
    const me = await server.request('GET', '/api/me', { token: token.body.access });
    expect(me.body).toMatchObject({ username: 'ann.sso', groups: [] });
    expect(me.body.permissions).toEqual([]);
    const users = await server.context.db.query<{ count: string }>(`select count(*) from users where lower(username) = 'ann.sso'`);
    expect(Number(users[0]!.count)).toBe(1);
  });

  it('never signs a provider account in as an existing account of the same username', async () => {
    const { target } = await signInThroughProvider(squatter);
    expect(target.searchParams.get('handoff')).toBeNull();
    expect(target.searchParams.get('error')).toContain('"admin" already belongs to another Cartograph account');
  });

  it('sends the browser back with the provider\'s error when the user cancels', async () => {
    const answer = await server.request('GET', '/api/sso/callback?error=access_denied&error_description=The%20user%20cancelled.&state=x');
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe('/#/sso?error=The+user+cancelled.');
  });
});
