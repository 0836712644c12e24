import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/auth/passwords.js';
import { saveLdapConfiguration, type LdapConfiguration } from '../../src/server/identity/ldap/ldapConfigurations.js';
import { lockoutThreshold } from '../../src/server/identity/signInLockout.js';
import { startSlapd, type SlapdServer } from '../support/slapd.js';
import { engines, startTestServer, userPassword, type Answer, type TestServer } from './harness.js';

// Both directories have the same suffix, service account and `alice` with the same password: whichever directory is
// asked for alice would accept her. Only which directory is asked tells the companies apart.
const suffix = 'dc=people,dc=example';
const serviceDn = `cn=svc-cartograph,ou=Services,${suffix}`;
const servicePassword = 'reader-secret';
const sharedPassword = 'same password in both directories';
const dnOf = (uid: string) => `uid=${uid},ou=People,${suffix}`;

function entry(dn: string, attributes: Record<string, string | string[]>): string {
  return [`dn: ${dn}`, ...Object.entries(attributes).flatMap(([name, value]) => [value].flat().map((item) => `${name}: ${item}`))].join('\n');
}

const directorySeed = (people: Record<string, string>) => [
  entry(suffix, { objectClass: ['dcObject', 'organization'], dc: 'people', o: 'People' }),
  ...['Services', 'People'].map((ou) => entry(`ou=${ou},${suffix}`, { objectClass: 'organizationalUnit', ou })),
  entry(serviceDn, { objectClass: ['organizationalRole', 'simpleSecurityObject'], cn: 'svc-cartograph', userPassword: servicePassword }),
  ...Object.entries(people).map(([uid, password]) => entry(dnOf(uid), {
    objectClass: ['inetOrgPerson'], uid, cn: uid, givenName: uid, sn: 'Directory', mail: `${uid}@people.example`, userPassword: password,
  })),
].join('\n\n') + '\n';

