import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CoreContext } from '../context.js';
import { validatorFor } from '../http/validators.js';
import { fleetSources, generateLabelledFleet, type FleetSource } from './fleet.js';
import { generateServicesAndLicenses } from './servicesAndLicenses.js';
import { generateDemoCertificates } from './certificates.js';
import { generateSoftwareAndFindings, type DemoObservation } from './softwareAndFindings.js';

/**
 * The demo data set as files: the labelled fleet's seven sources (directory, EDR, MDM, vulnerability scanner, CMDB,
 * HR system, network controller) — their devices and people, the HR system's employment, the switch ports, the installed software and vulnerability findings of the EDR, MDM and scanner, the
 * services of the EDR, scanner (open ports) and CMDB (cloud services), and the CMDB's software contracts —
 * written as the CSV exports those systems produce — each with its own column names, list separators and junk — into
 * the data folder's uploads, with one CSV file connection per export, which names the system it was exported from.
 * Discovery then reads them like any upload, so the demo exercises the real file engine, header mapping, correlation
 * and merging.
 */

type Column = { header: string; value: (fields: Record<string, unknown>) => unknown };
type Entity = 'device' | 'user' | 'software' | 'vulnerability' | 'service' | 'license' | 'certificate';
type Export = { source: FleetSource; entity: Entity; name: string; columns: Column[]; columnMap?: Record<string, string>; delimiter?: ',' | ';' };

const list = (separator: string) => (value: unknown) => (Array.isArray(value) ? value.join(separator) : value);
const field = (name: string, shape: (value: unknown) => unknown = (value) => value): Column['value'] => (fields) => shape(fields[name]);

