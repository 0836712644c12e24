import type { Queryable } from '../../src/server/db/database.js';

// Vendor-shaped exports of an EDR's hosts and applications, an MDM's detected apps and two vulnerability scanners,
// fed through the real JSON file adapter as inline files. Three devices; the scanners overlap on one finding.

export const edrHosts = [
  { aid: 'a1b2c3', hostname: 'WS-0001', serial_number: 'SER-0001', os: 'Windows', mac: '3c:22:fb:00:00:01' },
  { aid: 'd4e5f6', hostname: 'ws-0002', serial_number: 'SER-0002', os: 'Linux' },
  { aid: 'a7b8c9', hostname: 'srv-0003', serial_number: 'SER-0003', os: 'Linux' },
];

export const edrApplications = [
  { aid: 'a1b2c3', name: 'Google Chrome', vendor: 'Google LLC', version: '120.0.6099.130', installed: '2026-10-01T00:00:00Z', path: 'C:\\Program Files\\Google\\Chrome' },
  { aid: 'a1b2c3', name: '7-Zip 23.01 (x64)', vendor: 'Igor Pavlov', version: '23.01' },
  { aid: 'd4e5f6', name: 'openssl', vendor: null, version: '3.0.11-1~deb12u2' },
  { aid: 'a7b8c9', name: 'openssl', vendor: 'OpenSSL Project', version: '1:3.0.13-1' },
  { aid: 'a7b8c9', name: 'xz-utils', vendor: null, version: 'latest' },
  { aid: 'zz9999', name: 'Google Chrome', vendor: 'Google LLC', version: '118.0.1' },
];

export const mdmApplications = [
  { device: 'ws-0001.corp.example.com', displayName: 'Google Chrome (x64)', publisher: 'Google Inc.', version: '119.0.6045.199' },
  { device: 'WS-0002', displayName: 'Chrome', publisher: 'Google', version: '120.0.6099.71' },
];

export const scannerA = [
  { host: 'ws-0001', serial: 'SER-0001', cve: 'CVE-2024-0001', qid: '38739', severity: 'Sev 5', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', title: 'Chrome use after free', software: 'Google Chrome', port: '443', protocol: 'TCP', status: 'Active', first: '2026-11-01T00:00:00Z', last: '2026-11-20T00:00:00Z' },
  { host: 'ws-0002', serial: 'SER-0002', cve: 'CVE-2024-3094', severity: 'critical', vector: 'CVSS:3.1/AV:N', v2: 'AV:N/AC:L/Au:N/C:C/I:C/A:C', title: 'XZ Utils backdoor', software: 'xz-utils', status: 'Active' },
  { host: 'srv-0003', serial: 'SER-0003', qid: '105484', severity: 'purple', score: '5.3', title: 'SSH weak MAC algorithms', status: 'Active' },
  { host: 'srv-0003', serial: 'SER-0003', cve: 'CVE-2023-48795', severity: 'medium', v4: 'CVSS:4.0/AV:N/AC:H/AT:N/PR:N/UI:N/VC:N/VI:H/VA:N/SC:N/SI:N/SA:N', title: 'Terrapin', status: 'Fixed' },
];

export const scannerB = [
  { hostname: 'WS-0001', cve_id: 'cve-2024-0001', risk: 'High', cvss3_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:H/I:H/A:H', port: 8443, state: 'open', plugin_output: 'Chrome 120.0.6099.130 < 120.0.6099.199' },
];

const inline = (name: string, records: unknown[]) => ({ source_type: 'upload', file: `data:application/json;name=${name};base64,${Buffer.from(JSON.stringify(records)).toString('base64')}`, file_name: name });

/** The connections of the fixture (plus one whose source cannot be reached), in company 1. */
export const softwareConnections = [
  { name: 'EDR hosts', config: { source: inline('hosts.json', edrHosts), entity: 'device', column_map: { aid: 'AgentId', mac: 'MacAddresses' } } },
  { name: 'EDR applications', config: { source: inline('apps.json', edrApplications), entity: 'software', column_map: { aid: 'AgentId', installed: 'InstallDate', path: 'InstallPath' } } },
  { name: 'MDM detected apps', config: { source: inline('mdm.json', mdmApplications), entity: 'software', column_map: { device: 'Hostname', displayName: 'SoftwareName', publisher: 'SoftwareVendor' } } },
  {
    name: 'Scanner A',
    config: {
      source: inline('scanner-a.json', scannerA), entity: 'vulnerability',
      column_map: { serial: 'SerialNumber', qid: 'VendorVulnerabilityId', vector: 'CvssVector', v2: 'Cvss2Vector', v4: 'Cvss4Vector', score: 'CvssScore', port: 'Port', protocol: 'Protocol', status: 'Status', first: 'FirstSeen', last: 'LastSeen' },
    },
  },
  { name: 'Scanner B', config: { source: inline('scanner-b.json', scannerB), entity: 'vulnerability', column_map: { cve_id: 'CveId', cvss3_vector: 'CvssVector', port: 'Port', state: 'Status', plugin_output: 'Evidence' } } },
  { name: 'Unreachable scanner', config: { source: { source_type: 'url', file_url: 'http://127.0.0.1:9/findings.json' }, entity: 'vulnerability' } },
];

/** Adds the fixture's connections (JSON file adapter) to company 1. */
export async function addSoftwareConnections(db: Queryable): Promise<void> {
  for (const connection of softwareConnections) {
    await db.query(
      "insert into connections (company_id, adapter, name, connector_id, config) values (1, 'jsonfile', $1, (select id from connectors where company_id = 1 and is_default), $2)",
      [connection.name, JSON.stringify(connection.config)],
    );
  }
}
