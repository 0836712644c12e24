import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueAdapter } from '../../src/server/adapters/catalogue.js';
import type { AdapterEngine } from '../../src/server/adapters/engine.js';
import { createAdapterRuntime } from '../../src/server/adapters/runtime.js';
import { bundledSnapshotFile } from '../../src/server/lifecycle/osLifecycle.js';
import { starterPolicies } from '../../src/server/security/starterPolicies.js';
import { runDiscoveryAndWait } from './discoveryFleet.js';
import { createUserWithGroups, engines, startTestServer, userPassword, type TestServer } from './harness.js';

// The OS lifecycle feed through the real server: the bundled endoflife.date snapshot imported at start, each device
// given its OS end of life and support at the discovery (both read paths answer queries on them alike), the feed
// replaced by uploads the way the AVM's feeds are (provider company only, a broken file refused naming where), and
// the "Operating system still supported" starter policy failing exactly the devices on a release past its end of life.

const hosts: Record<string, string> = {
  'ws-10': 'Windows 10 Enterprise 22H2 10.0.19045',
  'ws-11': 'Windows 11 Enterprise 25H2 10.0.26200',
  'build-18': 'Ubuntu 18.04.6 LTS',
  'srv-centos': 'CentOS Linux release 7.9.2009 (Core)',
  'srv-rhel': 'Red Hat Enterprise Linux 9.3 (Plow)',
  'fw-kali': 'Kali GNU/Linux Rolling 2024.1',
};

const replay: AdapterEngine = {
  name: 'replay',
  test: async () => ({ ok: true, detail: 'replay' }),
  async *fetch() {
    for (const [name, os] of Object.entries(hosts)) yield { entity: 'device', fields: { Hostname: name, SerialNumber: `SN-${name}`, 'OS.FullOsString': os }, raw: { name, os } };
  },
};
const catalogue = new Map<string, CatalogueAdapter>([
  ['cmdb-export', { name: 'CMDB export', slug: 'cmdb-export', description: '', groups: [], categories: ['device'], engine: 'replay', connectionSchemaId: 'none', secretFields: new Set(), hasManifest: false }],
]);

