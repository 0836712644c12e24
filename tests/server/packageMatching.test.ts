import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDiscoveryAndWait } from './discoveryFleet.js';
import { engines, startTestServer, type TestServer } from './harness.js';
import { nvdFeed, nvdRecords } from './avmFixtures.js';

// Installed packages matched by their advisories (the OSV feed), not by CPE: Debian packages by Debian's DSAs on the
// device's release (a backported fix counting as fixed), a Maven package by GitHub's advisory; the reason names the
// advisory and the fixed version. Packages of an ecosystem the advisories cover are left out of CPE matching, which
// still matches the rest.

const boundary = '----cartograph-osv-boundary';
const multipart = (name: string, content: Buffer | string) => ({
  body: Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n\r\n`), Buffer.from(content), Buffer.from(`\r\n--${boundary}--\r\n`)]),
  headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
});
const fixtures = new URL('../fixtures/osv/', import.meta.url);
const osvRecords = ['', 'language/'].flatMap((folder) => readdirSync(new URL(folder, fixtures)).filter((name) => name.endsWith('.json')).map((name) => JSON.parse(readFileSync(new URL(`${folder}${name}`, fixtures), 'utf8'))));
const inline = (name: string, records: unknown[]) => ({ source_type: 'upload', file: `data:application/json;name=${name};base64,${Buffer.from(JSON.stringify(records)).toString('base64')}`, file_name: name });

type Installed = { name: string; version: string; type?: string; source?: string; purl?: string; vendor?: string };
/**
 * Devices labelled with what the advisories imported here say they are open to (DSA-5020-1, 5022-1, 5024-1;
 * GHSA-jfh8-c2jp-5v3q, GHSA-67hx-6x53-jw92, GHSA-h5c8-rqwp-cp95): the labels are those advisories' verdicts, not
 * every CVE the packages have (log4j-core 2.15.0 is open to CVE-2021-45046 through GHSA-7rjr-3q55-vv33, not imported).
 */
const devices: { hostname: string; os: string; installed: Installed[]; expected: string[] }[] = [
  // 2.15.0-1~deb11u1 is DSA-5020-1's fix for CVE-2021-44228 (a backport: NVD's range says < 2.15.0 upstream); 5022-1 and 5024-1 fixed later.
  { hostname: 'deb11-a', os: 'Debian GNU/Linux 11 (bullseye)', installed: [{ name: 'liblog4j2-java', version: '2.15.0-1~deb11u1', type: 'deb_packages', source: 'apache-log4j2' }], expected: ['CVE-2021-45046', 'CVE-2021-45105'] },
  { hostname: 'deb11-b', os: 'Debian GNU/Linux 11 (bullseye)', installed: [{ name: 'liblog4j2-java', version: '2.17.0-1~deb11u1', type: 'deb_packages', source: 'apache-log4j2' }], expected: [] },
  { hostname: 'deb11-c', os: 'Debian GNU/Linux 11 (bullseye)', installed: [{ name: 'liblog4j2-java', version: '2.11.1-2', purl: 'pkg:deb/debian/liblog4j2-java@2.11.1-2?arch=all&distro=debian-11&upstream=apache-log4j2' }], expected: ['CVE-2021-44228', 'CVE-2021-45046', 'CVE-2021-45105'] },
  // The buster fixes are ~deb10u1: a bullseye version number does not decide for buster.
  { hostname: 'deb10-a', os: 'Debian GNU/Linux 10 (buster)', installed: [{ name: 'liblog4j2-java', version: '2.16.0-1~deb10u1', type: 'deb_packages', source: 'apache-log4j2' }], expected: ['CVE-2021-45105'] },
  { hostname: 'jar-01', os: 'Ubuntu 22.04.3 LTS', installed: [{ name: 'log4j-core', version: '2.14.1', purl: 'pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1', vendor: 'Apache Software Foundation' }], expected: ['CVE-2021-44228'] },
  { hostname: 'jar-02', os: 'Ubuntu 22.04.3 LTS', installed: [{ name: 'log4j-core', version: '2.15.0', purl: 'pkg:maven/org.apache.logging.log4j/log4j-core@2.15.0', vendor: 'Apache Software Foundation' }], expected: [] },
  // npm: a scoped package, a pre-release range of the next major, a package with no fix at all.
  { hostname: 'node-01', os: 'Ubuntu 22.04.3 LTS', installed: [{ name: '@babel/traverse', version: '7.22.5', purl: 'pkg:npm/%40babel/traverse@7.22.5' }], expected: ['CVE-2023-45133'] },
  { hostname: 'node-02', os: 'Ubuntu 22.04.3 LTS', installed: [{ name: '@babel/traverse', version: '7.23.2', purl: 'pkg:npm/%40babel/traverse@7.23.2' }], expected: [] },
  { hostname: 'node-03', os: 'Ubuntu 22.04.3 LTS', installed: [{ name: '@babel/traverse', version: '8.0.0-alpha.2', type: 'npm_packages' }], expected: ['CVE-2023-45133'] },
  { hostname: 'node-04', os: 'Ubuntu 22.04.3 LTS', installed: [{ name: 'babel-traverse', version: '6.26.0', type: 'npm_packages' }], expected: ['CVE-2023-45133'] },
  // PyPI: osquery's python_packages writes the distribution's own spelling; the advisory names the normalized one.
  { hostname: 'py-01', os: 'Debian GNU/Linux 12 (bookworm)', installed: [{ name: 'Jinja2', version: '3.1.2', type: 'python_packages' }], expected: ['CVE-2024-22195'] },
  { hostname: 'py-02', os: 'Debian GNU/Linux 12 (bookworm)', installed: [{ name: 'Jinja2', version: '3.1.3', type: 'python_packages' }], expected: [] },
  // No package identity: the CPE matcher decides, as before.
  { hostname: 'app-01', os: 'Ubuntu 22.04.3 LTS', installed: [{ name: 'log4j-core', version: '2.16.0', vendor: 'Apache Software Foundation' }], expected: ['CVE-2021-45105', 'CVE-2021-44832'] },
];

type Finding = { hostname: string; cve_id: string; sources: { adapter: string; evidence: string | null }[] };

describe.each(engines)('package matching by advisories on %s', (engine) => {
  let server: TestServer;
  let findings: Finding[];
  const evidence = (hostname: string, cve: string) => findings.find((finding) => finding.hostname === hostname && finding.cve_id === cve)?.sources.find((source) => source.adapter === 'cartograph-avm')?.evidence;

  beforeAll(async () => {
    server = await startTestServer(engine);
    for (const [slug, name, content] of [['nvd-cve', 'nvd.json', JSON.stringify(nvdFeed(nvdRecords))], ['osv', 'records.json', JSON.stringify(osvRecords)]] as const) {
      const answer = await server.request('POST', `/avm/enrichments/${slug}/upload`, { token: server.adminToken, ...multipart(name, content) });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    }
    const hosts = devices.map((device, index) => ({ id: `p${index}`, hostname: device.hostname, serial: `PKG-${index}`, os: device.os }));
    const software = devices.flatMap((device, index) => device.installed.map((installed) => ({ id: `p${index}`, ...installed })));
    const connections = [
      { name: 'Hosts', config: { source: inline('hosts.json', hosts), entity: 'device', column_map: { id: 'AgentId', serial: 'SerialNumber', os: 'OS.FullOsString' } } },
      { name: 'Packages', config: { source: inline('packages.json', software), entity: 'software', column_map: { id: 'AgentId', name: 'SoftwareName', vendor: 'SoftwareVendor', version: 'SoftwareVersion', type: 'SoftwarePackageType', source: 'SoftwareSourcePackage', purl: 'SoftwarePurl' } } },
    ];
    for (const connection of connections) {
      await server.context.db.query(
        "insert into connections (company_id, adapter, name, connector_id, config) values (1, 'jsonfile', $1, (select id from connectors where company_id = 1 and is_default), $2)",
        [connection.name, JSON.stringify(connection.config)],
      );
    }
    const discovery = await runDiscoveryAndWait(server);
    findings = await server.context.db.query<Finding>(
      `select d.fields->'Hostname'->>0 as hostname, f.cve_id, f.sources from snapshot_findings f
         join snapshot_assets d on d.discovery_id = f.discovery_id and d.entity = 'device' and d.asset_id = f.device_asset
        where f.discovery_id = $1 order by 1, 2`,
      [discovery.id],
    );
  }, 600_000);
  afterAll(() => server?.stop());

  it('finds exactly what the advisories say each installed package is open to (precision and recall printed)', () => {
    const expected = new Set(devices.flatMap((device) => device.expected.map((cve) => `${device.hostname} ${cve}`)));
    const predicted = new Set(findings.map((finding) => `${finding.hostname} ${finding.cve_id}`));
    const truePositives = [...predicted].filter((pair) => expected.has(pair)).length;
    console.log(`Package matching (${engine}): ${expected.size} true findings, ${predicted.size} predicted, precision ${(truePositives / predicted.size).toFixed(3)}, recall ${(truePositives / expected.size).toFixed(3)}`);
    expect([...predicted].filter((pair) => !expected.has(pair)), 'false positives').toEqual([]);
    expect([...expected].filter((pair) => !predicted.has(pair)), 'missed').toEqual([]);
  });

  it('says which advisory decided, its fixed version and the installed one', () => {
    expect(evidence('deb11-a', 'CVE-2021-45105')).toBe('Debian DSA-5024-1: fixed in 2.17.0-1~deb11u1; installed 2.15.0-1~deb11u1 is earlier (apache-log4j2 on Debian:11).');
    expect(evidence('deb10-a', 'CVE-2021-45105')).toBe('Debian DSA-5024-1: fixed in 2.17.0-1~deb10u1; installed 2.16.0-1~deb10u1 is earlier (apache-log4j2 on Debian:10).');
    expect(evidence('jar-01', 'CVE-2021-44228')).toBe('Maven GHSA-jfh8-c2jp-5v3q: fixed in 2.15.0; installed 2.14.1 is earlier (org.apache.logging.log4j:log4j-core on Maven).');
    expect(evidence('node-04', 'CVE-2023-45133')).toBe('npm GHSA-67hx-6x53-jw92: no fixed version yet; installed 6.26.0 is affected (babel-traverse on npm).');
    expect(evidence('py-01', 'CVE-2024-22195')).toBe('PyPI GHSA-h5c8-rqwp-cp95: fixed in 3.1.3; installed 3.1.2 is earlier (jinja2 on PyPI).');
    expect(evidence('app-01', 'CVE-2021-45105')).toMatch(/^log4j-core 2\.16\.0 matches cpe:2\.3:a:apache:log4j/);
  });

  it('beside it, says what NVD CPE matching alone gives on the same installations (printed), missing what only the advisories name', async () => {
    // The OSV feed taken away: every installation goes to the CPE matcher, as before this feed existed.
    await server.context.db.query('delete from avm_osv_packages');
    await server.context.db.query('delete from avm_osv_advisories');
    await server.context.db.query("delete from avm_imports where slug = 'osv'");
    const discovery = await runDiscoveryAndWait(server);
    const nvdOnly = await server.context.db.query<Finding>(
      `select d.fields->'Hostname'->>0 as hostname, f.cve_id, f.sources from snapshot_findings f
         join snapshot_assets d on d.discovery_id = f.discovery_id and d.entity = 'device' and d.asset_id = f.device_asset
        where f.discovery_id = $1 order by 1, 2`,
      [discovery.id],
    );
    const expected = new Set(devices.flatMap((device) => device.expected.map((cve) => `${device.hostname} ${cve}`)));
    const predicted = new Set(nvdOnly.map((finding) => `${finding.hostname} ${finding.cve_id}`));
    const falsePositives = [...predicted].filter((pair) => !expected.has(pair));
    const missed = [...expected].filter((pair) => !predicted.has(pair));
    const truePositives = predicted.size - falsePositives.length;
    console.log(`NVD CPE matching alone (${engine}): ${predicted.size} predicted, precision ${(truePositives / Math.max(predicted.size, 1)).toFixed(3)}, recall ${(truePositives / expected.size).toFixed(3)}; false positives against the advisories: ${JSON.stringify(falsePositives)}; missed: ${missed.length}`);
    // A distribution package is named by its distribution only: CPE has no product for liblog4j2-java.
    expect(missed).toEqual(expect.arrayContaining(['deb11-a CVE-2021-45046', 'deb10-a CVE-2021-45105', 'py-01 CVE-2024-22195']));
  });
});
