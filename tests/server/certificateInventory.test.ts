import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeWidget, widgetSettingsOf } from '../../src/server/dashboards/computeWidget.js';
import { addCertificateConnections, derOf, pkcs12Of, pkcs7Of, startCertificateLab, type CertificateLab } from './certificateFixtures.js';
import { runDiscoveryAndWait } from './discoveryFleet.js';
import { createUserWithGroups, engines, startTestServer, userPassword, type TestServer } from './harness.js';

type Discovery = { id: number; progress: { connections: { name: string; state: string; warnings: string[] }[]; assets: Record<string, number> } };

let lab: CertificateLab;
beforeAll(async () => {
  lab = await startCertificateLab();
}, 60_000);
afterAll(() => lab.close());

describe.each(engines)('certificate inventory on %s', (engine) => {
  let server: TestServer;
  let discovery: Discovery;
  const post = (url: string, body: object) => server.request('POST', url, { token: server.adminToken, body });
  const search = async (query: string) => (await post('/certificates/certificates', { query, fields: ['Name'], ordering: [{ field: 'Name' }] })).body.results.map((row: { Name: string[] }) => row.Name[0]);

  beforeAll(async () => {
    server = await startTestServer(engine);
    await addCertificateConnections(server.context.db, lab);
    // An uploaded certificate joins the inventory at the next discovery, as the built-in certificate source.
    const custom = await post('/certificates/custom-certificates', { name: 'Partner gateway', certificate: lab.printer.cert });
    expect(custom.status).toBe(201);
    discovery = await runDiscoveryAndWait(server);
  }, 120_000);
  afterAll(() => server.stop());

  it('makes one certificate of every sighting, with each place it is served, its device and its chain', async () => {
    // portal (three endpoints, and the manager's thumbprint), its issuing CA and the root the scanner verified it
    // with, the expired legacy one, the weak printer (scanned and uploaded) and the manager's VPN certificate.
    expect(discovery.progress.assets.certificate).toBe(6);
    const scan = discovery.progress.connections.find((connection) => connection.name === 'TLS scan')!;
    // The stalled endpoint is one warning; every other endpoint was read.
    expect(scan.warnings).toEqual([expect.stringMatching(new RegExp(`127\\.0\\.0\\.1:${lab.ports.stalled} did not complete a TLS handshake`))]);

    const list = await post('/certificates/certificates', { fields: ['Name', 'EndpointCount', 'DeviceCount', 'ExpiryStatus', 'ChainVerified', 'Adapters'], ordering: [{ field: 'NotAfter', order: 'asc' }] });
    expect(list.status).toBe(200);
    const rows = list.body.results.map((row: Record<string, unknown[]>) => [row.Name[0], row.ExpiryStatus?.[0], row.EndpointCount[0], row.DeviceCount[0]]);
    expect(rows.slice(0, 4)).toEqual([
      ['legacy.corp.example', 'Expired', 1, 1],
      ['portal.corp.example', 'Expires within 30 days', 3, 1],
      ['printer.corp.example', 'Valid', 1, 1],
      ['vpn.corp.example', 'Valid', 0, 0],
    ]);
    // The two authorities were issued within a second of each other: their order is not the point.
    expect(rows.slice(4).sort()).toEqual([['Corp Issuing CA 1', 'Valid', 0, 0], ['Corp Root CA', 'Valid', 0, 0]]);
    const portal = list.body.results[1];
    expect(portal.ChainVerified).toEqual([true]);
    expect(portal.Adapters).toEqual(['jsonfile', 'tls-scanner']);
    const printer = list.body.results[2];
    expect(printer.Adapters).toEqual(['cartograph-certificate', 'tls-scanner']);

    const detail = await post(`/certificates/certificates/${portal.PrimaryKey[0]}`, {});
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ CommonName: ['portal.corp.example'], IssuerCommonName: ['Corp Issuing CA 1'], KeyAlgorithm: ['rsa'], KeySize: [2048], SignatureAlgorithm: ['sha256WithRSAEncryption'], SelfSigned: [false], Weak: [false] });
    expect(detail.body.SubjectAltNames).toEqual(['DNS:localhost', 'DNS:portal.corp.example', 'IP:127.0.0.1']);
    expect(detail.body.chain.map((link: { name: string; position: number }) => [link.position, link.name])).toEqual([[0, 'portal.corp.example'], [1, 'Corp Issuing CA 1'], [2, 'Corp Root CA']]);
    expect(detail.body.places.count).toBe(3);
    expect(detail.body.places.results.map((place: { host: string; port: number; sni: string | null; device_name: string }) => [place.host, place.port, place.sni, place.device_name])).toEqual([
      ['127.0.0.1', lab.ports.portalA, null, 'web-01'],
      // "localhost" names no machine (correlation ignores it): those places have no device.
      ['localhost', Math.min(lab.ports.portalA, lab.ports.portalB), 'localhost', null],
      ['localhost', Math.max(lab.ports.portalA, lab.ports.portalB), 'localhost', null],
    ]);
    expect(detail.body.devices).toEqual([{ id: expect.any(String), hostname: 'web-01', places: 1 }]);
    // By fingerprint and by name too; an unknown one is 404.
    expect((await post(`/certificates/certificates/${encodeURIComponent(detail.body.FingerprintSha256[0])}`, {})).body.PrimaryKey).toEqual(portal.PrimaryKey);
    expect((await post('/certificates/certificates/Portal.corp.example', {})).body.PrimaryKey).toEqual(portal.PrimaryKey);
    expect((await post('/certificates/certificates/nothing-like-it', {})).status).toBe(404);

    const places = await server.request('GET', `/certificates/places?search=127.0.0.1&size=2`, { token: server.adminToken });
    expect(places.body.count).toBe(3);
    expect(places.body.results).toHaveLength(2);
    expect(places.body.next).toContain('page=2');
  });

  it('answers queries on expiry, weak keys and algorithms, self-signed, places and devices', async () => {
    expect(await search('ExpiryStatus = "Expires within 30 days"')).toEqual(['portal.corp.example']);
    expect(await search('ExpiryStatus = Expired OR DaysToExpiry < 30')).toEqual(['legacy.corp.example', 'portal.corp.example']);
    expect(await search('Weak = true')).toEqual(['printer.corp.example', 'vpn.corp.example']);
    expect(await search('Weaknesses = "SHA-1 signature" AND Weaknesses = "RSA key under 2048 bits" AND KeySize < 2048')).toEqual(['printer.corp.example']);
    expect(await search('SelfSigned = true')).toEqual(['Corp Root CA', 'legacy.corp.example', 'printer.corp.example']);
    expect(await search('IsCa = true')).toEqual(['Corp Issuing CA 1', 'Corp Root CA']);
    expect(await search('Place.Host = localhost')).toEqual(['portal.corp.example']);
    expect(await search(`Place.Port = ${lab.ports.legacy}`)).toEqual(['legacy.corp.example']);
    expect(await search('Device.Hostname = web-01 AND NOT KeyAlgorithm = rsa')).toEqual(['legacy.corp.example']);
    expect(await search('SubjectAltNames = "DNS:portal.corp.example"')).toEqual(['portal.corp.example']);
  });

  it('exports the list as shown and counts certificates by expiry for the widget', async () => {
    const exported = await post('/certificates/export', { format: 'csv', fields: ['Name', 'ExpiryStatus'], query: 'SelfSigned = true', ordering: [{ field: 'Name' }] });
    expect(exported.status).toBe(200);
    expect(exported.headers['content-disposition']).toMatch(/certificates-.*\.csv/);
    expect(String(exported.body).replace(/^\ufeff/, '').trim().split(/\r?\n/)).toEqual(['Name,Expiry status', 'Corp Root CA,Valid', 'legacy.corp.example,Expired', 'printer.corp.example,Valid']);
    const widget = await computeWidget({ db: server.context.db, companyId: 1, userId: null, now: new Date() }, widgetSettingsOf({ kind: 'certificate_expiry' }));
    expect(widget).toMatchObject({ inventory: 'certificate', total: 6 });
    expect(widget.rows.map((row) => [row.label, row.value])).toEqual([['Expired', 1], ['Within 30 days', 1], ['Within 90 days', 0], ['Later', 4]]);
  });

  it('refuses what it cannot read, private keys and wrong passwords with a clear field error, and keeps out other companies and the unpermitted', async () => {
    const upload = (body: object) => post('/certificates/custom-certificates', { name: 'Upload', ...body });
    expect((await upload({ certificate: `${lab.portal.cert}${lab.portal.key}` })).body).toEqual({ certificate: [expect.stringMatching(/private key .*never stores private keys/)] });
    expect((await upload({ certificate: 'hello, this is not a certificate' })).body).toEqual({ certificate: [expect.stringMatching(/not a certificate Cartograph can read/)] });
    expect((await upload({ certificate: lab.portal.cert.slice(0, 300) })).body).toEqual({ certificate: [expect.stringMatching(/truncated/)] });
    expect((await upload({ certificate: derOf(lab.portal.cert).subarray(0, 200).toString('base64') })).status).toBe(400);
    expect((await upload({ certificate: Buffer.alloc(900_000, 7).toString('base64') })).status).toBeGreaterThanOrEqual(400);
    expect((await upload({ certificate: 'x'.repeat(1_100_000) })).status).toBeLessThan(500);
    const p12 = pkcs12Of(lab.portal, lab.intermediate.cert, 'right password').toString('base64');
    expect((await upload({ certificate: p12, password: 'wrong password' })).body).toEqual({ password: ['The PKCS#12 password is wrong.'] });
    expect((await upload({ certificate: p12 })).body).toEqual({ password: [expect.stringMatching(/give its password/)] });
    // The printer was uploaded before the discovery.
    expect((await upload({ certificate: lab.printer.cert })).body).toEqual({ certificate: ['This certificate is already uploaded as "Partner gateway".'] });
    expect((await server.request('GET', '/certificates/custom-certificates', { token: server.adminToken })).body.count).toBe(1);

    const viewer = await createUserWithGroups(server, server.adminToken, 'cert.viewer', ['Viewers']);
    const denied = await server.request('POST', '/certificates/custom-certificates', { token: viewer.token, body: { name: 'x', certificate: lab.legacy.cert } });
    expect(denied.status).toBe(403);

    // Another company sees none of this company's certificates, uploaded or discovered.
    const company = await post('/companies/companies', { name: 'Company B' });
    expect((await post(`/companies/companies/${company.body.id}/administrators`, { username: 'b.admin', password: userPassword })).status).toBe(201);
    const other = await server.signIn('b.admin', userPassword);
    const [own] = (await server.request('GET', '/certificates/custom-certificates', { token: server.adminToken })).body.results;
    expect((await server.request('GET', '/certificates/custom-certificates', { token: other })).body.count).toBe(0);
    expect((await server.request('GET', `/certificates/custom-certificates/${own.id}`, { token: other })).status).toBe(404);
    expect((await server.request('PUT', `/certificates/custom-certificates/${own.id}`, { token: other, body: { name: 'taken' } })).status).toBe(404);
    expect((await server.request('POST', '/certificates/certificates', { token: other, body: {} })).status).toBe(404);
    expect((await server.request('GET', `/certificates/places?index_id=${discovery.id}`, { token: other })).status).toBe(404);
  });

  it('reads PEM bundles in any order, DER, PKCS#7 and PKCS#12 (the password used, not kept), and edits', async () => {
    const created = async (name: string, body: object) => {
      const answer = await post('/certificates/custom-certificates', { name, ...body });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body;
    };
    const pem = await created('Portal bundle', { certificate: `${lab.root.cert}${lab.intermediate.cert}${lab.portal.cert}` });
    expect(pem).toMatchObject({ common_name: 'portal.corp.example', certificate_count: 3, expiry_status: 'Expires within 30 days', chain_verified: false });
    expect(pem.chain.map((link: { common_name: string }) => link.common_name)).toEqual(['portal.corp.example', 'Corp Issuing CA 1', 'Corp Root CA']);
    expect(pem.verification_error).toMatch(/Corp Root CA.*not a trusted authority/);
    const der = await created('Legacy DER', { certificate: derOf(lab.legacy.cert).toString('base64') });
    expect(der).toMatchObject({ common_name: 'legacy.corp.example', expiry_status: 'Expired', self_signed: true, key_algorithm: 'ec', key_size: 256 });
    await server.request('DELETE', `/certificates/custom-certificates/${pem.id}`, { token: server.adminToken });
    const bundle = await created('Portal p7b', { certificate: pkcs7Of(`${lab.intermediate.cert}${lab.portal.cert}`).toString('base64') });
    expect(bundle.chain.map((link: { common_name: string }) => link.common_name)).toEqual(['portal.corp.example', 'Corp Issuing CA 1']);
    await server.request('DELETE', `/certificates/custom-certificates/${bundle.id}`, { token: server.adminToken });
    const pfx = await created('Portal pfx', { certificate: pkcs12Of(lab.portal, lab.intermediate.cert, 'right password').toString('base64'), password: 'right password' });
    expect(pfx).toMatchObject({ common_name: 'portal.corp.example', certificate_count: 2 });
    expect(pfx.pem).not.toMatch(/PRIVATE KEY/);
    const [stored] = await server.context.db.query<Record<string, unknown>>('select * from custom_certificates where id = $1', [pfx.id]);
    expect(JSON.stringify(stored)).not.toMatch(/right password|PRIVATE KEY/);

    const renamed = await server.request('PUT', `/certificates/custom-certificates/${pfx.id}`, { token: server.adminToken, body: { name: 'Portal (renewed)', description: 'Owned by the web team' } });
    expect(renamed.body).toMatchObject({ name: 'Portal (renewed)', description: 'Owned by the web team', common_name: 'portal.corp.example' });
    const replaced = await server.request('PUT', `/certificates/custom-certificates/${pfx.id}`, { token: server.adminToken, body: { name: 'Portal (renewed)', certificate: `${lab.portal.key}` } });
    expect(replaced.status).toBe(400);
    expect((await server.request('GET', `/certificates/custom-certificates/${pfx.id}`, { token: server.adminToken })).body.common_name).toBe('portal.corp.example');
    expect((await server.request('PUT', `/certificates/custom-certificates/${pfx.id}`, { token: server.adminToken, body: { name: ' ' } })).status).toBe(400);
    expect((await server.request('GET', '/certificates/custom-certificates/999999', { token: server.adminToken })).status).toBe(404);
  });
});