describe.each(engines)('LDAP sign-in stays inside its company, with two directories, on %s', (engine) => {
  let server: TestServer;
  let directoryA: SlapdServer;
  let directoryB: SlapdServer;
  let companyA: number;
  let companyB: number;

  beforeAll(async () => {
    [directoryA, directoryB] = await Promise.all([
      startSlapd({ suffix, logBinds: true, ldif: directorySeed({ alice: sharedPassword }) }),
      startSlapd({ suffix, logBinds: true, ldif: directorySeed({ alice: sharedPassword, dave: 'dave in B', bob: 'bob in B', erin: 'erin in B' }) }),
    ]);
    server = await startTestServer(engine);
    const token = server.adminToken;
    companyA = (await server.request('POST', '/companies/companies', { token, body: { name: 'Company A' } })).body.id;
    companyB = (await server.request('POST', '/companies/companies', { token, body: { name: 'Company B' } })).body.id;
    expect((await server.request('POST', '/companies/domains', { token, body: { domain: 'a.example', tenant: companyA, is_primary: true } })).status).toBe(201);
    expect((await server.request('POST', '/companies/domains', { token, body: { domain: 'b.example', tenant: companyB, is_primary: true } })).status).toBe(201);
    // B's directory is stored first: a sign-in that tried every directory in order would ask B before A.
    for (const [companyId, slapd, name] of [[companyB, directoryB, 'B'], [companyA, directoryA, 'A']] as const) {
      const configuration: LdapConfiguration = {
        name: `Directory ${name}`, enabled: true, url: slapd.url, starttls: false, ca_certificate: '', verify_certificate: true,
        bind_dn: serviceDn, bind_password: servicePassword, user_search_base: `ou=People,${suffix}`, user_filter: '(&(objectClass=inetOrgPerson)(uid={username}))',
        username_attribute: 'uid', email_attribute: 'mail', first_name_attribute: 'givenName', last_name_attribute: 'sn', member_of_attribute: '',
        group_search_base: '', group_filter: '', group_mappings: [],
      };
      await saveLdapConfiguration(server.context.db, server.context.keys.secretsKey, companyId, null, configuration);
    }
  });
  afterAll(async () => {
    await server?.stop();
    await directoryA?.stop();
    await directoryB?.stop();
  });

  const ldapSignIn = (username: string, password: string) => server.request('POST', '/api/token/ldap', { body: { username, password } });
  const userRow = async (username: string) =>
    server.context.db.query<{ id: number; company_id: number; is_ldap: boolean }>('select id, company_id, is_ldap from users where lower(username) = lower($1)', [username]);
  const companyOfSession = async (answer: Answer) => (await server.request('GET', '/api/me', { token: answer.body.access })).body.company_id;

  it("signs a company's user in against that company's directory and never asks the other", async () => {
    const bindsOfB = (await directoryB.binds()).length;
    const first = await ldapSignIn('alice@a.example', sharedPassword);
    expect(first.status).toBe(200);
    expect(await companyOfSession(first)).toBe(companyA);
    expect(await userRow('alice')).toEqual([expect.objectContaining({ company_id: companyA, is_ldap: true })]);
    expect(await directoryA.binds()).toContain(dnOf('alice'));
    // Alice now belongs to A: her bare name is tried against A's directory alone.
    const again = await ldapSignIn('alice', sharedPassword);
    expect(again.status).toBe(200);
    expect(await companyOfSession(again)).toBe(companyA);
    expect(await userRow('alice')).toHaveLength(1);
    expect((await directoryB.binds()).length).toBe(bindsOfB);
  });

  it('asks no directory for a name that names no company when several companies have one', async () => {
    const [bindsOfA, bindsOfB] = [(await directoryA.binds()).length, (await directoryB.binds()).length];
    expect(await ldapSignIn('erin', 'erin in B')).toMatchObject({ status: 401, body: { code: 'invalid_credentials' } });
    expect((await directoryA.binds()).length).toBe(bindsOfA);
    expect((await directoryB.binds()).length).toBe(bindsOfB);
    expect(await userRow('erin')).toEqual([]);
    // Named by its domain, erin signs in to B; DOMAIN\user names it as well.
    const named = await ldapSignIn('erin@b.example', 'erin in B');
    expect(named.status).toBe(200);
    expect(await companyOfSession(named)).toBe(companyB);
    expect((await ldapSignIn('B\\erin', 'erin in B')).status).toBe(200);
    expect(await userRow('erin')).toEqual([expect.objectContaining({ company_id: companyB, is_ldap: true })]);
  });

  it("never lets another company's directory claim a name: neither a local user nor a directory user", async () => {
    // A local (password) user of company A; the API creates users in the caller's company, so it is written here.
    const [dave] = await server.context.db.query<{ id: number }>(
      "insert into users (company_id, username, password_hash) values ($1, 'dave', $2) returning id", [companyA, await hashPassword(userPassword)],
    );
    const bindsOfB = (await directoryB.binds()).length;
    // B's directory knows a dave with this password, but dave is A's (local) user: B is never asked.
    expect(await ldapSignIn('dave', 'dave in B')).toMatchObject({ status: 401, body: { code: 'invalid_credentials' } });
    expect((await directoryB.binds()).length).toBe(bindsOfB);
    // Named with B's domain, B's directory is asked and answers for its dave and alice, but neither is B's to take.
    expect(await ldapSignIn('dave@b.example', 'dave in B')).toMatchObject({ status: 401, body: { code: 'invalid_credentials' } });
    expect(await ldapSignIn('alice@b.example', sharedPassword)).toMatchObject({ status: 401, body: { code: 'invalid_credentials' } });
    expect(await directoryB.binds()).toEqual(expect.arrayContaining([dnOf('dave'), dnOf('alice')]));
    expect(await userRow('dave')).toEqual([{ id: dave.id, company_id: companyA, is_ldap: false }]);
    expect(await userRow('alice')).toEqual([expect.objectContaining({ company_id: companyA, is_ldap: true })]);
    expect((await server.request('POST', '/api/token', { body: { username: 'dave', password: userPassword } })).status).toBe(200);
  });

  it("keeps lockouts inside a company: A's failures reach no directory of B and lock none of B's users", async () => {
    const bindsOfB = await directoryB.binds();
    const answers = [];
    for (let guess = 0; guess < lockoutThreshold; guess += 1) answers.push(await ldapSignIn('alice', `alice guess ${guess}`));
    expect(answers.map((answer) => answer.body.code)).toEqual([...Array(lockoutThreshold - 1).fill('invalid_credentials'), 'account_locked']);
    expect(await ldapSignIn('alice', sharedPassword)).toMatchObject({ status: 403, body: { code: 'account_locked' } });
    expect(await directoryB.binds()).toEqual(bindsOfB);
    const erin = await ldapSignIn('erin', 'erin in B');
    expect(erin.status).toBe(200);
    expect(await companyOfSession(erin)).toBe(companyB);
  });

  it('checks no password in the directory once a burst of wrong ones reaches the limit', async () => {
    const bobBinds = async () => (await directoryB.binds()).filter((dn) => dn === dnOf('bob')).length;
    const before = await bobBinds();
    const bindsOfA = (await directoryA.binds()).length;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, guess) => ldapSignIn('bob@b.example', `bob guess ${guess}`)));
    expect(answers.filter((answer) => answer.body.code === 'invalid_credentials')).toHaveLength(lockoutThreshold - 1);
    expect(answers.filter((answer) => answer.body.code === 'account_locked')).toHaveLength(20 - lockoutThreshold + 1);
    expect((await bobBinds()) - before).toBe(lockoutThreshold);
    expect((await directoryA.binds()).length).toBe(bindsOfA);
    expect(await ldapSignIn('bob@b.example', 'bob in B')).toMatchObject({ status: 403, body: { code: 'account_locked' } });
    expect((await bobBinds()) - before).toBe(lockoutThreshold);
  });
});
