import { Client } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskedSecret } from '../../src/server/auth/secretFields.js';
import { ldapConfigurationKind } from '../../src/server/identity/ldap/ldapConfigurations.js';
import { startSlapd, type SlapdServer } from '../support/slapd.js';
import { createUserWithGroups, engines, startTestServer, userPassword, type TestServer } from './harness.js';

const suffix = 'dc=people,dc=example';
const serviceDn = `cn=svc-cartograph,ou=Services,${suffix}`;
const servicePassword = 'reader-secret';
const adminsGroup = `cn=Cartograph Admins,ou=Groups,${suffix}`;
const analystsGroup = `cn=Analysts,ou=Groups,${suffix}`;

function entry(dn: string, attributes: Record<string, string | string[]>): string {
  return [`dn: ${dn}`, ...Object.entries(attributes).flatMap(([name, value]) => [value].flat().map((item) => `${name}: ${item}`))].join('\n');
}

const person = (uid: string, password: string, given: string, sn: string) => entry(`uid=${uid},ou=People,${suffix}`, {
  objectClass: ['inetOrgPerson'], uid, cn: `${given} ${sn}`, givenName: given, sn, mail: `${uid}@people.example`, userPassword: password,
});

const seed = [
  entry(suffix, { objectClass: ['dcObject', 'organization'], dc: 'people', o: 'People' }),
  ...['Services', 'People', 'Groups'].map((ou) => entry(`ou=${ou},${suffix}`, { objectClass: 'organizationalUnit', ou })),
  entry(serviceDn, { objectClass: ['organizationalRole', 'simpleSecurityObject'], cn: 'svc-cartograph', userPassword: servicePassword }),
  person('alice', 'alice-directory-pass', 'Alice', 'Liddell'),
  person('bob', 'bob-directory-pass', 'Bob', 'Builder'),
  person('local-carol', 'carol-directory-pass', 'Carol', 'Local'),
  entry(adminsGroup, { objectClass: 'groupOfNames', cn: 'Cartograph Admins', member: [`uid=alice,ou=People,${suffix}`] }),
  entry(analystsGroup, { objectClass: 'groupOfNames', cn: 'Analysts', member: [`uid=alice,ou=People,${suffix}`, `uid=bob,ou=People,${suffix}`] }),
].join('\n\n') + '\n';

