import { createServer, type Server } from 'node:net';
import { loopbackAllowed } from '../../../support/outbound.js';
import { Client, SizeLimitExceededError } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ldapEngine } from '../../../../src/server/adapters/ldap/ldapEngine.js';
import type { ConnectionConfig, FetchedRecord } from '../../../../src/server/adapters/engine.js';
import { startSlapd, type SlapdServer } from '../../../support/slapd.js';
import { issueCertificate, type TestCertificate } from '../../../support/testCertificates.js';

const suffix = 'dc=corp,dc=example';
const userCount = 230;
const computerCount = 140;
const servicePassword = 'reader-secret';
const serviceDn = `cn=svc-cartograph,ou=Services,${suffix}`;
// 2024-01-01T00:00:00Z as a Windows FILETIME.
const newYearFileTime = '133485408000000000';

function entry(dn: string, attributes: Record<string, string | string[]>): string {
  const lines = [`dn: ${dn}`];
  for (const [name, value] of Object.entries(attributes)) for (const item of [value].flat()) lines.push(`${name}: ${item}`);
  return lines.join('\n');
}

function seedLdif(): string {
  const entries = [
    entry(suffix, { objectClass: ['dcObject', 'organization'], dc: 'corp', o: 'Corp' }),
    ...['Services', 'People', 'Workstations', 'Servers'].map((ou) => entry(`ou=${ou},${suffix}`, { objectClass: 'organizationalUnit', ou })),
    entry(serviceDn, { objectClass: ['organizationalRole', 'simpleSecurityObject'], cn: 'svc-cartograph', userPassword: servicePassword }),
  ];
  for (let index = 0; index < userCount; index += 1) {
    const name = `user${String(index).padStart(3, '0')}`;
    const disabled = index === 7;
    entries.push(entry(`cn=${name},ou=People,${suffix}`, {
      objectClass: 'user', cn: name, sAMAccountName: name, userPrincipalName: `${name}@corp.example`, mail: `${name}@corp.example`,
      displayName: `User ${index}`, givenName: 'User', sn: String(index), employeeID: `E${1000 + index}`,
      userAccountControl: disabled ? '514' : '512', lastLogonTimestamp: newYearFileTime,
      ...(index === 3 ? { lockoutTime: '133485408000000000' } : {}),
      memberOf: index === 0 ? [`CN=Domain Admins,CN=Users,${suffix}`, `CN=VPN Users,OU=Groups,${suffix}`] : [`CN=VPN Users,OU=Groups,${suffix}`],
    }));
  }
  for (let index = 0; index < computerCount; index += 1) {
    const server = index < 10;
    const name = server ? `SRV${String(index).padStart(3, '0')}` : `PC${String(index).padStart(3, '0')}`;
    entries.push(entry(`cn=${name},ou=${server ? 'Servers' : 'Workstations'},${suffix}`, {
      objectClass: 'computer', cn: name, sAMAccountName: `${name}$`, dNSHostName: `${name.toLowerCase()}.corp.example`,
      operatingSystem: server ? 'Windows Server 2022 Standard' : 'Windows 11 Enterprise', operatingSystemVersion: server ? '10.0 (20348)' : '10.0 (22631)',
      userAccountControl: server ? '532480' : '4096', lastLogonTimestamp: newYearFileTime,
    }));
  }
  return `${entries.join('\n\n')}\n`;
}

let slapd: SlapdServer;
let ca: TestCertificate;

function config(overrides: Partial<ConnectionConfig> = {}): ConnectionConfig {
  return {
    hosts: ['127.0.0.1'], security: 'plain', port: slapd.port, base_dn: suffix,
    auth: { auth_type: 'simple_bind', bind_dn: serviceDn, password: servicePassword }, page_size: 100, timeout_seconds: 10, ...overrides,
  };
}

async function fetchAll(adapter: string, connection: ConnectionConfig): Promise<{ records: FetchedRecord[]; warnings: string[] }> {
  const records: FetchedRecord[] = [];
  const warnings: string[] = [];
  for await (const record of ldapEngine.fetch({ adapter, config: connection, signal: new AbortController().signal, warn: (message) => warnings.push(message), outbound: loopbackAllowed })) records.push(record);
  return { records, warnings };
}

const test = (connection: ConnectionConfig, adapter = 'active-directory') => ldapEngine.test({ adapter, config: connection, signal: new AbortController().signal, outbound: loopbackAllowed });

beforeAll(async () => {
  ca = issueCertificate({ commonName: 'Corp Test Root CA', isCa: true, keyType: 'ec:prime256v1' }, null);
  const serverCertificate = issueCertificate({ commonName: 'localhost', altNames: ['DNS:localhost', 'IP:127.0.0.1'] }, ca);
  // The size limit sits below the number of users: only a paged search can read them all.
  slapd = await startSlapd({ suffix, ldif: seedLdif(), sizeLimit: 120, tls: serverCertificate });
}, 60_000);

afterAll(async () => {
  await slapd?.stop();
});

