import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSlapd, type SlapdServer } from '../../../support/slapd.js';
import { startTestServer, type TestServer } from '../../harness.js';

const suffix = 'dc=lab,dc=example';
const readerDn = `cn=reader,${suffix}`;

const ldif = `dn: ${suffix}
objectClass: dcObject
objectClass: organization
dc: lab
o: Lab

dn: ${readerDn}
objectClass: organizationalRole
objectClass: simpleSecurityObject
cn: reader
userPassword: reader-password

dn: cn=alice,${suffix}
objectClass: user
cn: alice
sAMAccountName: alice
mail: alice@lab.example
userAccountControl: 512

dn: cn=WS01,${suffix}
objectClass: computer
cn: WS01
dNSHostName: ws01.lab.example
operatingSystem: Windows 11 Pro
userAccountControl: 4096
`;

describe('an Active Directory connection through the API', () => {
  let slapd: SlapdServer;
  let server: TestServer;

  const createConnection = async (name: string, password: string) => {
    const options = {
      hosts: ['127.0.0.1'], security: 'plain', port: slapd.port, base_dn: suffix,
      auth: { auth_type: 'simple_bind', bind_dn: readerDn, password }, page_size: 100, timeout_seconds: 10,
    };
    const answer = await server.request('POST', '/adapters/connections', {
      token: server.adminToken, body: { adapter: 'active-directory', name, option_connections: Object.entries(options).map(([option, value]) => ({ name: option, typed_value: value })) },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.id as number;
  };

  beforeAll(async () => {
    slapd = await startSlapd({ suffix, ldif });
    server = await startTestServer('pglite');
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await slapd?.stop();
  });

  it('tests the stored connection with its decrypted password and says why a wrong one fails', async () => {
    const good = await createConnection('Lab domain', 'reader-password');
    expect((await server.request('POST', `/adapters/test/${good}`, { token: server.adminToken })).body).toEqual({ success: true, detail: expect.stringContaining(`read ${suffix}`) });
    const bad = await createConnection('Lab domain, old password', 'expired-password');
    expect((await server.request('POST', `/adapters/test/${bad}`, { token: server.adminToken })).body).toMatchObject({ success: false, reason: 'unauthorized' });
    await server.request('DELETE', `/adapters/connections/${bad}`, { token: server.adminToken });
  });

  it('feeds the directory\'s users and computers into a discovery', async () => {
    const started = await server.request('POST', '/discoveries/discoveries', { token: server.adminToken });
    expect(started.status).toBe(202);
    let last: { status: number } | null = null;
    for (let attempt = 0; attempt < 300 && (!last || last.status === 1); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      last = (await server.request('GET', '/discoveries/last', { token: server.adminToken })).body;
    }
    const devices = await server.request('POST', '/devices/devices', { token: server.adminToken, body: { fields: ['Hostname', 'OS.Type', 'Adapters'] } });
    expect(devices.body.results).toEqual([expect.objectContaining({ Hostname: ['ws01.lab.example'], 'OS.Type': ['Windows'] })]);
    const users = await server.request('POST', '/userinventory/users', { token: server.adminToken, body: { fields: ['Username', 'Email'] } });
    expect(users.body.results).toEqual([expect.objectContaining({ Username: ['alice'], Email: ['alice@lab.example'] })]);
  });
});