const boundary = '----cartograph-lifecycle-boundary';
function multipart(fileName: string, content: string): { body: Buffer; headers: Record<string, string> } {
  const body = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/json\r\n\r\n${content}\r\n--${boundary}--\r\n`);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const ubuntuV0 = readFileSync(new URL('../fixtures/lifecycle/ubuntu.json', import.meta.url), 'utf8');
const snapshot = JSON.parse(readFileSync(bundledSnapshotFile, 'utf8'));
const osPolicy = starterPolicies.find((policy) => policy.starter_id === 'cis-2.2-os-supported')!;

describe.each(engines)('the OS lifecycle feed on %s', (engine) => {
  let server: TestServer;
  const upload = (name: string, content: string, token = server.adminToken) => server.request('POST', '/avm/enrichments/endoflife-date/upload', { token, ...multipart(name, content) });
  const feed = async () => (await server.request('GET', '/avm/enrichments', { token: server.adminToken })).body.results.find((row: { slug: string }) => row.slug === 'endoflife-date');
  const hostnames = async (query: string) => (await server.request('POST', '/devices/devices', { token: server.adminToken, body: { query, fields: ['Hostname'], size: 50, ordering: [{ field: 'Hostname' }] } })).body.results.map((row: { Hostname: string[] }) => row.Hostname[0]);
  const device = async (hostname: string) => {
    const [row] = (await server.request('POST', '/devices/devices', { token: server.adminToken, body: { query: `Hostname = ${hostname}`, size: 1 } })).body.results;
    return (await server.request('POST', `/devices/devices/${row.PrimaryKey[0]}`, { token: server.adminToken, body: {} })).body;
  };

  beforeAll(async () => {
    server = await startTestServer(engine, {}, { adapters: createAdapterRuntime({ replay }, catalogue) });
    await server.context.db.query(
      "insert into connections (company_id, adapter, name, connector_id, config) values (1, 'cmdb-export', 'CMDB', (select id from connectors where company_id = 1 and is_default), '{}')",
    );
  }, 120_000);
  afterAll(() => server.stop());

  it('imports the bundled endoflife.date snapshot when the server first starts', async () => {
    expect(await feed()).toMatchObject({
      name: 'endoflife.date OS lifecycle', status: 'imported', record_count: 545, last_error: '',
      status_detail: 'the snapshot bundled with Cartograph (endoflife.date, 22 August 2026): 545 records read',
    });
  });

  it('gives each device its OS end of life and support at the discovery, queryable and explained on its source', async () => {
    expect(await runDiscoveryAndWait(server)).toMatchObject({ state: 'done' });
    expect(await hostnames('OS.Supported = false')).toEqual(['build-18', 'srv-centos', 'ws-10']);
    expect(await hostnames('OS.Supported = true')).toEqual(['srv-rhel', 'ws-11']);
    expect(await hostnames('NOT OS.Supported = *')).toEqual(['fw-kali']);
    expect(await hostnames('OS.EndOfLife < 2026-01-01')).toEqual(['build-18', 'srv-centos', 'ws-10']);
    expect(await hostnames('OS.EndOfExtendedSupport > 2028-01-01 AND OS.Supported = false')).toEqual(['build-18', 'ws-10']);
    // A regular expression is answered from the documents, not the typed columns: the same devices.
    expect(await hostnames('OS.Supported = false AND Hostname = /^[a-z]/')).toEqual(['build-18', 'srv-centos', 'ws-10']);

    const windows10 = await device('ws-10');
    expect(windows10).toMatchObject({ 'OS.EndOfLife': ['2025-10-14'], 'OS.EndOfSupport': ['2025-10-14'], 'OS.EndOfExtendedSupport': ['2028-10-10'], 'OS.Supported': [false] });
    expect(windows10.sources[0].fields.Normalization).toContainEqual({
      field: 'OS.EndOfLife', raw: 'Windows 10 22H2 Enterprise', value: '2025-10-14', rule: 'os-lifecycle#windows-client', reason: 'from lifecycle feed windows 10-22h2',
    });
    expect(await device('fw-kali')).not.toHaveProperty('OS.Supported');

    const fieldMap = (await server.request('GET', '/configurations/discovery', { token: server.adminToken })).body.field_map;
    expect(fieldMap['OS.EndOfLife']).toMatchObject({ label: 'OS end of life', value_type: 'date' });
    expect(fieldMap['OS.Supported']).toMatchObject({ label: 'OS supported', value_type: 'boolean' });
  }, 120_000);

  it('fails the "Operating system still supported" starter policy for exactly the devices past their end of life', async () => {
    expect((await server.request('POST', '/securitymanager/security-policies/starter', { token: server.adminToken, body: { enable: true } })).status).toBe(200);
    await runDiscoveryAndWait(server);
    const policies = (await server.request('GET', '/securitymanager/security-policies?size=100', { token: server.adminToken })).body.results as { name: string; last_result: { applicable: number; failed: number } }[];
    expect(policies.find((policy) => policy.name === osPolicy.name)?.last_result).toMatchObject({ applicable: 6, failed: 3 });
    expect(await hostnames(`FailedPolicies = "${osPolicy.name}"`)).toEqual(['build-18', 'srv-centos', 'ws-10']);
  }, 120_000);

  it('replaces the products an upload holds, from the next discovery, and refuses a broken file keeping the feed in use', async () => {
    // An API v1 answer for one product replaces that product's cycles only (RHEL 9 moved into the past, to be seen).
    const rhel = snapshot.result.find((product: { name: string }) => product.name === 'rhel');
    const moved = { ...rhel, releases: rhel.releases.filter((release: { name: string }) => release.name === '9').map((release: object) => ({ ...release, isEol: true, eolFrom: '2024-01-31' })) };
    const replaced = await upload('rhel.json', JSON.stringify({ schema_version: '1.2.1', generated_at: snapshot.generated_at, result: moved }));
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body).toMatchObject({ slug: 'endoflife-date', status: 'imported', record_count: 545 - 7 + 1 });
    // An API v0 list names its product by the file's name.
    expect((await upload('ubuntu.json', ubuntuV0)).body).toMatchObject({ status: 'imported', record_count: 545 - 7 + 1 });
    await runDiscoveryAndWait(server);
    expect(await hostnames('OS.Supported = false')).toEqual(['build-18', 'srv-centos', 'srv-rhel', 'ws-10']);

    const broken = await upload('broken.json', JSON.stringify({ result: [{ name: 'ubuntu', releases: [{ name: '22.04', releaseDate: '2022-04-21' }] }] }));
    expect(broken).toMatchObject({ status: 400, body: { file: ['The import of the uploaded file broken.json failed: Cycle 1 (22.04) of ubuntu has neither isEol nor eolFrom. The previous import stays in use.'] } });
    const unnamed = await upload('export (1).json', ubuntuV0);
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.file[0]).toContain('name the file after the product');
    expect(await feed()).toMatchObject({ status: 'failed', record_count: 545 - 7 + 1 });
  }, 120_000);

  it('takes uploads from the provider company\'s feed administrators only', async () => {
    const viewer = await createUserWithGroups(server, server.adminToken, 'lifecycle-viewer', ['Viewers']);
    expect((await upload('ubuntu.json', ubuntuV0, viewer.token)).status).toBe(403);
    const company = await server.request('POST', '/companies/companies', { token: server.adminToken, body: { name: 'Lifecycle tenant' } });
    expect((await server.request('POST', `/companies/companies/${company.body.id}/administrators`, { token: server.adminToken, body: { username: 'lifecycle.tenant', password: userPassword } })).status).toBe(201);
    const tenant = await server.signIn('lifecycle.tenant', userPassword);
    const refused = await upload('ubuntu.json', ubuntuV0, tenant);
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).toContain('only the provider company');
  });
});
