import type { Queryable } from '../../src/server/db/database.js';

// The labelled test set of Cartograph's own vulnerability matching: real CVEs in NVD's CVE JSON 2.0 shape, their
// configurations (CPE criteria and version bounds), CVSS vectors and CWEs transcribed from NVD's public records
// (descriptions shortened; for CVEs NVD also lists third-party products under, such as Log4Shell, only the
// upstream product's configuration is kept), and an estate of devices whose installations are labelled with the
// CVEs NVD says they have. Everything not labelled is a true negative: together they give precision and recall.

type Match = { criteria: string; start?: string; startExcl?: string; end?: string; endExcl?: string; vulnerable?: boolean };

const cpeMatch = (matches: Match[]) => matches.map((match) => ({
  vulnerable: match.vulnerable ?? true,
  criteria: match.criteria,
  ...(match.start && { versionStartIncluding: match.start }),
  ...(match.startExcl && { versionStartExcluding: match.startExcl }),
  ...(match.end && { versionEndIncluding: match.end }),
  ...(match.endExcl && { versionEndExcluding: match.endExcl }),
  matchCriteriaId: '00000000-0000-0000-0000-000000000000',
}));

export function nvdRecord(id: string, published: string, description: string, vector: string, cwes: string[], matches: Match[]) {
  return {
    cve: {
      id, sourceIdentifier: 'cve@mitre.org', published, lastModified: published, vulnStatus: 'Analyzed',
      descriptions: [{ lang: 'en', value: description }, { lang: 'es', value: '(traducción)' }],
      metrics: { cvssMetricV31: [{ source: 'nvd@nist.gov', type: 'Primary', cvssData: { version: '3.1', vectorString: vector } }] },
      weaknesses: [{ source: 'nvd@nist.gov', type: 'Primary', description: cwes.map((value) => ({ lang: 'en', value })) }],
      configurations: [{ nodes: [{ operator: 'OR', negate: false, cpeMatch: cpeMatch(matches) }] }],
      references: [{ url: `https://nvd.nist.gov/vuln/detail/${id}` }],
    },
  };
}

const log4j = 'cpe:2.3:a:apache:log4j:*:*:*:*:*:*:*:*';
const log4jBetas = ['beta9', 'rc1', 'rc2'].map((update) => ({ criteria: `cpe:2.3:a:apache:log4j:2.0:${update}:*:*:*:*:*:*` }));
const openssl = 'cpe:2.3:a:openssl:openssl:*:*:*:*:*:*:*:*';
const chrome = 'cpe:2.3:a:google:chrome:*:*:*:*:*:*:*:*';

