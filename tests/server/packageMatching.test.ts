import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePurl } from '../../src/core/software/packages.js';
import { runDiscoveryAndWait } from './discoveryFleet.js';
import { engines, startTestServer, type TestServer } from './harness.js';
import { nvdFeed, nvdRecords } from './avmFixtures.js';
import { labelledCases, labelledNvdRecords, type Installed } from './packageLabels.js';

// Installed packages matched by their advisories (the OSV feed), not by CPE, on the labelled set of
// tests/server/packageLabels.ts: distribution packages by their distribution's advisories on the device's release (a
// backported fix counting as fixed, and kept with its reason), language packages by GitHub's advisories. The figures
// are computed from the labels and printed; beside them, NVD CPE matching alone on the same installations, its false
// positives being the findings an imported advisory contradicts (it names the CVE for that package, with a fix the
// installation has).

const boundary = '----cartograph-osv-boundary';
const multipart = (name: string, content: Buffer | string) => ({
  body: Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n\r\n`), Buffer.from(content), Buffer.from(`\r\n--${boundary}--\r\n`)]),
  headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
});
const fixtures = new URL('../fixtures/osv/', import.meta.url);
const osvRecords = ['', 'language/', 'distribution/'].flatMap((folder) => readdirSync(new URL(folder, fixtures)).filter((name) => name.endsWith('.json')).map((name) => JSON.parse(readFileSync(new URL(`${folder}${name}`, fixtures), 'utf8'))));
const inline = (name: string, records: unknown[]) => ({ source_type: 'upload', file: `data:application/json;name=${name};base64,${Buffer.from(JSON.stringify(records)).toString('base64')}`, file_name: name });

type Finding = { hostname: string; cve_id: string; sources: { adapter: string; evidence: string | null }[] };
const expected = new Set(labelledCases.flatMap((item) => item.expected.map((cve) => `${item.hostname} ${cve}`)));
const contradicted = new Set(labelledCases.flatMap((item) => item.fixed.map((cve) => `${item.hostname} ${cve}`)));

/** The version an installation's package identity carries: its purl's (with an RPM purl's epoch), else the reported one. */
function shownVersion(installed: Installed): string {
  const purl = installed.purl ? parsePurl(installed.purl) : null;
  if (!purl) return installed.version ?? '';
  return purl.qualifiers.epoch ? `${purl.qualifiers.epoch}:${purl.version}` : purl.version ?? '';
}

const ratio = (part: number, whole: number) => (whole ? part / whole : 1).toFixed(3);

async function findingsOf(server: TestServer, discoveryId: number): Promise<Finding[]> {
  return server.context.db.query<Finding>(
    `select d.fields->'Hostname'->>0 as hostname, f.cve_id, f.sources from snapshot_findings f
       join snapshot_assets d on d.discovery_id = f.discovery_id and d.entity = 'device' and d.asset_id = f.device_asset
      where f.discovery_id = $1 order by 1, 2`,
    [discoveryId],
  );
}

describe.each(engines)('package matching by advisories on %s', (engine) => {
  let server: TestServer;
  let findings: Finding[];
  let fixedPackages: { cve: string; text: string }[];
  const evidence = (hostname: string, cve: string) => findings.find((finding) => finding.hostname === hostname && finding.cve_id === cve)?.sources.find((source) => source.adapter === 'cartograph-avm')?.evidence;

  beforeAll(async () => {
    server = await startTestServer(engine);
    for (const [slug, name, content] of [['nvd-cve', 'nvd.json', JSON.stringify(nvdFeed([...nvdRecords, ...labelledNvdRecords]))], ['osv', 'records.json', JSON.stringify(osvRecords)]] as const) {
      const answer = await server.request('POST', `/avm/enrichments/${slug}/upload`, { token: server.adminToken, ...multipart(name, content) });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    }
    const hosts = labelledCases.map((item, index) => ({ id: `p${index}`, hostname: item.hostname, serial: `PKG-${index}`, os: item.os }));
    const software = labelledCases.map((item, index) => ({ id: `p${index}`, ...item.installed }));
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
    findings = await findingsOf(server, discovery.id);
    const vulnerabilities = await server.context.db.query<{ cve: string; fixed: string[] | null }>(
      "select fields->'CveId'->>0 as cve, array(select jsonb_array_elements_text(fields->'FixedPackages')) as fixed from snapshot_assets where discovery_id = $1 and entity = 'vulnerability'",
      [discovery.id],
    );
    fixedPackages = vulnerabilities.flatMap((row) => (row.fixed ?? []).map((text) => ({ cve: row.cve, text })));
  }, 600_000);
  afterAll(() => server?.stop());

  it(`finds exactly what the advisories say each of the ${labelledCases.length} labelled installations is open to (precision and recall printed)`, () => {
    const predicted = new Set(findings.map((finding) => `${finding.hostname} ${finding.cve_id}`));
    const truePositives = [...predicted].filter((pair) => expected.has(pair)).length;
    console.log(`Package matching (${engine}), ${labelledCases.length} cases: ${expected.size} true findings, ${predicted.size} predicted, precision ${ratio(truePositives, predicted.size)}, recall ${ratio(truePositives, expected.size)}`);
    expect([...predicted].filter((pair) => !expected.has(pair)), 'false positives').toEqual([]);
    expect([...expected].filter((pair) => !predicted.has(pair)), 'missed').toEqual([]);
  });

  it('keeps each installed package the advisories name with a fix it has, with the reason, on the vulnerability (precision and recall printed)', () => {
    // Each note names the installed version; the labels name it by case.
    const noted = new Set(fixedPackages.map(({ cve, text }) => `${cve} ${/installed (.+?) has the fix/.exec(text)?.[1]}`));
    const labelled = new Set(labelledCases.flatMap((item) => item.fixed.map((cve) => `${cve} ${shownVersion(item.installed)}`)));
    const right = [...noted].filter((note) => labelled.has(note)).length;
    console.log(`Fixed packages (${engine}): ${labelled.size} labelled, ${noted.size} noted, precision ${ratio(right, noted.size)}, recall ${ratio(right, labelled.size)}`);
    expect([...noted].filter((note) => !labelled.has(note)), 'noted but not labelled').toEqual([]);
    expect([...labelled].filter((note) => !noted.has(note)), 'labelled but not noted').toEqual([]);
    expect(fixedPackages).toContainEqual({ cve: 'CVE-2024-6387', text: 'Ubuntu USN-6859-1: fixed in 1:8.9p1-3ubuntu0.10; installed 1:8.9p1-3ubuntu0.10 has the fix (openssh on Ubuntu:22.04:LTS). 1 installation.' });
    expect(fixedPackages).toContainEqual({ cve: 'CVE-2024-6387', text: 'Red Hat RHSA-2024:4312: fixed in 0:8.7p1-38.el9_4.1; installed 8.7p1-38.el9_4.1 has the fix (openssh on Red Hat:enterprise_linux:9::baseos). 1 installation.' });
  });

  it('says which advisory decided, its fixed version and the installed one', () => {
    expect(evidence('deb11-a', 'CVE-2021-45105')).toBe('Debian DSA-5024-1: fixed in 2.17.0-1~deb11u1; installed 2.15.0-1~deb11u1 is earlier (apache-log4j2 on Debian:11).');
    expect(evidence('deb10-a', 'CVE-2021-45105')).toBe('Debian DSA-5024-1: fixed in 2.17.0-1~deb10u1; installed 2.16.0-1~deb10u1 is earlier (apache-log4j2 on Debian:10).');
    expect(evidence('alma9-curl-old', 'CVE-2023-46218')).toBe('AlmaLinux ALSA-2024:1129: fixed in 7.76.1-26.el9_3.3; installed 7.76.1-26.el9_3.2 is earlier (curl on AlmaLinux:9).');
    expect(evidence('alma9-openssl-old', 'CVE-2023-5363')).toBe('AlmaLinux ALSA-2024:0310: fixed in 1:3.0.7-25.el9_3; installed 3.0.7-24.el9 is earlier (openssl on AlmaLinux:9).');
    expect(evidence('rhel9-ssh-old', 'CVE-2024-6387')).toBe('Red Hat RHSA-2024:4312: fixed in 0:8.7p1-38.el9_4.1; installed 8.7p1-34.el9 is earlier (openssh on Red Hat:enterprise_linux:9::baseos).');
    expect(evidence('bionic-php-noesm', 'CVE-2025-6491')).toBe('Ubuntu USN-7648-2: fixed in 7.2.24-0ubuntu0.18.04.17+esm9; installed 7.2.24-0ubuntu0.18.04.17 is earlier (php7.2 on Ubuntu:Pro:18.04:LTS).');
    expect(evidence('alpine-libcrypto', 'CVE-2023-5678')).toBeUndefined();
    expect(evidence('alpine-openssl-mid', 'CVE-2023-5678')).toBe('Alpine ALPINE-CVE-2023-5678: fixed in 3.1.4-r1; installed 3.1.4-r0 is earlier (openssl on Alpine:v3.18).');
    expect(evidence('jar-05', 'CVE-2021-44228')).toBe('Maven GHSA-jfh8-c2jp-5v3q: fixed in 2.12.2; installed 2.12.1 is earlier (org.apache.logging.log4j:log4j-core on Maven).');
    expect(evidence('node-04', 'CVE-2023-45133')).toBe('npm GHSA-67hx-6x53-jw92: no fixed version yet; installed 6.26.0 is affected (babel-traverse on npm).');
    expect(evidence('py-03', 'CVE-2024-24762')).toBe('PyPI GHSA-2jv5-9r88-3w3p: fixed in 0.0.7; installed 0.0.6 is earlier (python-multipart on PyPI).');
    expect(evidence('app-01', 'CVE-2021-45105')).toMatch(/^log4j-core 2\.16\.0 matches cpe:2\.3:a:apache:log4j/);
  });

  it('beside it, says what NVD CPE matching alone gives on the same installations (printed): the backports it reports, the packages it cannot name', async () => {
    // The OSV feed taken away: every installation goes to the CPE matcher, as before this feed existed.
    await server.context.db.query('delete from avm_osv_packages');
    await server.context.db.query('delete from avm_osv_advisories');
    await server.context.db.query("delete from avm_imports where slug = 'osv'");
    const discovery = await runDiscoveryAndWait(server);
    const predicted = new Set((await findingsOf(server, discovery.id)).map((finding) => `${finding.hostname} ${finding.cve_id}`));
    const truePositives = [...predicted].filter((pair) => expected.has(pair));
    const falsePositives = [...predicted].filter((pair) => contradicted.has(pair));
    const unlabelled = [...predicted].filter((pair) => !expected.has(pair) && !contradicted.has(pair));
    const missed = [...expected].filter((pair) => !predicted.has(pair));
    console.log(
      `NVD CPE matching alone (${engine}), same ${labelledCases.length} cases: ${predicted.size} predicted, ${truePositives.length} true, precision ${ratio(truePositives.length, truePositives.length + falsePositives.length)}, recall ${ratio(truePositives.length, expected.size)}; `
      + `false positives (an imported advisory says the installed package has the fix): ${JSON.stringify(falsePositives)}; findings no imported advisory decides: ${JSON.stringify(unlabelled)}; missed: ${missed.length}`,
    );
    expect(missed.length).toBeGreaterThan(expected.size / 2);
  });
});
