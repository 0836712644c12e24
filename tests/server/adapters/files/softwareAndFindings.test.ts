// Files whose connection says their rows are installed software or vulnerability findings: the common export
// headers map to the contract's fields, with the device's identifiers; CSV, JSON and XLSX read the same way.
import { writeFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileEngines } from '../../../../src/server/adapters/files/fileEngines.js';
import { fetchAll, pathSource, scratchFolder } from './helpers.js';

const folder = scratchFolder();
const engines = createFileEngines({ dataDir: folder.path, importRoots: [folder.path] });
afterAll(() => folder.remove());

// An "installed programs" export as configuration-management tools write it.
const softwareHeader = ['Computer Name', 'Serial Number', 'Display Name', 'Publisher', 'Display Version', 'Install Date', 'Install Location', 'CPE'];
const softwareRows = [
  ['WS-0042', 'PF3ABC12', 'Google Chrome', 'Google LLC', '120.0.6099.130', '2023-12-21', 'C:\\Program Files\\Google\\Chrome\\Application', 'cpe:2.3:a:google:chrome:120.0.6099.130:*:*:*:*:*:*:*'],
  ['WS-0042', 'PF3ABC12', 'Microsoft 365 Apps for enterprise - en-us', 'Microsoft Corporation', '16.0.17231.20236', '', '', 'n/a'],
];
const expectedSoftware = [
  { SoftwareName: 'Google Chrome', SoftwareVendor: 'Google LLC', SoftwareVersion: '120.0.6099.130', InstallDate: '2023-12-21', InstallPath: 'C:\\Program Files\\Google\\Chrome\\Application', SoftwareCpe: 'cpe:2.3:a:google:chrome:120.0.6099.130:*:*:*:*:*:*:*', Hostname: 'WS-0042', SerialNumber: 'PF3ABC12' },
  { SoftwareName: 'Microsoft 365 Apps for enterprise - en-us', SoftwareVendor: 'Microsoft Corporation', SoftwareVersion: '16.0.17231.20236', Hostname: 'WS-0042', SerialNumber: 'PF3ABC12' },
];

// A Nessus-style findings export, with a score and an exploit flag that do not parse.
const findingsCsv = [
  'Plugin ID,CVE,CVSS v3.0 Base Score,Risk,Host,Protocol,Port,Name,Synopsis,Description,Solution,See Also,Plugin Output,Exploit Available',
  '187901,CVE-2024-21412,8.1,High,10.1.2.3,tcp,445,KB5034765: Windows 11 Security Update,The remote host is missing an update.,Missing security update 5034765.,Apply Security Update 5034765,https://support.microsoft.com/help/5034765,KB5034765 is not installed,true',
  '182873,"CVE-2023-5678, CVE-2023-6129",not scored,Medium,10.0.1.23,tcp,0,Debian DLA-3611-1 : openssl,,,Upgrade openssl.,,libssl3 3.0.11-1~deb12u1,perhaps',
].join('\n');

describe('software and vulnerability rows in files', () => {
  it('maps an installed-programs CSV to software records with their device', async () => {
    writeFileSync(folder.file('software.csv'), [softwareHeader, ...softwareRows].map((row) => row.map((cell) => (cell.includes(',') ? `"${cell}"` : cell)).join(',')).join('\n'));
    const { records, warnings } = await fetchAll(engines.csv, { source: pathSource(folder.file('software.csv')), entity: 'software', delimiter: ',', encoding: 'utf-8' });
    expect(warnings).toEqual([]);
    expect(records.map((record) => record.entity)).toEqual(['software', 'software']);
    expect(records.map((record) => record.fields)).toEqual(expectedSoftware);
  });

  it('maps a findings CSV to vulnerability records, numbers and flags typed when they parse and kept as written otherwise', async () => {
    writeFileSync(folder.file('findings.csv'), findingsCsv);
    const { records } = await fetchAll(engines.csv, { source: pathSource(folder.file('findings.csv')), entity: 'vulnerability', delimiter: ',', encoding: 'utf-8' });
    expect(records.map((record) => record.fields)).toEqual([
      { VendorVulnerabilityId: '187901', CveId: ['CVE-2024-21412'], CvssScore: 8.1, Severity: 'High', Hostname: '10.1.2.3', Protocol: 'tcp', Port: 445, Title: 'KB5034765: Windows 11 Security Update', Description: 'Missing security update 5034765.', Solution: 'Apply Security Update 5034765', References: ['https://support.microsoft.com/help/5034765'], Evidence: 'KB5034765 is not installed', ExploitKnown: true },
      { VendorVulnerabilityId: '182873', CveId: ['CVE-2023-5678', 'CVE-2023-6129'], CvssScore: 'not scored', Severity: 'Medium', Hostname: '10.0.1.23', Protocol: 'tcp', Port: 0, Title: 'Debian DLA-3611-1 : openssl', Solution: 'Upgrade openssl.', Evidence: 'libssl3 3.0.11-1~deb12u1', ExploitKnown: 'perhaps' },
    ]);
  });

  it('reads software from JSON records with nested device fields through the connection\'s mapping', async () => {
    const document = { data: { items: [{ app: { name: 'openssl', version: '3.0.11-1~deb12u2', vendor: 'Debian' }, host: { fqdn: 'srv-01.corp.example.com', agent: 'a1b2c3' } }] } };
    writeFileSync(folder.file('packages.json'), JSON.stringify(document));
    const { records } = await fetchAll(engines.json, { source: pathSource(folder.file('packages.json')), entity: 'software', records_path: 'data.items', column_map: { 'app.name': 'SoftwareName', 'app.version': 'SoftwareVersion', 'app.vendor': 'SoftwareVendor', 'host.fqdn': 'Hostname', 'host.agent': 'AgentId' } }, 'jsonfile');
    expect(records).toEqual([{ entity: 'software', fields: { SoftwareName: 'openssl', SoftwareVersion: '3.0.11-1~deb12u2', SoftwareVendor: 'Debian', Hostname: 'srv-01.corp.example.com', AgentId: 'a1b2c3' }, raw: document.data.items[0] }]);
  });

  it('reads the same software from an XLSX sheet', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Programs');
    for (const row of [softwareHeader, ...softwareRows]) sheet.addRow(row);
    await book.xlsx.writeFile(folder.file('software.xlsx'));
    const { records } = await fetchAll(engines.xlsx, { source: pathSource(folder.file('software.xlsx')), entity: 'software', sheet: 'Programs', header_row: 1 }, 'xlsxfile');
    expect(records.map((record) => [record.entity, record.fields])).toEqual(expectedSoftware.map((fields) => ['software', fields]));
  });
});
