import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskedSecret } from '../../src/server/auth/secretFields.js';
import { loadSmtpSettings } from '../../src/server/outbound/smtp.js';
import { openSsoSettings } from '../../src/server/sso/ssoSettings.js';
import { readLdapConfiguration } from '../../src/server/identity/ldap/ldapConfigurations.js';
import { startReplayServer, type ReplayServer } from '../support/replayServer.js';
import { engines, startTestServer, type TestServer } from './harness.js';

// A stored secret is answered masked, and a form sends the mask back to keep it. It may go back only where it was
// saved for: an edit or a test that points the settings somewhere else must carry the secret typed again, or anyone
// who may edit could read every stored secret by pointing its connection at a listener of their own.
describe.each(engines)('stored secrets and their destinations on %s', (engine) => {
  let server: TestServer;
  let listener: ReplayServer;
  const storedToken = 'stored-okta-token-00Q';
  const reenter = (title: string) => [`Re-enter the ${title} to send it to a new address.`];

  beforeAll(async () => {
    server = await startTestServer(engine);
    // A listener that answers what Okta answers to the connection check, and notes every request it receives.
    listener = await startReplayServer([{ request: { method: 'GET', path: '/api/v1/users' }, response: { status: 200, body: [] } }]);
  });
  afterAll(async () => {
    await listener.close();
    await server.stop();
  });

  const oktaOptions = (baseUrl: string, apiToken: string, change: Record<string, unknown> = {}) => [
    { name: 'base_url', typed_value: baseUrl },
    { name: 'auth', typed_value: { auth_type: 'api_token', api_token: apiToken } },
    ...Object.entries(change).map(([name, typed_value]) => ({ name, typed_value })),
  ];
  const createOkta = async (name: string, baseUrl: string) => {
    const created = await server.request('POST', '/adapters/connections', { token: server.adminToken, body: { adapter: 'okta', name, option_connections: oktaOptions(baseUrl, storedToken) } });
    expect(created.status).toBe(201);
    return created.body as { id: number; connector: number };
  };
  const credentialsHeard = () => listener.received.map((request) => request.headers.authorization).filter(Boolean);
  const optionOf = (answer: { body: { option_connections: { name: string; typed_value: unknown }[] } }, name: string) =>
    answer.body.option_connections.find((option) => option.name === name)?.typed_value;

  it('refuses a test that sends a stored token, masked, to a new base URL: the listener hears no credential', async () => {
    const { id } = await createOkta('Okta production', 'https://acme.okta.com');
    listener.received.length = 0;
    const probe = await server.request('POST', '/adapters/test', {
      token: server.adminToken, body: { adapter: 'okta', name: 'Okta production', connection: id, option_connections: oktaOptions(listener.url, maskedSecret) },
    });
    expect(probe.status).toBe(400);
    expect(probe.body).toEqual({ 'auth.api_token': reenter('API token') });
    expect(credentialsHeard()).toEqual([]);
    expect(JSON.stringify(listener.received)).not.toContain(storedToken);

    // Typed again, the token is the caller's own: the test goes to the new address with it.
    const retyped = await server.request('POST', '/adapters/test', {
      token: server.adminToken, body: { adapter: 'okta', name: 'Okta production', connection: id, option_connections: oktaOptions(listener.url, 'typed-token') },
    });
    expect(retyped.status).toBe(200);
    expect(credentialsHeard()).toEqual(['SSWS typed-token']);
  });

  it('tests with the stored token while the address stays the same (a trailing slash or another path aside)', async () => {
    const { id } = await createOkta('Okta lab', listener.url);
    listener.received.length = 0;
    const url = new URL(listener.url);
    for (const same of [`${listener.url}/`, `${listener.url}/some/path`]) {
      const answer = await server.request('POST', '/adapters/test', {
        token: server.adminToken, body: { adapter: 'okta', name: 'Okta lab', connection: id, option_connections: oktaOptions(same, maskedSecret, { fetch_devices: false }) },
      });
      expect(answer.status, same).toBe(200);
      // (The path case reaches /some/path/api/v1/users, which the listener does not know: a failed check, but sent.)
      if (!same.endsWith('/some/path')) expect(answer.body.success, same).toBe(true);
    }
    expect(credentialsHeard()).toEqual([`SSWS ${storedToken}`, `SSWS ${storedToken}`]);
    // Another port of the same host is another destination.
    const otherPort = await server.request('POST', '/adapters/test', {
      token: server.adminToken, body: { adapter: 'okta', name: 'Okta lab', connection: id, option_connections: oktaOptions(`http://${url.hostname}:${Number(url.port) + 1}`, maskedSecret) },
    });
    expect(otherPort.body).toEqual({ 'auth.api_token': reenter('API token') });
    // So is a proxy the calls would now go through.
    const proxied = await server.request('POST', '/adapters/test', {
      token: server.adminToken, body: { adapter: 'okta', name: 'Okta lab', connection: id, option_connections: oktaOptions(listener.url, maskedSecret, { proxy: 'http://proxy.example.test:3128' }) },
    });
    expect(proxied.body).toEqual({ 'auth.api_token': reenter('API token') });
  });

  it('refuses an edit (PUT and PATCH) that moves a masked token to a new address, and keeps it on any other edit', async () => {
    const { id } = await createOkta('Okta edits', listener.url);
    for (const method of ['PUT', 'PATCH'] as const) {
      const moved = await server.request(method, `/adapters/connections/${id}`, { token: server.adminToken, body: { adapter: 'okta', name: 'Okta edits', option_connections: oktaOptions('https://evil.example.test', maskedSecret) } });
      expect(moved.status, method).toBe(400);
      expect(moved.body, method).toEqual({ 'auth.api_token': reenter('API token') });
    }
    const unchanged = await server.request('GET', `/adapters/connections/${id}`, { token: server.adminToken });
    expect(optionOf(unchanged, 'base_url')).toBe(listener.url);

    // Another option with the mask: the stored token stays and still signs the checks.
    const renamed = await server.request('PATCH', `/adapters/connections/${id}`, { token: server.adminToken, body: { name: 'Okta edited', option_connections: oktaOptions(`${listener.url}/`, maskedSecret, { fetch_devices: false }) } });
    expect(renamed.status).toBe(200);
    listener.received.length = 0;
    expect((await server.request('POST', `/adapters/test/${id}`, { token: server.adminToken })).body.success).toBe(true);
    expect(credentialsHeard()).toEqual([`SSWS ${storedToken}`]);

    // A new address with the token typed again is saved.
    const retyped = await server.request('PUT', `/adapters/connections/${id}`, { token: server.adminToken, body: { adapter: 'okta', name: 'Okta edited', option_connections: oktaOptions('https://acme2.okta.com', 'new-token') } });
    expect(retyped.status).toBe(200);
    expect(optionOf(retyped, 'base_url')).toBe('https://acme2.okta.com');
  });

  it('counts the connector that runs a connection as a destination: its tests and edits need the secret typed again', async () => {
    const { id, connector: ownConnector } = await createOkta('Okta behind a connector', listener.url);
    const connector = await server.request('POST', '/connectors/connectors', { token: server.adminToken, body: { name: 'Elsewhere', description: 'another network' } });
    expect(connector.status).toBe(201);
    const remote = connector.body.id as number;

    const test = await server.request('POST', '/adapters/test', {
      token: server.adminToken, body: { adapter: 'okta', name: 'x', connector: remote, connection: id, option_connections: oktaOptions(listener.url, maskedSecret) },
    });
    expect(test.status).toBe(400);
    expect(test.body).toEqual({ 'auth.api_token': reenter('API token') });
    const [{ count }] = await server.context.db.query<{ count: number }>('select count(*)::int as count from connector_jobs where connector_id = $1', [remote]);
    expect(count).toBe(0);
    // Typed again, the test is handed to that connector (offline here: it says so).
    const retyped = await server.request('POST', '/adapters/test', {
      token: server.adminToken, body: { adapter: 'okta', name: 'x', connector: remote, connection: id, option_connections: oktaOptions(listener.url, 'typed-token') },
    });
    expect(retyped.body).toMatchObject({ success: false, reason: 'connector_offline' });

    // Moving the saved connection to the other connector, with or without its options, needs the token too.
    for (const body of [{ connector: remote }, { connector: remote, option_connections: oktaOptions(listener.url, maskedSecret) }]) {
      const moved = await server.request('PATCH', `/adapters/connections/${id}`, { token: server.adminToken, body });
      expect(moved.status, JSON.stringify(body)).toBe(400);
      expect(moved.body).toEqual({ 'auth.api_token': reenter('API token') });
    }
    expect((await server.request('GET', `/adapters/connections/${id}`, { token: server.adminToken })).body.connector).toBe(ownConnector);
    const movedWithToken = await server.request('PATCH', `/adapters/connections/${id}`, { token: server.adminToken, body: { connector: remote, option_connections: oktaOptions(listener.url, 'typed-token') } });
    expect(movedWithToken.status).toBe(200);
    expect(movedWithToken.body.connector).toBe(remote);
    // Naming the connector it already has changes nothing.
    expect((await server.request('PATCH', `/adapters/connections/${id}`, { token: server.adminToken, body: { connector: remote, option_connections: oktaOptions(listener.url, maskedSecret) } })).status).toBe(200);
  });

  it('holds the SMTP password to its mail server', async () => {
    const token = server.adminToken;
    const page = { enabled: true, host: 'mail.example.test', port: 587, security: 'starttls', username: 'mailer', password: 'smtp-pass', from: 'cartograph@example.test', ca_certificate: '', verify_certificate: true };
    expect((await server.request('PUT', '/configurations/smtp-configuration', { token, body: page })).status).toBe(200);
    for (const change of [{ host: 'mail.evil.test' }, { port: 2525 }, { security: 'none' }]) {
      const moved = await server.request('PUT', '/configurations/smtp-configuration', { token, body: { ...page, ...change, password: maskedSecret } });
      expect(moved.status, JSON.stringify(change)).toBe(400);
      expect(moved.body).toEqual({ password: reenter('password') });
    }
    expect((await loadSmtpSettings(server.context.db, server.context.keys.secretsKey, 1)).host).toBe('mail.example.test');
    // A cosmetic change of the host and another sender keep the stored password.
    expect((await server.request('PUT', '/configurations/smtp-configuration', { token, body: { ...page, host: 'MAIL.example.test', from: 'inventory@example.test', password: maskedSecret } })).status).toBe(200);
    expect((await loadSmtpSettings(server.context.db, server.context.keys.secretsKey, 1)).password).toBe('smtp-pass');
    expect((await server.request('PUT', '/configurations/smtp-configuration', { token, body: { ...page, host: 'mail.other.test', password: 'other-pass' } })).status).toBe(200);
    expect(await loadSmtpSettings(server.context.db, server.context.keys.secretsKey, 1)).toMatchObject({ host: 'mail.other.test', password: 'other-pass' });
  });

  it('holds the LDAP bind password to its directory', async () => {
    const token = server.adminToken;
    const directory = {
      name: 'Corp directory', enabled: false, url: 'ldaps://dc1.corp.example.test', starttls: false, ca_certificate: '', verify_certificate: true,
      bind_dn: 'cn=svc,dc=corp', bind_password: 'bind-pass', user_search_base: 'ou=People,dc=corp', user_filter: '(uid={username})',
      username_attribute: 'uid', email_attribute: 'mail', first_name_attribute: 'givenName', last_name_attribute: 'sn', member_of_attribute: '',
      group_search_base: '', group_filter: '(member={dn})', group_mappings: [],
    };
    const created = await server.request('POST', '/configurations/ldap-configurations', { token, body: directory });
    expect(created.status).toBe(201);
    const { bind_password: _password, ...withoutPassword } = directory;
    for (const body of [{ ...directory, url: 'ldaps://evil.example.test', bind_password: maskedSecret }, { ...withoutPassword, url: 'ldap://dc1.corp.example.test' }]) {
      const moved = await server.request('PUT', `/configurations/ldap-configurations/${created.body.id}`, { token, body });
      expect(moved.status, body.url).toBe(400);
      expect(moved.body).toEqual({ bind_password: reenter('bind password') });
    }
    // The same directory written differently (case, its default port) and another search base keep the password.
    const same = await server.request('PUT', `/configurations/ldap-configurations/${created.body.id}`, { token, body: { ...withoutPassword, url: 'ldaps://DC1.Corp.example.test:636/', user_search_base: 'ou=Staff,dc=corp' } });
    expect(same.status).toBe(200);
    const stored = await readLdapConfiguration(server.context.db, server.context.keys.secretsKey, 1, created.body.id);
    expect(stored).toMatchObject({ bind_password: 'bind-pass', user_search_base: 'ou=Staff,dc=corp' });
    expect((await server.request('PUT', `/configurations/ldap-configurations/${created.body.id}`, { token, body: { ...directory, url: 'ldaps://dc2.corp.example.test', bind_password: 'dc2-pass' } })).status).toBe(200);
  });

  it('holds the single sign-on client secret to its issuer', async () => {
    const token = server.adminToken;
    const settings = {
      enabled: false, protocol: 'oidc', issuer: 'https://idp.example.test/realms/corp', client_id: 'cartograph', client_secret: 'client-secret-1', scopes: 'openid email profile',
      username_claim: 'preferred_username', group_claim: 'groups', group_mappings: [],
    };
    expect((await server.request('PUT', '/configurations/sso-configuration', { token, body: settings })).status).toBe(200);
    const moved = await server.request('PUT', '/configurations/sso-configuration', { token, body: { ...settings, issuer: 'https://idp.evil.test/realms/corp', client_secret: maskedSecret } });
    expect(moved.status).toBe(400);
    expect(moved.body).toEqual({ client_secret: reenter('client secret') });
    expect((await server.request('PUT', '/configurations/sso-configuration', { token, body: { ...settings, scopes: 'openid email', client_secret: maskedSecret } })).status).toBe(200);
    expect((await openSsoSettings(server.context.db, server.context.keys.secretsKey, 1)).client_secret).toBe('client-secret-1');
  });

  it("holds an action's secret parameter to the URL it was saved with", async () => {
    const token = server.adminToken;
    const body = { name: 'Signed hook', trigger: 'manual', scope: { entity: 'device', query: 'OS.Type = Linux' }, type: 'webhook', parameters: { url: 'https://hooks.example.test/in', body_template: '{"h": "{{Hostname}}"}', batch_size: 1, signing_secret: 'hmac key 1' } };
    const created = await server.request('POST', '/actions/actions', { token, body });
    expect(created.status).toBe(201);
    for (const secret of [maskedSecret, '']) {
      const moved = await server.request('PUT', `/actions/actions/${created.body.id}`, { token, body: { ...body, parameters: { ...body.parameters, url: 'https://hooks.evil.test/in', signing_secret: secret } } });
      expect(moved.status).toBe(400);
      expect(moved.body).toEqual({ 'parameters.signing_secret': reenter('signing secret') });
    }
    const samePlace = await server.request('PUT', `/actions/actions/${created.body.id}`, { token, body: { ...body, parameters: { ...body.parameters, url: 'https://hooks.example.test/other', signing_secret: maskedSecret } } });
    expect(samePlace.status).toBe(200);
  });
});
