import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageIdentity } from '../../src/core/software/packages.js';
import { fetchEngines } from '../../src/server/adapters/engines.js';
import { createFileEngines } from '../../src/server/adapters/files/fileEngines.js';
import { createAdapterRuntime } from '../../src/server/adapters/runtime.js';
import { sbomMaximumBytes } from '../../src/server/adapters/sbom/sbomDocument.js';
import { nvdFeed, nvdRecords } from './avmFixtures.js';
import { runDiscoveryAndWait } from './discoveryFleet.js';
import { engines, startTestServer, type TestServer } from './harness.js';

// A discovery from SBOMs uploaded to SBOM connections, as syft and trivy write them: each image becomes a device with
// its OS, each package installed software on it with its purl, the purl gives the installation its package identity,
// and log4j-core 2.14.1 named by its Maven purl is matched by GitHub's advisory (the OSV feed), not by CPE. Uploads
// that are not SBOMs, or too large, are refused with the reason, and leave nothing behind.

const boundary = '----cartograph-sbom-boundary';
const multipart = (name: string, content: Buffer | string) => ({
  body: Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/json\r\n\r\n`), Buffer.from(content), Buffer.from(`\r\n--${boundary}--\r\n`)]),
  headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
});
const fixture = (name: string) => readFileSync(new URL(`../../schemas/adapters/sbom/fixtures/${name}`, import.meta.url));
const osvFolder = new URL('../fixtures/osv/', import.meta.url);
const osvRecords = ['', 'language/'].flatMap((folder) => readdirSync(new URL(folder, osvFolder)).filter((name) => name.endsWith('.json')).map((name) => JSON.parse(readFileSync(new URL(`${folder}${name}`, osvFolder), 'utf8'))));

const payments = 'registry.corp.example.com/payments/api:2.3.1';
type Finding = { hostname: string; cve_id: string; sources: { adapter: string; evidence: string | null }[] };

describe.each(engines)('a discovery from uploaded SBOMs on %s', (engine) => {
  let server: TestServer;
  let dataDir: string;
  let discoveryId: number;
  let progress: { id: number; state: string; records: number; warnings: string[] }[];
  const connections: Record<string, number> = {};

  const upload = (id: number, name: string, content: Buffer | string) => server.request('POST', `/adapters/connections/${id}/file`, { token: server.adminToken, ...multipart(name, content) });
  const createConnection = async (name: string) => {
    const answer = await server.request('POST', '/adapters/connections', { token: server.adminToken, body: { adapter: 'sbom', name, option_connections: [{ name: 'source', typed_value: { source_type: 'upload' } }] } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.id as number;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cartograph-sbom-'));
    server = await startTestServer(engine, {}, { adapters: createAdapterRuntime({ ...fetchEngines, ...createFileEngines({ dataDir, importRoots: [] }) }), dataDir });
    for (const [slug, name, content] of [['nvd-cve', 'nvd.json', JSON.stringify(nvdFeed(nvdRecords))], ['osv', 'records.json', JSON.stringify(osvRecords)]] as const) {
      const answer = await server.request('POST', `/avm/enrichments/${slug}/upload`, { token: server.adminToken, ...multipart(name, content) });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    }
    connections.syft = await createConnection('Payments API image (syft)');
    connections.trivy = await createConnection('nginx image (trivy)');
    for (const [key, file] of [['syft', 'syft-payments-api.cdx.json'], ['trivy', 'trivy-nginx.spdx.json']]) {
      const answer = await upload(connections[key], file, fixture(file));
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    }
    const discovery = await runDiscoveryAndWait(server);
    discoveryId = discovery.id;
    progress = discovery.progress.connections;
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses uploads that are not SBOMs, or larger than an SBOM may be, saying why, and keeps no file of them', async () => {
    const before = readdirSync(join(dataDir, 'uploads')).sort();
    const refused = async (name: string, content: Buffer | string) => (await upload(connections.syft, name, content)).body;
    expect(await refused('report.json', fixture('trivy-report.json'))).toEqual({ file: ['The file is a trivy JSON report, not an SBOM: run trivy with --format cyclonedx or --format spdx-json.'] });
    expect(await refused('sbom.json', '{"bomFormat": "CycloneDX", "specVersion": "1.6", "components": [')).toEqual({ file: [expect.stringMatching(/^The file is not JSON: /)] });
    expect(await refused('bom.xml', '<?xml version="1.0"?><bom xmlns="http://cyclonedx.org/schema/bom/1.6"/>')).toEqual({ file: ['The file is not a CycloneDX or SPDX JSON SBOM: its content was checked, whatever its name says.'] });
    expect(await refused('sbom.json', '{"spdxVersion": "SPDX-2.3", "packages": "curl"}')).toEqual({ file: ['The file: The SPDX document\'s packages is not a list.'] });
    const huge = await upload(connections.syft, 'huge.json', Buffer.alloc(sbomMaximumBytes + 1024, 0x20));
    expect(huge).toMatchObject({ status: 413, body: { detail: 'The file is larger than the upload limit of 64 MB.' } });
    expect(readdirSync(join(dataDir, 'uploads')).sort()).toEqual(before);
    // The connection still reads the SBOM it had.
    expect((await server.request('POST', `/adapters/test/${connections.syft}`, { token: server.adminToken })).body).toEqual({
      success: true, detail: 'syft-payments-api.cdx.json can be read: CycloneDX 1.6 by syft 1.0.1: image registry.corp.example.com/payments/api:2.3.1, 7 packages.',
    });
  });

  it('fetches each SBOM, with the SBOM\'s own warning on its connection', () => {
    expect(progress.find((item) => item.id === connections.syft)).toMatchObject({ state: 'warning', records: 8, by_entity: { device: 1, software: 7 }, warnings: ['syft-payments-api.cdx.json: 1 component without a name was skipped.'] });
    expect(progress.find((item) => item.id === connections.trivy), JSON.stringify(progress)).toMatchObject({ state: 'done', records: 7, warnings: [] });
  });

  it('makes each image a device, with its digest, its category and the OS its SBOM names', async () => {
    const devices = await server.request('POST', '/devices/devices', { token: server.adminToken, body: { query: 'Adapters = sbom', fields: ['Hostname', 'AgentId', 'Category', 'OS.Distribution', 'OS.Version'], ordering: [{ field: 'Hostname' }] } });
    expect(devices.body.results.map((row: Record<string, unknown[]>) => [row.Hostname?.[0], row.AgentId?.[0], row.Category?.[0], row['OS.Distribution']?.[0], row['OS.Version']?.[0]])).toEqual([
      ['nginx:1.25.3', 'sha256:0e11c0e6053c8999215d30ec730be2a06a8abd116517cd6a197195e925145adc', 'Container image', 'Debian', '12.4'],
      [payments, 'sha256:334dfe0816e41484c2c88407ea3ee2eb3f06e2fd030e43c5ef7547cc3861e97a', 'Container image', 'Alpine Linux', '3.19'],
    ]);
  });

  it('installs every package on its image, and each purl gives the installation its package identity', async () => {
    const device = (await server.request('POST', '/devices/devices', { token: server.adminToken, body: { query: `Hostname = "${payments}"`, fields: ['Hostname'] } })).body.results[0].PrimaryKey[0];
    const installed = await server.request('GET', `/appinventory/installations?device=${device}&size=100`, { token: server.adminToken });
    expect(installed.body.results.map((row: { software_name: string; version: string; adapters: string[] }) => [row.software_name, row.version, row.adapters])).toEqual([
      ['busybox', '1.36.1-r15', ['sbom']], ['libcrypto3', '3.1.4-r5', ['sbom']], ['libssl3', '3.1.4-r5', ['sbom']], ['log4j-api', '2.14.1', ['sbom']],
      ['log4j-core', '2.14.1', ['sbom']], ['musl', '1.2.4_git20230717-r4', ['sbom']], ['zlib', '1.3.1-r0', ['sbom']],
    ]);
    // What package matching reads: each software record's purl (and source package) with its device's OS.
    const records = await server.context.db.query<{ name: string; purl: string; source: string | null; distribution: string; version: string }>(
      `select r.fields::jsonb->'SoftwareName'->>0 as name, r.fields::jsonb->'SoftwarePurl'->>0 as purl, r.fields::jsonb->'SoftwareSourcePackage'->>0 as source,
              d.fields->'OS.Distribution'->>0 as distribution, d.fields->'OS.Version'->>0 as version
         from snapshot_records r
         join snapshot_assets d on d.discovery_id = r.discovery_id and d.entity = 'device' and r.fields::jsonb->'DeviceId'->>0 = d.fields->'AgentId'->>0
        where r.discovery_id = $1 and r.entity = 'software' order by 1, 2`,
      [discoveryId],
    );
    const identity = (name: string) => {
      const record = records.find((row) => row.name === name)!;
      return packageIdentity({ purl: record.purl, sourcePackage: record.source, os: { distribution: record.distribution, version: record.version } });
    };
    expect(records).toHaveLength(13);
    expect(identity('log4j-core')).toEqual({ ecosystem: 'Maven', name: 'org.apache.logging.log4j:log4j-core', version: '2.14.1' });
    expect(identity('libcrypto3')).toEqual({ ecosystem: 'Alpine:v3.19', name: 'openssl', version: '3.1.4-r5' });
    expect(identity('libcurl4')).toEqual({ ecosystem: 'Debian:12', name: 'curl', version: '7.88.1-10+deb12u5' });
    expect(identity('zlib1g')).toEqual({ ecosystem: 'Debian:12', name: 'zlib', version: '1:1.2.13.dfsg-1' });
  });

  it('matches log4j-core 2.14.1 named by its Maven purl by GitHub\'s advisories (the three Log4Shell CVEs it is earlier than the fix of), and nothing the advisories do not name', async () => {
    const findings = await server.context.db.query<Finding>(
      `select d.fields->'Hostname'->>0 as hostname, f.cve_id, f.sources from snapshot_findings f
         join snapshot_assets d on d.discovery_id = f.discovery_id and d.entity = 'device' and d.asset_id = f.device_asset
        where f.discovery_id = $1 order by 1, 2`,
      [discoveryId],
    );
    expect(findings.map((finding) => [finding.hostname, finding.cve_id])).toEqual([[payments, 'CVE-2021-44228'], [payments, 'CVE-2021-45046'], [payments, 'CVE-2021-45105']]);
    expect(findings[0].sources.find((source) => source.adapter === 'cartograph-avm')?.evidence).toBe('Maven GHSA-jfh8-c2jp-5v3q: fixed in 2.15.0; installed 2.14.1 is earlier (org.apache.logging.log4j:log4j-core on Maven).');
  });
});
