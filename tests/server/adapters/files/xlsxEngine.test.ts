import { writeFileSync } from 'node:fs';
import { loopbackAllowed } from '../../../support/outbound.js';
import { deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileEngines } from '../../../../src/server/adapters/files/fileEngines.js';
import { fetchXlsx } from '../../../../src/server/adapters/files/xlsxEngine.js';
import { defaultZipLimits, guardZip } from '../../../../src/server/adapters/files/zipGuard.js';
import { fetchAll, pathSource, scratchFolder } from './helpers.js';

const folder = scratchFolder();
const options = { dataDir: folder.path, importRoots: [folder.path] };
const engines = createFileEngines(options);
afterAll(() => folder.remove());

async function workbook(name: string, sheets: Record<string, unknown[][]>): Promise<string> {
  const book = new ExcelJS.Workbook();
  for (const [sheetName, rows] of Object.entries(sheets)) {
    const sheet = book.addWorksheet(sheetName);
    for (const row of rows) sheet.addRow(row);
  }
  await book.xlsx.writeFile(folder.file(name));
  return folder.file(name);
}

/** A ZIP written by hand: deflated entries whose central directory may lie about their size. */
function zipOf(entries: { name: string; data: Buffer; declaredSize?: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const compressed = deflateRawSync(entry.data);
    const name = Buffer.from(entry.name);
    const size = entry.declaredSize ?? entry.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0); local.writeUInt16LE(20, 4); local.writeUInt16LE(8, 8);
    local.writeUInt32LE(compressed.length, 18); local.writeUInt32LE(size, 22); local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0); central.writeUInt16LE(20, 4); central.writeUInt16LE(20, 6); central.writeUInt16LE(8, 10);
    central.writeUInt32LE(compressed.length, 20); central.writeUInt32LE(size, 24); central.writeUInt16LE(name.length, 28); central.writeUInt32LE(offset, 42);
    locals.push(local, name, compressed);
    centrals.push(central, name);
    offset += 30 + name.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(entries.length, 8); end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12); end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