const exports: Export[] = [
  {
    source: fleetSources.directory, entity: 'device', name: 'Directory computers (CSV export)',
    columns: [
      { header: 'Name', value: field('Hostname') }, { header: 'Domain', value: field('Domain') }, { header: 'OperatingSystem', value: field('OS.Type') },
      { header: 'OperatingSystemVersion', value: field('OS.Version') }, { header: 'LastLogonDate', value: field('LastSeen') },
    ],
    columnMap: { LastLogonDate: 'LastSeen' },
  },
  {
    source: fleetSources.edr, entity: 'device', name: 'EDR hosts (CSV export)',
    columns: [
      { header: 'hostname', value: field('Hostname') }, { header: 'machine_domain', value: field('Domain') }, { header: 'serial_number', value: field('SerialNumber') },
      { header: 'device_id', value: field('AgentId') }, { header: 'mac_address', value: field('MacAddresses', list(';')) }, { header: 'local_ip', value: field('IpAddresses', list(';')) },
      { header: 'platform_name', value: field('OS.Type') }, { header: 'os_version', value: field('OS.Version') }, { header: 'os_build', value: field('OS.Build') }, { header: 'last_seen', value: field('LastSeen') }, { header: 'last_login_user', value: field('LastUsedUsers', list(';')) },
    ],
    columnMap: { machine_domain: 'Domain', platform_name: 'OS.Type', last_login_user: 'LastUsedUsers' },
  },
  {
    source: fleetSources.mdm, entity: 'device', name: 'MDM devices (CSV export)', delimiter: ';',
    columns: [
      { header: 'Device Name', value: field('Hostname') }, { header: 'Serial Number', value: field('SerialNumber') }, { header: 'Wi-Fi MAC', value: field('MacAddresses', list(' ')) },
      { header: 'Manufacturer', value: field('DeviceManufacturer') }, { header: 'Model', value: field('DeviceModel') }, { header: 'Operating System', value: field('OS.Type') },
      { header: 'OS Version', value: field('OS.Version') },
      // Intune's own name for the disk-encryption state (the starter policy reads it); one laptop in ten is not.
      { header: 'isEncrypted', value: field('Hostname', (name) => !String(name).endsWith('7')) },
    ],
    columnMap: { 'Wi-Fi MAC': 'MacAddresses' },
  },
  {
    source: fleetSources.scanner, entity: 'device', name: 'Vulnerability scanner assets (CSV export)',
    columns: [
      { header: 'DNS Name', value: field('Hostname') }, { header: 'IP', value: field('IpAddresses', list(',')) }, { header: 'MAC Address', value: field('MacAddresses', list(',')) },
      { header: 'OS', value: field('OS.FullOsString') },
    ],
    // The scanner's one OS column holds the full string it fingerprinted ("Ubuntu 22.04.3 LTS").
    columnMap: { OS: 'OS.FullOsString' },
  },
  {
    source: fleetSources.cmdb, entity: 'device', name: 'CMDB configuration items (CSV export)',
    columns: [
      { header: 'name', value: field('Hostname') }, { header: 'dns_domain', value: field('Domain') }, { header: 'serial_number', value: field('SerialNumber') },
      { header: 'manufacturer', value: field('DeviceManufacturer') }, { header: 'model_id', value: field('DeviceModel') }, { header: 'os', value: field('OS.Type') },
      { header: 'os_version', value: field('OS.Version') }, { header: 'parent_host', value: field('ParentHost') },
    ],
    columnMap: { model_id: 'DeviceModel', parent_host: 'ParentHost' },
  },
  {
    // Catalyst Center's hosts and network devices in one export (its field names as headers): each wired host names
    // the switch and interface it is connected to and its VLAN.
    source: fleetSources.network, entity: 'device', name: 'Network controller hosts and switches (CSV export)',
    columns: [
      { header: 'hostName', value: field('Hostname') }, { header: 'hostIp', value: field('IpAddresses', list(',')) }, { header: 'hostMac', value: field('MacAddresses', list(',')) },
      { header: 'connectedNetworkDeviceName', value: field('ConnectedSwitch') }, { header: 'connectedInterfaceName', value: field('SwitchPort') }, { header: 'vlanId', value: field('Vlan') },
      { header: 'serialNumber', value: field('SerialNumber') }, { header: 'platformId', value: field('DeviceModel') }, { header: 'family', value: field('Category') },
      { header: 'softwareType', value: field('OS.Type') }, { header: 'softwareVersion', value: field('OS.Version') }, { header: 'vendor', value: field('DeviceManufacturer') },
    ],
    columnMap: {
      hostName: 'Hostname', hostIp: 'IpAddresses', hostMac: 'MacAddresses', connectedNetworkDeviceName: 'ConnectedSwitch', connectedInterfaceName: 'SwitchPort', vlanId: 'Vlan',
      serialNumber: 'SerialNumber', platformId: 'DeviceModel', family: 'Category', softwareType: 'OS.Type', softwareVersion: 'OS.Version', vendor: 'DeviceManufacturer',
    },
  },
  {
    source: fleetSources.directory, entity: 'user', name: 'Directory users (CSV export)',
    columns: [
      { header: 'sAMAccountName', value: field('Username') }, { header: 'Domain', value: field('Domain') }, { header: 'mail', value: field('Email') },
      { header: 'displayName', value: field('DisplayName') }, { header: 'employeeID', value: field('EmployeeId') }, { header: 'givenName', value: field('FirstName') }, { header: 'sn', value: field('LastName') },
      // Get-ADUser's Enabled (True/False): the leaver query asks it.
      { header: 'Enabled', value: field('Enabled', (value) => (value ? 'True' : 'False')) },
    ],
    columnMap: { Enabled: 'Enabled' },
  },
  {
    // A BambooHR custom report saved as CSV (its field names as headers); the employment status written as the
    // inventory's codes (active, leave, terminated).
    source: fleetSources.hr, entity: 'user', name: 'HR employees (CSV export)',
    columns: [
      { header: 'employeeNumber', value: field('EmployeeId') }, { header: 'workEmail', value: field('Email') }, { header: 'displayName', value: field('DisplayName') },
      { header: 'department', value: field('Employment.Department') }, { header: 'supervisor', value: field('Employment.Manager') }, { header: 'employmentStatus', value: field('Employment.Status') },
      { header: 'hireDate', value: field('Employment.StartDate') }, { header: 'terminationDate', value: field('Employment.EndDate') },
    ],
    columnMap: {
      employeeNumber: 'EmployeeId', workEmail: 'Email', displayName: 'DisplayName', department: 'Employment.Department', supervisor: 'Employment.Manager',
      employmentStatus: 'Employment.Status', hireDate: 'Employment.StartDate', terminationDate: 'Employment.EndDate',
    },
  },
  {
    source: fleetSources.mdm, entity: 'user', name: 'MDM users (CSV export)', delimiter: ';',
    columns: [{ header: 'User Principal Name', value: field('UserPrincipalName') }, { header: 'Display Name', value: field('DisplayName') }],
  },
  {
    source: fleetSources.cmdb, entity: 'user', name: 'CMDB people (CSV export)',
    columns: [{ header: 'employee_number', value: field('EmployeeId') }, { header: 'email', value: field('Email') }, { header: 'name', value: field('DisplayName') }],
  },
  {
    source: fleetSources.edr, entity: 'software', name: 'EDR installed software (CSV export)',
    columns: [
      { header: 'aid', value: field('AgentId') }, { header: 'hostname', value: field('Hostname') }, { header: 'name', value: field('SoftwareName') }, { header: 'vendor', value: field('SoftwareVendor') },
      { header: 'version', value: field('SoftwareVersion') }, { header: 'install_date', value: field('InstallDate') }, { header: 'install_path', value: field('InstallPath') },
      // A Linux server's packages: their package type and source package, from the package manager.
      { header: 'package_type', value: field('SoftwarePackageType') }, { header: 'source_package', value: field('SoftwareSourcePackage') },
    ],
    columnMap: { package_type: 'SoftwarePackageType', source_package: 'SoftwareSourcePackage' },
  },
  {
    source: fleetSources.mdm, entity: 'software', name: 'MDM discovered apps (CSV export)', delimiter: ';',
    columns: [
      { header: 'Device Name', value: field('Hostname') }, { header: 'Serial Number', value: field('SerialNumber') }, { header: 'App Name', value: field('SoftwareName') },
      { header: 'Publisher', value: field('SoftwareVendor') }, { header: 'App Version', value: field('SoftwareVersion') },
    ],
    columnMap: { 'App Name': 'SoftwareName', 'App Version': 'SoftwareVersion' },
  },
  {
    source: fleetSources.scanner, entity: 'vulnerability', name: 'Vulnerability scanner findings (CSV export)',
    columns: [
      { header: 'DNS Name', value: field('Hostname') }, { header: 'IP', value: field('IpAddresses', list(',')) }, { header: 'QID', value: field('VendorVulnerabilityId') },
      { header: 'Title', value: field('Title') }, { header: 'Severity', value: field('Severity') }, { header: 'CVE ID', value: field('CveId') },
      { header: 'CVSS v3.1 Base Score', value: field('CvssScore') }, { header: 'CVSS v3.1 Vector', value: field('CvssVector') }, { header: 'Port', value: field('Port') },
      { header: 'Protocol', value: field('Protocol') }, { header: 'Results', value: field('Evidence') }, { header: 'Solution', value: field('Solution') },
      { header: 'Vuln Status', value: field('Status') }, { header: 'First Detected', value: field('FirstSeen') }, { header: 'Last Detected', value: field('LastSeen') },
    ],
    columnMap: { 'CVSS v3.1 Vector': 'CvssVector', 'Vuln Status': 'Status' },
  },
  {
    source: fleetSources.scanner, entity: 'service', name: 'Vulnerability scanner open ports (CSV export)',
    columns: [
      { header: 'DNS Name', value: field('Hostname') }, { header: 'IP', value: field('IpAddresses', list(',')) }, { header: 'Port', value: field('Port') },
      { header: 'Protocol', value: field('Protocol') }, { header: 'Service', value: field('ServiceName') }, { header: 'Product', value: field('Product') },
      { header: 'Version', value: field('Version') }, { header: 'Banner', value: field('Banner') },
    ],
  },
  {
    source: fleetSources.edr, entity: 'vulnerability', name: 'EDR vulnerabilities (CSV export)',
    columns: [
      { header: 'aid', value: field('AgentId') }, { header: 'hostname', value: field('Hostname') }, { header: 'cve_id', value: field('CveId') }, { header: 'severity', value: field('Severity') },
      { header: 'base_score', value: field('CvssScore') }, { header: 'vector', value: field('CvssVector') }, { header: 'exploit_available', value: field('ExploitKnown') },
      { header: 'product', value: field('SoftwareName') }, { header: 'product_version', value: field('SoftwareVersion') }, { header: 'status', value: field('Status') },
      { header: 'first_seen', value: field('FirstSeen') }, { header: 'last_seen', value: field('LastSeen') },
    ],
  },
  {
    source: fleetSources.edr, entity: 'service', name: 'EDR services (CSV export)',
    columns: [
      { header: 'aid', value: field('AgentId') }, { header: 'hostname', value: field('Hostname') }, { header: 'service_name', value: field('ServiceName') },
      { header: 'display_name', value: field('DisplayName') }, { header: 'state', value: field('State') }, { header: 'start_type', value: field('StartType') },
      { header: 'account', value: field('Account') }, { header: 'listening_port', value: field('Port') },
    ],
    columnMap: { listening_port: 'Port' },
  },
  {
    source: fleetSources.cmdb, entity: 'service', name: 'CMDB cloud services (CSV export)',
    columns: [
      { header: 'name', value: field('ServiceName') }, { header: 'short_description', value: field('DisplayName') }, { header: 'kind', value: field('ServiceKind') },
      { header: 'product', value: field('Product') }, { header: 'port', value: field('Port') }, { header: 'protocol', value: field('Protocol') }, { header: 'endpoint', value: field('Host') },
    ],
    columnMap: { short_description: 'DisplayName', kind: 'ServiceKind', endpoint: 'Host' },
  },
  {
    source: fleetSources.cmdb, entity: 'license', name: 'CMDB software contracts (CSV export)',
    columns: [
      { header: 'License', value: field('LicenseName') }, { header: 'Software', value: field('SoftwareName') }, { header: 'Publisher', value: field('Vendor') },
      { header: 'Metric', value: field('Metric') }, { header: 'Seats', value: field('SeatsPurchased') }, { header: 'Cost', value: field('Cost') }, { header: 'Currency', value: field('Currency') },
      { header: 'Purchase date', value: field('PurchaseDate') }, { header: 'Expiration date', value: field('ExpirationDate') }, { header: 'Assigned users', value: field('AssignedUsers') },
    ],
  },
  {
    source: fleetSources.scanner, entity: 'certificate', name: 'Vulnerability scanner TLS certificates (CSV export)',
    columns: [
      { header: 'Host', value: field('Host') }, { header: 'IP', value: field('IpAddresses', list(',')) }, { header: 'Port', value: field('Port') },
      { header: 'Common Name', value: field('CommonName') }, { header: 'Subject', value: field('Subject') }, { header: 'Issuer', value: field('Issuer') },
      { header: 'Serial Number', value: field('SerialNumber') }, { header: 'Valid From', value: field('NotBefore') }, { header: 'Valid To', value: field('NotAfter') },
      { header: 'Key Algorithm', value: field('KeyAlgorithm') }, { header: 'Key Size', value: field('KeySize') }, { header: 'Signature Algorithm', value: field('SignatureAlgorithm') },
      { header: 'Self-Signed', value: field('SelfSigned', (value) => (value ? 'yes' : 'no')) }, { header: 'SANs', value: field('SubjectAltNames', list(' ')) },
      { header: 'SHA-256 Fingerprint', value: field('FingerprintSha256') },
    ],
  },
];