describe.each(engines)('LDAP sign-in against slapd on %s', (engine) => {
  let server: TestServer;
  // A directory per engine: the tests change its groups.
  let slapd: SlapdServer;
  let groupIds: Record<string, number>;
  let configurationId: number;
  beforeAll(async () => {
    slapd = await startSlapd({ suffix, ldif: seed });
    server = await startTestServer(engine);
    const groups = await server.request('GET', '/users/groups?size=100', { token: server.adminToken });
    groupIds = Object.fromEntries(groups.body.results.map((group: { name: string; id: number }) => [group.name, group.id]));
  });
  afterAll(async () => {
    await server?.stop();
    await slapd?.stop();
  });

  const configuration = (change: Record<string, unknown> = {}) => ({
    name: 'People directory', enabled: true, url: `ldap://127.0.0.1:${slapd.port}`, starttls: false, ca_certificate: '', verify_certificate: true,
    bind_dn: serviceDn, bind_password: servicePassword, user_search_base: `ou=People,${suffix}`, user_filter: '(&(objectClass=inetOrgPerson)(uid={username}))',
    username_attribute: 'uid', email_attribute: 'mail', first_name_attribute: 'givenName', last_name_attribute: 'sn', member_of_attribute: '',
    group_search_base: `ou=Groups,${suffix}`, group_filter: '(member={dn})',
    group_mappings: [{ ldap_group: adminsGroup, group_id: groupIds.Administrators }, { ldap_group: analystsGroup.toUpperCase(), group_id: groupIds.Analysts }],
    ...change,
  });

  it('offers no LDAP sign-in until a directory is configured', async () => {
    expect((await server.request('GET', '/api/sign-in-methods')).body).toEqual({ password: true, ldap: false });
    expect((await server.request('POST', '/api/token/ldap', { body: { username: 'alice', password: 'alice-directory-pass' } })).body.code).toBe('ldap_not_configured');
  });

  it('stores a directory with its bind password sealed and masked, and refuses groups of another company', async () => {
    const token = server.adminToken;
    const other = await server.request('POST', '/companies/companies', { token, body: { name: `LDAP elsewhere ${engine}` } });
    const [foreign] = await server.context.db.query<{ id: number }>("insert into groups (company_id, name) values ($1, 'Foreign') returning id", [other.body.id]);
    const refused = await server.request('POST', '/configurations/ldap-configurations', { token, body: configuration({ group_mappings: [{ ldap_group: adminsGroup, group_id: foreign.id }] }) });
    expect(refused.status).toBe(400);
    expect(refused.body).toHaveProperty('group_mappings');
    expect((await server.request('POST', '/configurations/ldap-configurations', { token, body: configuration({ url: 'http://127.0.0.1' }) })).body).toHaveProperty('url');
    const created = await server.request('POST', '/configurations/ldap-configurations', { token, body: configuration() });
    expect(created.status).toBe(201);
    expect(created.body.bind_password).toBe(maskedSecret);
    configurationId = created.body.id;
    const [row] = await server.context.db.query<{ document: { bind_password: string } }>('select document from resources where kind = $1 and id = $2', [ldapConfigurationKind, configurationId]);
    expect(row.document.bind_password).not.toContain(servicePassword);
    const listed = await server.request('GET', '/configurations/ldap-configurations', { token });
    expect(listed.body.results.map((item: { id: number }) => item.id)).toEqual([configurationId]);
    expect(JSON.stringify(listed.body)).not.toContain(servicePassword);
    // Saving the form without re-typing the password keeps the stored one.
    const { id: _id, company_id: _company, bind_password: _password, ...rest } = created.body;
    const renamed = await server.request('PUT', `/configurations/ldap-configurations/${configurationId}`, { token, body: { ...rest, name: 'People' } });
    expect(renamed.body).toMatchObject({ name: 'People' });
    expect((await server.request('GET', '/api/sign-in-methods')).body.ldap).toBe(true);
  });

  it('tests the bind and a sample lookup, and says what is wrong', async () => {
    const token = server.adminToken;
    const tested = await server.request('POST', `/configurations/ldap-configurations/${configurationId}/test`, { token, body: { username: 'alice' } });
    expect(tested.status).toBe(200);
    expect(tested.body.user).toMatchObject({ username: 'alice', email: 'alice@people.example', first_name: 'Alice' });
    expect(tested.body.user.mapped_group_ids.sort()).toEqual([groupIds.Administrators, groupIds.Analysts].sort());
    const sample = await server.request('POST', `/configurations/ldap-configurations/${configurationId}/test`, { token, body: {} });
    expect(sample.body.user.dn).toMatch(/ou=People/);
    const wrong = await server.request('POST', '/configurations/ldap-configurations', { token, body: configuration({ name: 'Wrong bind', enabled: false, bind_password: 'nope' }) });
    const badBind = await server.request('POST', `/configurations/ldap-configurations/${wrong.body.id}/test`, { token, body: {} });
    expect(badBind.status).toBe(400);
    expect(badBind.body.detail).toMatch(/bind failed.*invalid credentials/i);
    const down = await server.request('POST', '/configurations/ldap-configurations', { token, body: configuration({ name: 'Down', enabled: false, url: 'ldap://127.0.0.1:1' }) });
    const unreachable = await server.request('POST', `/configurations/ldap-configurations/${down.body.id}/test`, { token, body: {} });
    expect(unreachable.status).toBe(400);
    expect(unreachable.body.detail).toMatch(/bind failed/i);
    const viewer = await createUserWithGroups(server, token, `ldap-viewer-${engine}`, ['Viewers']);
    expect((await server.request('POST', `/configurations/ldap-configurations/${configurationId}/test`, { token: viewer.token, body: {} })).status).toBe(403);
  });

  it('creates a directory user on first sign-in with the mapped groups, and follows the directory on the next', async () => {
    const signedIn = await server.request('POST', '/api/token/ldap', { body: { username: 'alice', password: 'alice-directory-pass' } });
    expect(signedIn.status).toBe(200);
    const me = await server.request('GET', '/api/me', { token: signedIn.body.access });
    expect(me.body).toMatchObject({ username: 'alice', email: 'alice@people.example', first_name: 'Alice', last_name: 'Liddell' });
    expect(me.body.permissions).toContain('configurations.change_ldapconfiguration');
    const [user] = await server.context.db.query<{ is_ldap: boolean; password_hash: string | null }>("select is_ldap, password_hash from users where username = 'alice'");
    expect(user).toEqual({ is_ldap: true, password_hash: null });
    // The directory takes alice out of the admins: her next sign-in drops the Administrators group.
    const directory = new Client({ url: slapd.url });
    await directory.bind(slapd.rootDn, slapd.rootPassword);
    await directory.del(adminsGroup);
    await directory.unbind();
    const again = await server.request('POST', '/api/token/ldap', { body: { username: 'alice', password: 'alice-directory-pass' } });
    const groups = await server.context.db.query<{ name: string }>("select g.name from user_groups ug join groups g on g.id = ug.group_id join users u on u.id = ug.user_id where u.username = 'alice'");
    expect(groups.map((group) => group.name)).toEqual(['Analysts']);
    const meAgain = await server.request('GET', '/api/me', { token: again.body.access });
    expect(meAgain.body.permissions).not.toContain('configurations.change_ldapconfiguration');
    // Directory users have no Cartograph password.
    expect((await server.request('POST', '/api/token', { body: { username: 'alice', password: 'alice-directory-pass' } })).status).toBe(401);
  });

  it('answers wrong passwords, unknown names and filter tricks alike, and locks after repeated failures', async () => {
    for (const body of [{ username: 'bob', password: 'wrong' }, { username: 'nobody', password: 'x' }, { username: '*', password: 'bob-directory-pass' }, { username: 'bob)(uid=*', password: 'bob-directory-pass' }]) {
      const answer = await server.request('POST', '/api/token/ldap', { body });
      expect(answer.status).toBe(401);
      expect(answer.body.code).toBe('invalid_credentials');
    }
    // Four more guesses, each a different password: the same one repeated at once would count once (see below).
    for (let attempt = 0; attempt < 4; attempt += 1) await server.request('POST', '/api/token/ldap', { body: { username: 'bob', password: `wrong ${attempt}` } });
    const locked = await server.request('POST', '/api/token/ldap', { body: { username: 'bob', password: 'bob-directory-pass' } });
    expect(locked.status).toBe(403);
    expect(locked.body.code).toBe('account_locked');
  });

  it("counts the console's retry of a refused sign-in once toward lockout, and stores no password", async () => {
    // Spec §7: the console sends a refused LDAP sign-in once more. Four wrong passwords, each sent twice at once, are
    // four failures: the account is not locked (it would be after five requests if each counted).
    // A sign-in that succeeds first starts the count from none.
    expect((await server.request('POST', '/api/token/ldap', { body: { username: 'alice', password: 'alice-directory-pass' } })).status).toBe(200);
    for (let click = 0; click < 4; click += 1) {
      for (let send = 0; send < 2; send += 1) {
        const answer = await server.request('POST', '/api/token/ldap', { body: { username: 'alice', password: `mistyped ${click}` } });
        expect(answer).toMatchObject({ status: 401, body: { code: 'invalid_credentials' } });
      }
    }
    const failures = await server.context.db.query<{ attempt_digest: string }>("select attempt_digest from sign_in_failures where username = 'alice' order by id");
    expect(failures).toHaveLength(4);
    for (const failure of failures) expect(failure.attempt_digest).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(failures)).not.toContain('mistyped');
    expect((await server.request('POST', '/api/token/ldap', { body: { username: 'alice', password: 'alice-directory-pass' } })).status).toBe(200);
    // Five different wrong passwords still lock, as for passwords.
    const answers = [];
    for (let guess = 0; guess < 5; guess += 1) answers.push(await server.request('POST', '/api/token/ldap', { body: { username: 'alice', password: `guess ${guess}` } }));
    expect(answers.map((answer) => answer.body.code)).toEqual(['invalid_credentials', 'invalid_credentials', 'invalid_credentials', 'invalid_credentials', 'account_locked']);
  });

  it('never takes over a local account of the same name', async () => {
    await createUserWithGroups(server, server.adminToken, 'local-carol', ['Viewers']);
    expect((await server.request('POST', '/api/token/ldap', { body: { username: 'local-carol', password: 'carol-directory-pass' } })).status).toBe(401);
    expect((await server.request('POST', '/api/token', { body: { username: 'local-carol', password: userPassword } })).status).toBe(200);
  });
});
