// Certificates a source reports per device (a machine's certificate store, a CSV of certificates per host) are
// installed on that device: they appear in the device's certificates panel (`/certificates/places?device=`) beside
// the ones it serves, and count among the certificate's devices but not its endpoints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueCertificate } from '../support/testCertificates.js';
import { runDiscoveryAndWait } from './discoveryFleet.js';
import { engines, startTestServer, type TestServer } from './harness.js';

const inline = (name: string, records: unknown[]) => ({ source_type: 'upload', file: `data:application/json;name=${name};base64,${Buffer.from(JSON.stringify(records)).toString('base64')}`, file_name: name });

describe.each(engines)('certificates installed on devices on %s', (engine) => {
  let server: TestServer;
  const machine = issueCertificate({ commonName: 'build-07.corp.example' }, null);

  beforeAll(async () => {
    server = await startTestServer(engine);
    const add = (adapter: string, name: string, config: object) =>
      server.context.db.query("insert into connections (company_id, adapter, name, connector_id, config) values (1, $1, $2, (select id from connectors where company_id = 1 and is_default), $3)", [adapter, name, JSON.stringify(config)]);
    await add('jsonfile', 'CMDB', { source: inline('servers.json', [{ id: 'srv-7', hostname: 'build-07', ip: '10.7.0.7', os: 'Linux' }, { id: 'srv-8', hostname: 'build-08', ip: '10.7.0.8', os: 'Linux' }]), entity: 'device', column_map: { id: 'AgentId', ip: 'IpAddresses' } });
    // A certificate store export: the machine certificate of build-07, and a record naming no device at all.
    await add('jsonfile', 'Certificate stores', {
      source: inline('stores.json', [{ hostname: 'build-07', pem: machine.cert }, { hostname: '', pem: issueCertificate({ commonName: 'orphan.corp.example' }, null).cert }]),
      entity: 'certificate', column_map: { hostname: 'Hostname', pem: 'Pem' },
    });
    await runDiscoveryAndWait(server);
  }, 120_000);
  afterAll(() => server.stop());

  it("lists a certificate installed on a device in the device's certificates, and only there", async () => {
    const devices = await server.request('POST', '/devices/devices', { token: server.adminToken, body: { fields: ['Hostname'], ordering: [{ field: 'Hostname' }] } });
    const [build07, build08] = devices.body.results.map((row: { PrimaryKey: string[] }) => row.PrimaryKey[0]);
    const places = await server.request('GET', `/certificates/places?device=${encodeURIComponent(build07)}`, { token: server.adminToken });
    expect(places.status).toBe(200);
    expect(places.body.results).toEqual([expect.objectContaining({ certificate_name: 'build-07.corp.example', host: 'build-07', port: null, installed: true, device_name: 'build-07', adapter: 'jsonfile' })]);
    expect((await server.request('GET', `/certificates/places?device=${encodeURIComponent(build08)}`, { token: server.adminToken })).body.count).toBe(0);

    const list = await server.request('POST', '/certificates/certificates', { token: server.adminToken, body: { fields: ['Name', 'EndpointCount', 'DeviceCount'], ordering: [{ field: 'Name' }] } });
    expect(list.body.results.map((row: Record<string, unknown[]>) => [row.Name[0], row.EndpointCount[0], row.DeviceCount[0]])).toEqual([
      ['build-07.corp.example', 0, 1],
      ['orphan.corp.example', 0, 0],
    ]);
  });
});