/** How the connection's description counts an export's rows. */
const rowNouns: Record<Entity, string> = { device: 'devices', user: 'users', software: 'installations', vulnerability: 'findings', service: 'services', license: 'licenses', certificate: 'certificates' };

/** One CSV cell (RFC 4180): quoted when it holds the delimiter, a quote or a line break. */
function cell(value: unknown, delimiter: string): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return text.includes(delimiter) || /["\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvOf(definition: Export, records: DemoObservation[]): string {
  const delimiter = definition.delimiter ?? ',';
  const lines = [definition.columns.map((column) => cell(column.header, delimiter)).join(delimiter)];
  for (const record of records) lines.push(definition.columns.map((column) => cell(column.value(record.fields), delimiter)).join(delimiter));
  return `${lines.join('\r\n')}\r\n`;
}

export type DemoExportSummary = { name: string; entity: string; rows: number; connectionId: number; created: boolean };

/**
 * Writes the demo exports into `<data folder>/uploads` and creates a CSV file connection for each in the company,
 * on its default connector. Connections that already exist by name are left as they are (the call is idempotent).
 */
export async function writeDemoCsvExports(context: CoreContext, companyId: number, options: { devices?: number; seed?: number } = {}): Promise<DemoExportSummary[]> {
  const fleet = generateLabelledFleet(options.devices ?? 2000, options.seed ?? 42);
  const { software, findings } = generateSoftwareAndFindings(fleet, options.seed ?? 42);
  const { services, licenses } = generateServicesAndLicenses(fleet, software, options.seed ?? 42);
  const rowsByEntity: Record<Entity, DemoObservation[]> = { device: fleet.records, user: fleet.users, software, vulnerability: findings, service: services, license: licenses, certificate: generateDemoCertificates(fleet) };
  const validate = validatorFor('cartograph:adapters/csvfile/connection');
  const [connector] = await context.db.query<{ id: number }>('select id from connectors where company_id = $1 and is_default', [companyId]);
  if (!connector) throw new Error(`Company ${companyId} has no default connector.`);
  await mkdir(join(context.config.dataDir, 'uploads'), { recursive: true, mode: 0o700 });
  const summaries: DemoExportSummary[] = [];
  for (const definition of exports) {
    const records = rowsByEntity[definition.entity].filter((record) => record.connectionId === definition.source.connectionId);
    const [existing] = await context.db.query<{ id: number }>("select id from connections where company_id = $1 and adapter = 'csvfile' and name = $2", [companyId, definition.name]);
    if (existing) {
      summaries.push({ name: definition.name, entity: definition.entity, rows: records.length, connectionId: existing.id, created: false });
      continue;
    }
    const reference = `uploads/${randomUUID()}.csv`;
    await writeFile(join(context.config.dataDir, reference), csvOf(definition, records), { mode: 0o600 });
    const fileName = `${definition.source.label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${rowNouns[definition.entity]}.csv`;
    const config = {
      source: { source_type: 'upload', file: reference, file_name: fileName }, entity: definition.entity, delimiter: definition.delimiter ?? ',', encoding: 'utf-8', has_header: true,
      column_map: definition.columnMap ?? {},
      // Each export names the system it comes from, so its records count as that adapter's (Adapters, source
      // categories, the starter policies) while the file adapter reads them.
      exported_from: definition.source.adapter,
    };
    if (!validate(config)) throw new Error(`The demo connection ${definition.name} does not match the CSV form: ${JSON.stringify(validate.errors)}`);
    const [row] = await context.db.query<{ id: number }>(
      'insert into connections (company_id, adapter, name, description, connector_id, config) values ($1, $2, $3, $4, $5, $6) returning id',
      [companyId, 'csvfile', definition.name, `Demo data: the ${definition.source.label.toLowerCase()} export (${records.length} ${rowNouns[definition.entity]}).`, connector.id, JSON.stringify(config)],
    );
    summaries.push({ name: definition.name, entity: definition.entity, rows: records.length, connectionId: row.id, created: true });
  }
  return summaries;
}