describe('the XLSX engine', () => {
  it('reads the named worksheet below its header row, with dates, formulas and rich text as values', async () => {
    const file = await workbook('assets.xlsx', {
      Summary: [['not this sheet']],
      Assets: [
        ['Exported 2026-11-20'],
        ['Hostname', 'Serial Number', 'IP', 'Last Seen', 'Notes'],
        ['ws-001', 'SN-1', '10.0.0.1, 10.0.0.2', new Date(Date.UTC(2026, 10, 20, 8, 30)), { richText: [{ text: 'rich ' }, { text: 'text' }] }],
        [],
        ['ws-002', { formula: '"SN-"&2', result: 'SN-2' }, null, null, 42],
      ],
    });
    const { records } = await fetchAll(engines.xlsx, { source: pathSource(file), entity: 'device', sheet: 'Assets', header_row: 2 }, 'xlsxfile');
    expect(records).toEqual([
      {
        entity: 'device',
        fields: { Hostname: 'ws-001', SerialNumber: 'SN-1', IpAddresses: ['10.0.0.1', '10.0.0.2'], LastSeen: '2026-11-20T08:30:00.000Z' },
        raw: { Hostname: 'ws-001', 'Serial Number': 'SN-1', IP: '10.0.0.1, 10.0.0.2', 'Last Seen': new Date(Date.UTC(2026, 10, 20, 8, 30)), Notes: 'rich text' },
      },
      { entity: 'device', fields: { Hostname: 'ws-002', SerialNumber: 'SN-2' }, raw: { Hostname: 'ws-002', 'Serial Number': 'SN-2', Notes: 42 } },
    ]);
  });

  it('fails clearly when the sheet has no header row', async () => {
    const numbers = await workbook('numbers.xlsx', { Data: [[1, 2, 3], [4, 5, 6]] });
    await expect(fetchAll(engines.xlsx, { source: pathSource(numbers), entity: 'device' }, 'xlsxfile')).rejects.toThrow(
      'Worksheet "Data" has no header row: row 1 holds no column names (no text cells). Put the column names in row 1, or set the header row.',
    );
    const gap = await workbook('gap.xlsx', { Data: [[], [], ['Hostname'], ['x']] });
    await expect(fetchAll(engines.xlsx, { source: pathSource(gap), entity: 'device' }, 'xlsxfile')).rejects.toThrow(/Worksheet "Data" has no header row: row 1 is empty/);
    const empty = await workbook('empty.xlsx', { Blank: [] });
    await expect(fetchAll(engines.xlsx, { source: pathSource(empty), entity: 'device' }, 'xlsxfile')).rejects.toThrow('Worksheet "Blank" has no header row: the sheet is empty.');
  });

  it('names the worksheets it has when the configured one is missing', async () => {
    const file = await workbook('sheets.xlsx', { One: [['Hostname']], Two: [['Hostname']] });
    await expect(fetchAll(engines.xlsx, { source: pathSource(file), entity: 'device', sheet: 'Three' }, 'xlsxfile')).rejects.toThrow('The workbook has no worksheet named "Three" (it has: One, Two).');
  });

  it('checks the content, not the name: a CSV called .xlsx is refused', async () => {
    writeFileSync(folder.file('fake.xlsx'), 'Hostname\nws-1\n');
    await expect(fetchAll(engines.xlsx, { source: pathSource(folder.file('fake.xlsx')), entity: 'device' }, 'xlsxfile')).rejects.toThrow(/is not an XLSX workbook/);
  });

  it('refuses a decompression bomb: a highly compressed entry, a lying size, or too many entries', async () => {
    const zeros = Buffer.alloc(40 * 1024 * 1024);
    writeFileSync(folder.file('bomb.xlsx'), zipOf([{ name: 'xl/worksheets/sheet1.xml', data: zeros }]));
    await expect(guardZip(folder.file('bomb.xlsx'))).rejects.toThrow(/possible decompression bomb: xl\/worksheets\/sheet1\.xml expands \d+ times/);
    writeFileSync(folder.file('liar.xlsx'), zipOf([{ name: 'xl/sharedStrings.xml', data: zeros, declaredSize: 1000 }]));
    await expect(fetchAll(engines.xlsx, { source: pathSource(folder.file('liar.xlsx')), entity: 'device' }, 'xlsxfile')).rejects.toThrow(/xl\/sharedStrings\.xml inflates beyond its declared size/);
    const file = await workbook('normal.xlsx', { Data: [['Hostname'], ['a']] });
    await expect(guardZip(file)).resolves.toBeUndefined();
    const records = fetchXlsx({ adapter: 'xlsxfile', config: { source: pathSource(file), entity: 'device' }, signal: AbortSignal.timeout(5000), warn: () => {}, outbound: loopbackAllowed }, options, { ...defaultZipLimits, maximumEntries: 3 });
    await expect(records.next()).rejects.toThrow(/it has \d+ entries \(at most 3\)/);
  });

  it('refuses a ZIP that hides data between its entries, where a streaming reader would find it', async () => {
    const zip = zipOf([{ name: 'a.xml', data: Buffer.from('<a/>') }, { name: 'b.xml', data: Buffer.from('<b/>') }]);
    const firstEntryEnd = 30 + 'a.xml'.length + deflateRawSync(Buffer.from('<a/>')).length;
    const hidden = Buffer.concat([zip.subarray(0, firstEntryEnd), Buffer.alloc(100, 7), zip.subarray(firstEntryEnd)]);
    // A consistent directory that simply skips the 100 inserted bytes, as a crafted file would.
    const directoryAt = hidden.readUInt32LE(hidden.length - 6) + 100;
    hidden.writeUInt32LE(directoryAt, hidden.length - 6);
    const secondCentral = directoryAt + 46 + 'a.xml'.length;
    hidden.writeUInt32LE(hidden.readUInt32LE(secondCentral + 42) + 100, secondCentral + 42);
    writeFileSync(folder.file('hidden.xlsx'), hidden);
    await expect(guardZip(folder.file('hidden.xlsx'))).rejects.toThrow(`The workbook was refused as a possible decompression bomb: it holds data outside its directory near byte ${firstEntryEnd}.`);
    writeFileSync(folder.file('tiled.xlsx'), zip);
    await expect(guardZip(folder.file('tiled.xlsx'))).resolves.toBeUndefined();
  });
});