describe('the LDAP engine against OpenLDAP', () => {
  it('is served by a directory whose size limit truncates an unpaged search', async () => {
    const client = new Client({ url: slapd.url });
    await client.bind(serviceDn, servicePassword);
    await expect(client.search(suffix, { scope: 'sub', filter: '(objectClass=user)' })).rejects.toBeInstanceOf(SizeLimitExceededError);
    await client.unbind();
  });

  it('reads every enabled user and every computer in pages and maps them to Cartograph fields', async () => {
    const { records, warnings } = await fetchAll('active-directory', config());
    const users = records.filter((record) => record.entity === 'user');
    const devices = records.filter((record) => record.entity === 'device');
    expect(warnings).toEqual([]);
    expect(users).toHaveLength(userCount - 1);
    expect(devices).toHaveLength(computerCount);
    expect(users.some((user) => user.fields.Username === 'user007')).toBe(false);
    const admin = users.find((user) => user.fields.Username === 'user000')!;
    expect(admin.fields).toMatchObject({
      Email: ['user000@corp.example'], UserPrincipalName: 'user000@corp.example', DisplayName: 'User 0', EmployeeId: 'E1000', Domain: 'corp.example',
      Groups: ['Domain Admins', 'VPN Users'], AdminStatus: true, Enabled: true, Locked: false, LastLogOnTime: '2024-01-01T00:00:00.000Z',
    });
    expect(users.find((user) => user.fields.Username === 'user003')!.fields.Locked).toBe(true);
    const server = devices.find((device) => device.fields.Hostname === 'srv001.corp.example')!;
    expect(server.fields).toMatchObject({
      Domain: 'corp.example', 'OS.Type': 'Windows', 'OS.Version': '10.0 (20348)', 'OS.Build': '20348', 'OS.FullOsString': 'Windows Server 2022 Standard 10.0 (20348)',
      Category: 'Server', LastSeen: '2024-01-01T00:00:00.000Z', OrganizationalUnit: `ou=Servers,${suffix}`, DistinguishedName: `cn=SRV001,ou=Servers,${suffix}`,
    });
    expect(devices.find((device) => device.fields.Hostname === 'pc050.corp.example')!.fields.Category).toBe('Workstation');
    expect((server.raw as Record<string, unknown>).operatingSystem).toBe('Windows Server 2022 Standard');
  });

  it('includes disabled accounts when asked and honours a custom user filter', async () => {
    const all = await fetchAll('active-directory', config({ include_disabled: true, fetch_computers: false }));
    expect(all.records).toHaveLength(userCount);
    const filtered = await fetchAll('active-directory', config({ user_filter: '(&(objectClass=user)(sAMAccountName=user01*))', fetch_computers: false }));
    expect(filtered.records.map((record) => record.fields.Username).sort()).toEqual(Array.from({ length: 10 }, (_, index) => `user01${index}`));
  });

  it('reads people for the OpenLDAP adapter with its own default filter', async () => {
    const { records } = await fetchAll('openldap', config({ user_filter: '(objectClass=user)', base_dn: `ou=People,${suffix}` }));
    expect(records).toHaveLength(userCount);
    expect(new Set(records.map((record) => record.entity))).toEqual(new Set(['user']));
  });

  it('passes the connectivity check with the right credentials', async () => {
    expect(await test(config())).toMatchObject({ ok: true });
  });

  it('reports a wrong password as unauthorized, in the check and in a fetch', async () => {
    const wrong = config({ auth: { auth_type: 'simple_bind', bind_dn: serviceDn, password: 'not-the-password' } });
    expect(await test(wrong)).toMatchObject({ ok: false, reason: 'unauthorized' });
    await expect(fetchAll('active-directory', wrong)).rejects.toThrow(/invalid credentials/i);
  });

  it('reports a closed port as refused', async () => {
    const closed: Server = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await test(config({ port }))).toMatchObject({ ok: false, reason: 'refused' });
  });

  it('reports an unresolvable host as a DNS failure and a missing base DN as a configuration error', async () => {
    expect(await test(config({ hosts: ['no-such-host.invalid'] }))).toMatchObject({ ok: false, reason: 'dns' });
    expect(await test(config({ base_dn: `ou=Nowhere,${suffix}` }))).toMatchObject({ ok: false, reason: 'invalid_config' });
  });

  it('reports a server that accepts the connection but never answers as a timeout, without hanging', async () => {
    const mute: Server = createServer((socket) => socket.resume());
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    const port = (mute.address() as { port: number }).port;
    try {
      expect(await test(config({ port, timeout_seconds: 0.3 }))).toMatchObject({ ok: false, reason: 'timeout' });
    } finally {
      await new Promise((resolve) => mute.close(resolve));
    }
  });

  it('reports LDAPS spoken to a plain LDAP port as a TLS failure', async () => {
    expect(await test(config({ security: 'ldaps' }))).toMatchObject({ ok: false, reason: 'tls' });
  });

  it('moves on to the next directory server when the first does not answer', async () => {
    expect(await test(config({ hosts: ['no-such-host.invalid', '127.0.0.1'] }))).toMatchObject({ ok: true });
  });

  it('reads over LDAPS when the custom CA is given and reports a TLS failure when it is not', async () => {
    const secure = config({ security: 'ldaps', port: slapd.securePort, hosts: ['localhost'] });
    expect(await test({ ...secure, custom_ca: ca.cert })).toMatchObject({ ok: true });
    expect(await test(secure)).toMatchObject({ ok: false, reason: 'tls' });
    expect(await test({ ...secure, verify_ssl: false })).toMatchObject({ ok: true });
    const { records } = await fetchAll('active-directory', { ...secure, custom_ca: ca.cert, fetch_users: false });
    expect(records).toHaveLength(computerCount);
  });

  it('upgrades a plain connection with StartTLS', async () => {
    expect(await test(config({ security: 'starttls', hosts: ['localhost'], custom_ca: ca.cert }))).toMatchObject({ ok: true });
  });

  it('rejects a configuration without a password before connecting', async () => {
    expect(await test(config({ auth: { auth_type: 'simple_bind', bind_dn: serviceDn, password: '' } }))).toMatchObject({ ok: false, reason: 'invalid_config' });
  });
});