export const nvdRecords = [
  nvdRecord('CVE-2021-44228', '2021-12-10T10:15:09.143', 'Apache Log4j2 JNDI features do not protect against attacker controlled LDAP and other JNDI related endpoints (Log4Shell).',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H', ['CWE-917', 'CWE-502'],
    [{ criteria: log4j, start: '2.0.1', endExcl: '2.3.1' }, { criteria: log4j, start: '2.4.0', endExcl: '2.12.2' }, { criteria: log4j, start: '2.13.0', endExcl: '2.15.0' }, ...log4jBetas]),
  nvdRecord('CVE-2021-45046', '2021-12-14T19:15:07.733', 'The fix to address CVE-2021-44228 in Apache Log4j 2.15.0 was incomplete in certain non-default configurations.',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:C/C:H/I:H/A:H', ['CWE-917'],
    [{ criteria: log4j, start: '2.0.1', endExcl: '2.3.1' }, { criteria: log4j, start: '2.4.0', endExcl: '2.12.2' }, { criteria: log4j, start: '2.13.0', endExcl: '2.16.0' }, ...log4jBetas]),
  nvdRecord('CVE-2021-45105', '2021-12-18T12:15:07.433', 'Apache Log4j2 versions 2.0-alpha1 through 2.16.0 did not protect from uncontrolled recursion from self-referential lookups.',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:N/I:N/A:H', ['CWE-20', 'CWE-674'],
    [{ criteria: log4j, start: '2.0.1', endExcl: '2.3.1' }, { criteria: log4j, start: '2.4.0', endExcl: '2.12.3' }, { criteria: log4j, start: '2.13.0', endExcl: '2.17.0' }, ...log4jBetas]),
  nvdRecord('CVE-2021-44832', '2021-12-28T20:15:08.400', 'Apache Log4j2 versions 2.0-beta7 through 2.17.0 are vulnerable to a remote code execution attack through a JDBC Appender configuration.',
    'CVSS:3.1/AV:N/AC:H/PR:H/UI:N/S:U/C:H/I:H/A:H', ['CWE-20', 'CWE-74'],
    [{ criteria: log4j, start: '2.0.1', endExcl: '2.3.2' }, { criteria: log4j, start: '2.4.0', endExcl: '2.12.4' }, { criteria: log4j, start: '2.13.0', endExcl: '2.17.1' }, ...log4jBetas]),
  nvdRecord('CVE-2022-3602', '2022-11-01T18:15:11.880', 'A buffer overrun can be triggered in X.509 certificate verification, specifically in name constraint checking (OpenSSL 3.0.0 to 3.0.6).',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', ['CWE-787'], [{ criteria: openssl, start: '3.0.0', endExcl: '3.0.7' }]),
  nvdRecord('CVE-2022-3786', '2022-11-01T18:15:12.050', 'A buffer overrun can be triggered in X.509 certificate verification via a malicious email address in a certificate (OpenSSL 3.0.0 to 3.0.6).',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H', ['CWE-120'], [{ criteria: openssl, start: '3.0.0', endExcl: '3.0.7' }]),
  nvdRecord('CVE-2023-38408', '2023-07-20T03:15:10.170', 'The PKCS#11 feature in ssh-agent in OpenSSH before 9.3p2 has an insufficiently trustworthy search path.',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', ['CWE-428'],
    [{ criteria: 'cpe:2.3:a:openbsd:openssh:*:*:*:*:*:*:*:*', endExcl: '9.3' }, { criteria: 'cpe:2.3:a:openbsd:openssh:9.3:-:*:*:*:*:*:*' }, { criteria: 'cpe:2.3:a:openbsd:openssh:9.3:p1:*:*:*:*:*:*' }]),
  nvdRecord('CVE-2024-3094', '2024-03-29T17:15:21.150', 'Malicious code was discovered in the upstream tarballs of xz, starting with version 5.6.0.',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H', ['CWE-506'],
    [{ criteria: 'cpe:2.3:a:tukaani:xz:5.6.0:*:*:*:*:*:*:*' }, { criteria: 'cpe:2.3:a:tukaani:xz:5.6.1:*:*:*:*:*:*:*' }]),
  nvdRecord('CVE-2023-7024', '2023-12-21T23:15:11.213', 'Heap buffer overflow in WebRTC in Google Chrome prior to 120.0.6099.129.',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:H/I:H/A:H', ['CWE-787'], [{ criteria: chrome, endExcl: '120.0.6099.129' }]),
  nvdRecord('CVE-2023-6345', '2023-11-29T12:15:07.077', 'Integer overflow in Skia in Google Chrome prior to 119.0.6045.199.',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:H/I:H/A:H', ['CWE-190'], [{ criteria: chrome, endExcl: '119.0.6045.199' }]),
  nvdRecord('CVE-2024-21412', '2024-02-13T18:15:48.577', 'Internet Shortcut Files Security Feature Bypass Vulnerability.',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:H/I:H/A:N', ['NVD-CWE-noinfo'],
    [
      { criteria: 'cpe:2.3:o:microsoft:windows_10_22h2:*:*:*:*:*:*:x64:*', endExcl: '10.0.19045.4046' },
      { criteria: 'cpe:2.3:o:microsoft:windows_11_23h2:*:*:*:*:*:*:x64:*', endExcl: '10.0.22631.3155' },
      { criteria: 'cpe:2.3:o:microsoft:windows_server_2022:*:*:*:*:*:*:*:*', endExcl: '10.0.20348.2322' },
    ]),
];

/** An NVD feed file (as `nvdcve-2.0-*.json`) holding the given records. */
export const nvdFeed = (records: unknown[]) => ({
  resultsPerPage: records.length, startIndex: 0, totalResults: records.length, format: 'NVD_CVE', version: '2.0', timestamp: '2026-11-24T03:00:01.000', vulnerabilities: records,
});

/** A FIRST EPSS CSV (its real layout; the scores are the sample's, not FIRST's figures of a given day). */
export const epssCsv = [
  '#model_version:v2025.03.14,score_date:2026-11-24T12:55:00Z',
  'cve,epss,percentile',
  'CVE-2021-44228,0.94358,0.99957',
  'CVE-2021-45046,0.94001,0.99914',
  'CVE-2023-7024,0.17000,0.94500',
  'CVE-2022-3602,0.81000,0.99100',
  '',
].join('\n');

type Installation = { name: string; vendor: string | null; version: string };

/** The labelled estate: each device's installations and the CVEs NVD's records say it has. */
export const labelledDevices: { hostname: string; installations: Installation[]; expected: string[] }[] = [
  { hostname: 'app-01', installations: [{ name: 'log4j-core', vendor: 'Apache Software Foundation', version: '2.14.1' }], expected: ['CVE-2021-44228', 'CVE-2021-45046', 'CVE-2021-45105', 'CVE-2021-44832'] },
  { hostname: 'app-02', installations: [{ name: 'log4j-core', vendor: 'Apache Software Foundation', version: '2.16.0' }], expected: ['CVE-2021-45105', 'CVE-2021-44832'] },
  { hostname: 'app-03', installations: [{ name: 'log4j-core', vendor: 'Apache Software Foundation', version: '2.17.1' }], expected: [] },
  { hostname: 'app-04', installations: [{ name: 'log4j-core', vendor: null, version: '2.17.0' }, { name: 'log4j-api', vendor: null, version: '2.0-beta9' }], expected: ['CVE-2021-44832', 'CVE-2021-44228', 'CVE-2021-45046', 'CVE-2021-45105'] },
  { hostname: 'web-01', installations: [{ name: 'OpenSSL', vendor: 'OpenSSL Project', version: '3.0.6' }], expected: ['CVE-2022-3602', 'CVE-2022-3786'] },
  { hostname: 'web-02', installations: [{ name: 'OpenSSL', vendor: 'OpenSSL Project', version: '3.0.7' }, { name: 'openssl', vendor: null, version: '1.1.1w' }], expected: [] },
  {
    hostname: 'deb-01',
    installations: [{ name: 'libssl3', vendor: 'Debian', version: '3.0.5-4' }, { name: 'openssh-client', vendor: 'Debian', version: '1:9.2p1-2+deb12u1' }, { name: 'xz-utils', vendor: 'Debian', version: '5.6.1-1' }],
    expected: ['CVE-2022-3602', 'CVE-2022-3786', 'CVE-2023-38408', 'CVE-2024-3094'],
  },
  {
    hostname: 'deb-02',
    installations: [{ name: 'openssh-client', vendor: 'Debian', version: '1:9.6p1-3' }, { name: 'xz-utils', vendor: 'Debian', version: '5.6.1+really5.4.5-1' }, { name: 'libssl3', vendor: 'Debian', version: '3.0.11-1~deb12u2' }],
    expected: [],
  },
  {
    hostname: 'ws-01',
    installations: [{ name: 'Google Chrome', vendor: 'Google LLC', version: '120.0.6099.71' }, { name: 'Microsoft Windows 10 Enterprise 22H2', vendor: 'Microsoft Corporation', version: '10.0.19045.3930' }],
    expected: ['CVE-2023-7024', 'CVE-2024-21412'],
  },
  {
    hostname: 'ws-02',
    installations: [{ name: 'Google Chrome (x64)', vendor: 'Google Inc.', version: '120.0.6099.130' }, { name: 'Microsoft Windows 10 Enterprise 22H2', vendor: 'Microsoft Corporation', version: '10.0.19045.4046' }],
    expected: [],
  },
  {
    hostname: 'ws-03',
    installations: [{ name: 'Chrome', vendor: 'Google', version: '119.0.6045.159' }, { name: 'Windows 11 Pro 23H2', vendor: 'Microsoft', version: '10.0.22631.3007' }],
    expected: ['CVE-2023-7024', 'CVE-2023-6345', 'CVE-2024-21412'],
  },
  {
    hostname: 'ws-04',
    installations: [{ name: 'Google Chrome', vendor: 'Google LLC', version: '119.0.6045.199' }, { name: 'Windows 11 Pro 23H2', vendor: 'Microsoft', version: '10.0.22631.3155' }, { name: 'Mozilla Firefox (x64 en-US)', vendor: 'Mozilla', version: '115.0' }],
    expected: ['CVE-2023-7024'],
  },
];

/** A scanner's findings on the same estate: one overlaps the matcher's (merged), one has no score of its own. */
export const scannerFindings = [
  { host: 'app-01', cve: 'CVE-2021-44228', qid: '730297', severity: '5', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H', title: 'Apache Log4j Remote Code Execution (Log4Shell)' },
  { host: 'ws-01', cve: 'CVE-2023-7024', qid: '380000', title: 'Google Chrome prior to 120.0.6099.129' },
  { host: 'ws-02', cve: 'CVE-2024-0001', qid: '999999', title: 'A CVE the feeds do not know' },
  { host: 'ws-01', cve: 'CVE-2019-0708', qid: '91534', title: 'BlueKeep', status: 'Fixed', last: '2020-01-15T00:00:00Z' },
];

const inline = (name: string, records: unknown[]) => ({ source_type: 'upload', file: `data:application/json;name=${name};base64,${Buffer.from(JSON.stringify(records)).toString('base64')}`, file_name: name });

/** Adds the labelled estate (hosts, installed software, a scanner) as JSON file connections of company 1. */
export async function addLabelledEstate(db: Queryable): Promise<void> {
  const hosts = labelledDevices.map((device, index) => ({ id: `h${index}`, hostname: device.hostname, serial: `AVM-${index}` }));
  const software = labelledDevices.flatMap((device, index) => device.installations.map((installation) => ({ id: `h${index}`, ...installation })));
  const connections = [
    { name: 'Hosts', config: { source: inline('hosts.json', hosts), entity: 'device', column_map: { id: 'AgentId', serial: 'SerialNumber' } } },
    { name: 'Installed software', config: { source: inline('software.json', software), entity: 'software', column_map: { id: 'AgentId', name: 'SoftwareName', vendor: 'SoftwareVendor', version: 'SoftwareVersion' } } },
    { name: 'Scanner', config: { source: inline('scanner.json', scannerFindings), entity: 'vulnerability', column_map: { host: 'Hostname', cve: 'CveId', qid: 'VendorVulnerabilityId', vector: 'CvssVector', status: 'Status', last: 'LastSeen' } } },
  ];
  for (const connection of connections) {
    await db.query(
      "insert into connections (company_id, adapter, name, connector_id, config) values (1, 'jsonfile', $1, (select id from connectors where company_id = 1 and is_default), $2)",
      [connection.name, JSON.stringify(connection.config)],
    );
  }
}
