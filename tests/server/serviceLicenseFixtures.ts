import ExcelJS from 'exceljs';
import type { Queryable } from '../../src/server/db/database.js';

// Services and licenses beside the software fixture's three devices (softwareFixtures.ts: WS-0001, ws-0002,
// srv-0003): an EDR's services (with a record of no device, one without a name and one with no port number), a
// scanner's open ports, a CMDB's cloud services, people, and contracts as a CSV mapping (with garbage values) and an
// XLSX mapping, all fed through the real file adapters as inline files.

export const edrServices = [
  { aid: 'a1b2c3', name: 'Spooler', display: 'Print Spooler', state: 'Running', start: 'Auto', account: 'LocalSystem' },
  { aid: 'd4e5f6', name: 'sshd', display: 'OpenSSH server daemon', state: 'active', start: 'enabled', account: 'root', port: 22 },
  { aid: 'a7b8c9', name: 'sshd', display: 'OpenSSH server daemon', state: 'inactive', start: 'disabled', account: 'root' },
  { aid: 'a7b8c9', name: 'postgresql', state: 'active', start: 'enabled', account: 'postgres', port: '99999' },
  { aid: 'zz9999', name: 'sshd', state: 'active' },
  { aid: 'a7b8c9', display: '', state: 'active' },
];

export const scannerPorts = [
  { host: 'srv-0003', port: 22, protocol: 'TCP', service: 'ssh', product: 'OpenSSH', version: '9.2p1', banner: 'SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3' },
  { host: 'ws-0002', port: 22, protocol: 'TCP', service: 'ssh', banner: 'SSH-2.0-OpenSSH_9.6' },
];

export const cloudServices = [{ name: 'payments-api', kind: 'cloud', product: 'Azure Kubernetes Service', port: 443, endpoint: 'payments.corp.example.com' }];

export const people = [
  { username: 'alice', email: 'alice@corp.example.com', skus: ['SKU-E3'] },
  { username: 'bob', email: 'bob@corp.example.com' },
];

// A contract export as spreadsheets write them: quoted thousands, a decimal comma, a count beyond any purchase, a
// date that does not exist, a row without a license name; two 7-Zip purchases add up.
export const contractsCsv = [
  'License,Software,Publisher,Seats,Used,Cost,Currency,Expiration date,Assigned users,Sku',
  'Chrome Enterprise,Google Chrome,Google,1,,"1,250.50",EUR,2027-01-31,,',
  '7-Zip Site,7-Zip,Igor Pavlov,10,,100,EUR,2026-12-31,,',
  '7-Zip Site,7-Zip,Igor Pavlov,5,,"12,5",EUR,2028-12-31,,',
  'Support plan,,Example Corp,lots,,,,2027-02-30,alice; bob; carol,',
  'Huge plan,,Example Corp,99999999999999999999,,,,,,',
  ',Orphan,Example Corp,3,,,,,,',
  'Microsoft 365 E3,,Microsoft,1,1,,,,,sku-e3',
].join('\r\n');

const inline = (name: string, type: string, content: Buffer | string) => ({
  source_type: 'upload', file: `data:${type};name=${name};base64,${Buffer.from(content).toString('base64')}`, file_name: name,
});
const json = (name: string, records: unknown[]) => inline(name, 'application/json', JSON.stringify(records));

/** The same license in a second source (an XLSX mapping): across sources the largest seat count holds. */
export async function contractsXlsx(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Entitlements');
  sheet.addRow(['Product', 'Quantity', 'End date']);
  sheet.addRow(['7-Zip Site', 12, new Date(Date.UTC(2027, 5, 30))]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Adds the fixture's service, people and contract connections to company 1. */
export async function addServiceLicenseConnections(db: Queryable): Promise<void> {
  const connections: [string, string, Record<string, unknown>][] = [
    ['EDR services', 'jsonfile', { source: json('services.json', edrServices), entity: 'service', column_map: { aid: 'AgentId', name: 'ServiceName', display: 'DisplayName', state: 'State', start: 'StartType', account: 'Account', port: 'Port' } }],
    ['Scanner open ports', 'jsonfile', { source: json('ports.json', scannerPorts), entity: 'service', column_map: { host: 'Hostname', port: 'Port', service: 'ServiceName' } }],
    ['CMDB cloud services', 'jsonfile', { source: json('cloud.json', cloudServices), entity: 'service', column_map: { kind: 'ServiceKind', endpoint: 'Host' } }],
    ['Directory people', 'jsonfile', { source: json('people.json', people), entity: 'user', column_map: { skus: 'AssignedLicenses' } }],
    ['Contracts (CSV)', 'csvfile', { source: inline('contracts.csv', 'text/csv', contractsCsv), entity: 'license', delimiter: ',', encoding: 'utf-8', has_header: true }],
    ['Entitlements (XLSX)', 'xlsxfile', { source: inline('entitlements.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', await contractsXlsx()), entity: 'license' }],
  ];
  for (const [name, adapter, config] of connections) {
    await db.query(
      "insert into connections (company_id, adapter, name, connector_id, config) values (1, $1, $2, (select id from connectors where company_id = 1 and is_default), $3)",
      [adapter, name, JSON.stringify(config)],
    );
  }
}
