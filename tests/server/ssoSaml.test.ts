import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueCertificate } from '../support/testCertificates.js';
import { idpEntityId, readAuthnRequest, startSamlIdp, type SamlAccount, type SamlAnswerOptions } from '../support/samlIdp.js';
import { engines, startTestServer, type TestServer } from './harness.js';

const entryPoint = 'https://idp.test.example/saml/sso';
const bob: SamlAccount = { nameId: 'bob-nameid-0001', attributes: { email: ['bob@acme.example'], uid: ['bob.saml'], memberOf: ['cartograph-viewers', 'unrelated'] } };

describe.each(engines)('single sign-on (SAML 2.0) on %s', (engine) => {
  let server: TestServer;
  const idp = startSamlIdp();
  const settings = (changes: object = {}) => ({
    enabled: true, protocol: 'saml', issuer: '', client_id: '', client_secret: '', scopes: 'openid', username_claim: 'uid', group_claim: 'memberOf',
    group_mappings: [{ claim_value: 'cartograph-viewers', group: 'Viewers' }],
    saml_entry_point: entryPoint, saml_idp_certificate: idp.certificate, saml_idp_issuer: idpEntityId, saml_sp_entity_id: '', ...changes,
  });
  /** The browser's part: start, the provider's answer posted as a form, the redirect to the console. */
  const signIn = async (account: SamlAccount, options: SamlAnswerOptions = {}) => {
    const started = await server.request('POST', '/api/sso/start', { body: { redirect: '/device-inventory' } });
    expect(started.status).toBe(200);
    const request = readAuthnRequest(started.body.authorization_url);
    const form = new URLSearchParams({ SAMLResponse: idp.answer(request, account, options), RelayState: request.relayState });
    const posted = await server.app.inject({ method: 'POST', url: '/api/sso/saml/callback', payload: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(posted.statusCode).toBe(303);
    return { started, request, form, target: new URL(String(posted.headers.location).replace('/#/sso', '/sso'), 'http://localhost') };
  };

  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(() => server.stop());

  it('refuses settings it could not sign in with: no certificate, a certificate that is not PEM, plain http off this machine', async () => {
    const put = (changes: object) => server.request('PUT', '/configurations/sso-configuration', { token: server.adminToken, body: settings(changes) });
    expect(await put({ saml_idp_certificate: '' })).toMatchObject({ status: 400, body: { saml_idp_certificate: [expect.stringContaining('required')] } });
    expect(await put({ saml_idp_certificate: 'MIIB not a certificate' })).toMatchObject({ status: 400, body: { saml_idp_certificate: ['This is not a PEM certificate.'] } });
    expect(await put({ saml_entry_point: 'http://idp.example.com/sso' })).toMatchObject({ status: 400, body: { saml_entry_point: ['The single sign-on URL must be an https URL.'] } });
    expect(await put({})).toMatchObject({ status: 200, body: { protocol: 'saml', saml_entry_point: entryPoint } });
  });

  it('publishes the service provider metadata a provider is registered with', async () => {
    const metadata = await server.app.inject({ method: 'GET', url: '/api/sso/saml/metadata' });
    expect(metadata.statusCode).toBe(200);
    expect(metadata.headers['content-type']).toContain('application/samlmetadata+xml');
    expect(metadata.body).toContain('entityID="http://localhost/api/sso/saml/metadata"');
    expect(metadata.body).toContain('Location="http://localhost/api/sso/saml/callback"');
  });

  it('signs a new user in through a signed assertion, with the mapped group, and takes each answer once', async () => {
    const { started, request, form, target } = await signIn(bob);
    expect(started.body.authorization_url.startsWith(`${entryPoint}?SAMLRequest=`)).toBe(true);
    expect(request.assertionConsumerServiceUrl).toBe('http://localhost/api/sso/saml/callback');
    expect(target.searchParams.get('redirect')).toBe('/device-inventory');
    const token = await server.request('POST', '/api/token/sso', { body: { code: target.searchParams.get('handoff') } });
    expect(token.status).toBe(200);
    const me = await server.request('GET', '/api/me', { token: token.body.access });
    expect(me.body).toMatchObject({ username: 'bob.saml', email: 'bob@acme.example', groups: [{ name: 'Viewers' }] });
    expect(me.body.permissions).toContain('users.view_devices');
    const replay = await server.app.inject({ method: 'POST', url: '/api/sso/saml/callback', payload: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(String(replay.headers.location)).toContain('expired+or+was+already+used');
  });

  it('refuses an assertion changed after signing, signed by another key, or answering another request', async () => {
    const stranger = issueCertificate({ commonName: 'Not the IdP' }, null);
    const refusals = [
      { afterSigning: (xml: string) => xml.replace('bob@acme.example', 'admin@acme.example') },
      { signingKey: stranger },
      { inResponseTo: '_an-id-this-server-never-sent' },
    ];
    for (const options of refusals) {
      const { target } = await signIn(bob, options);
      expect(target.searchParams.get('handoff')).toBeNull();
      expect(target.searchParams.get('error')).toBe('The identity provider\'s answer could not be verified. Start again.');
    }
  });

  it('follows the provider\'s groups at the next sign-in, and refuses the answer once SAML is switched off', async () => {
    const { target } = await signIn({ ...bob, attributes: { ...bob.attributes, memberOf: ['unrelated'] } });
    const token = await server.request('POST', '/api/token/sso', { body: { code: target.searchParams.get('handoff') } });
    expect((await server.request('GET', '/api/me', { token: token.body.access })).body).toMatchObject({ username: 'bob.saml', groups: [] });
    const started = await server.request('POST', '/api/sso/start', { body: {} });
    const request = readAuthnRequest(started.body.authorization_url);
    await server.request('PUT', '/configurations/sso-configuration', { token: server.adminToken, body: settings({ enabled: false }) });
    const form = new URLSearchParams({ SAMLResponse: idp.answer(request, bob), RelayState: request.relayState });
    const posted = await server.app.inject({ method: 'POST', url: '/api/sso/saml/callback', payload: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(posted.headers.location).toBe('/#/sso?error=Single+sign-on+was+switched+off+for+your+company.');
  });

  it('takes a form only at the SAML callback, and an answer without a SAMLResponse is a field error', async () => {
    const form = await server.app.inject({ method: 'POST', url: '/api/token', payload: 'username=admin&password=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.statusCode).toBe(415);
    const empty = await server.app.inject({ method: 'POST', url: '/api/sso/saml/callback', payload: 'RelayState=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toHaveProperty('SAMLResponse');
  });
});
