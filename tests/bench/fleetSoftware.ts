// Installed software and vulnerability findings for the discovery bench, as CrowdStrike Falcon answers them
// (Discover applications, Spotlight vulnerabilities) for the EDR's hosts of the generated fleet. Built per page when
// asked for, from a position in the whole collection, so the replay server holds nothing per installation.
import { vendorPage, type ReplayStream } from './fleetVendors.js';

type VendorRecord = Record<string, unknown>;

/** The bench's catalogue: products, their vendors, and the CVE pool findings draw from. */
const catalogue = { products: 5_000, vendors: 50, cves: 20_000 };
const severities = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'];
const vectors = ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 'CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N', 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:L/A:N'];
const installed = '2025-06-01T08:00:00Z';

/** Per EDR host, so that the fleet as a whole has `perDevice` installations and `findingsPerDevice` findings per device. */
export function softwareShape(devices: number, hosts: number, perDevice = 40, findingsPerDevice = 3) {
  return { appsPerHost: Math.round((perDevice * devices) / hosts), findingsPerHost: Math.round((findingsPerDevice * devices) / hosts) };
}

function hostOf(hosts: ReplayStream, position: number) {
  const [host] = vendorPage(hosts, position, position + 1) as { device_id: string; hostname: string; local_ip: string; mac_address: string }[];
  return host;
}

/** Applications [start, end) of the whole collection: host `position / appsPerHost`, its `position % appsPerHost`th. */
export function applicationsPage(hosts: ReplayStream, appsPerHost: number, start: number, end: number): VendorRecord[] {
  const page: VendorRecord[] = [];
  for (let position = start; position < Math.min(end, hosts.records.length * appsPerHost); position += 1) {
    const hostIndex = Math.floor(position / appsPerHost);
    const ordinal = position % appsPerHost;
    const host = hostOf(hosts, hostIndex);
    const product = (hostIndex * 7 + ordinal * 131) % catalogue.products;
    page.push({
      id: `${host.device_id}_${product}`, name: `Product ${product}`, vendor: `Vendor ${product % catalogue.vendors}`, version: `${1 + (ordinal % 5)}.${hostIndex % 7}.0`,
      category: 'Application', installation_timestamp: installed, installation_paths: [`C:\\Program Files\\Product ${product}`],
      host: { aid: host.device_id, hostname: host.hostname, local_ip_addresses: [host.local_ip], current_mac_address: host.mac_address },
    });
  }
  return page;
}

/** Spotlight vulnerabilities [start, end): host `position / findingsPerHost`, one CVE of the pool each. */
export function vulnerabilitiesPage(hosts: ReplayStream, findingsPerHost: number, start: number, end: number): VendorRecord[] {
  const page: VendorRecord[] = [];
  for (let position = start; position < Math.min(end, hosts.records.length * findingsPerHost); position += 1) {
    const hostIndex = Math.floor(position / findingsPerHost);
    const host = hostOf(hosts, hostIndex);
    const cve = (hostIndex * 13 + (position % findingsPerHost) * 977) % catalogue.cves;
    page.push({
      id: `${host.device_id}_CVE-2024-${cve}`, aid: host.device_id, status: 'open', created_timestamp: installed, updated_timestamp: installed,
      cve: { id: `CVE-2024-${String(cve).padStart(5, '0')}`, description: `A flaw in Product ${cve % catalogue.products}.`, severity: severities[cve % 4], base_score: 2 + (cve % 80) / 10, vector: vectors[cve % 3], published_date: '2024-03-01T00:00:00Z' },
      host_info: { hostname: host.hostname, local_ip: host.local_ip },
      apps: [{ product_name_version: `Product ${cve % catalogue.products}` }],
    });
  }
  return page;
}
