import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishSnapshot, type KnownAsset } from './dashboardsFixtures.js';
import { engines, startTestServer, type TestServer } from './harness.js';
import { createReport, csvRows, download, openWorkbook, pdfPageTexts, runReport, sheetRows, zipEntries } from './reportsSupport.js';

// 150 devices: three pages of an A4 portrait table, so the PDF must break it and repeat its header.
const deviceCount = 150;
const hostname = (index: number) => `host-${String(index).padStart(3, '0')}`;
const adapterOf = (index: number) => ['crowdstrike', 'jamf', 'qualys'][index % 3];
// Device 7's sources spell its host name three ways: tables show the display form (the first), not every alias.
const aliasesOf = (index: number) => (index === 7 ? [hostname(index).toUpperCase(), `${hostname(index)}.corp.example`] : []);
const devices: KnownAsset[] = Array.from({ length: deviceCount }, (_, offset) => {
  const index = offset + 1;
  return { entity: 'device', id: `d${index}`, fields: { Hostname: [hostname(index), ...aliasesOf(index)], 'OS.Type': [index % 2 ? 'Windows' : 'Linux'], Adapters: [adapterOf(index)] } };
});
const certificates: KnownAsset[] = [
  { entity: 'certificate', id: 'c1', fields: { Subject: ['alpha.example.test'], NotAfter: ['2027-03-01T12:00:00.000Z'], SelfSigned: [true] } },
  { entity: 'certificate', id: 'c2', fields: { Subject: ['beta.example.test'], NotAfter: ['2026-12-24T08:30:00.000Z'], SelfSigned: [false] } },
];

const devicesTable = { type: 'table', title: 'Devices', inventory: 'device', columns: ['Hostname', 'OS.Type'], sort: [{ field: 'Hostname', order: 'asc' }] };
const certificatesTable = { type: 'table', title: 'Certificates', inventory: 'certificate', columns: ['Subject', 'NotAfter', 'SelfSigned'], sort: [{ field: 'Subject', order: 'asc' }] };
const sourcesChart = { type: 'chart', title: 'By source', widget: { kind: 'group_by', inventory: 'device', field: 'Adapters' } };
const fleet = { name: 'Fleet', is_public: true, sections: [devicesTable, certificatesTable, sourcesChart] };

const expectedDeviceRows = devices.map((device) => [device.fields.Hostname[0], device.fields['OS.Type'][0]]);

describe.each(engines)('report outputs on %s', (engine) => {
  let server: TestServer;
  let fleetId: number;
  beforeAll(async () => {
    server = await startTestServer(engine);
    await publishSnapshot(server.context.db, 1, new Date(), 0, [...devices, ...certificates]);
    fleetId = await createReport(server, fleet);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('zips the CSV of several sections, one entry per section named after it, each holding its rows', async () => {
    const run = await runReport(server, fleetId, { formats: ['csv'] });
    expect(run.error).toBe('');
    expect(run.files).toMatchObject([{ format: 'csv', filename: 'Fleet.zip' }]);
    const entries = await zipEntries(await download(server, server.adminToken, run.files[0].url));
    expect([...entries.keys()]).toEqual(['01-Devices.csv', '02-Certificates.csv', '03-By-source.csv']);
    expect(csvRows(entries.get('01-Devices.csv')!)).toEqual([['Hostname', 'OS type'], ...expectedDeviceRows]);
    const [certificateHeader, ...certificateRows] = csvRows(entries.get('02-Certificates.csv')!);
    expect(certificateHeader).toHaveLength(3);
    expect(certificateRows).toEqual([
      ['alpha.example.test', '2027-03-01T12:00:00.000Z', 'true'],
      ['beta.example.test', '2026-12-24T08:30:00.000Z', 'false'],
    ]);
    const [chartHeader, ...chartRows] = csvRows(entries.get('03-By-source.csv')!);
    expect(chartHeader.slice(0, 2)).toEqual(['label', 'value']);
    expect(chartRows.map((row) => row.slice(0, 2)).sort()).toEqual([['crowdstrike', '50'], ['jamf', '50'], ['qualys', '50']]);
  }, 120_000);

  it('writes the CSV of a report with one table as that plain CSV file', async () => {
    const reportId = await createReport(server, { name: 'Certificates only', is_public: true, sections: [{ type: 'text', title: 'Note', markdown: 'Not in the CSV.' }, certificatesTable] });
    const run = await runReport(server, reportId, { formats: ['csv'] });
    expect(run.files).toMatchObject([{ format: 'csv', filename: 'Certificates-only.csv' }]);
    const response = await server.app.inject({ method: 'GET', url: run.files[0].url, headers: { authorization: `Bearer ${server.adminToken}` } });
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.rawPayload.subarray(0, 2).toString()).not.toBe('PK');
    expect(csvRows(response.rawPayload).slice(1).map((row) => row[0])).toEqual(['alpha.example.test', 'beta.example.test']);
  }, 120_000);

  it('types XLSX cells: dates as dates, booleans as booleans, counts as numbers', async () => {
    const run = await runReport(server, fleetId, { formats: ['xlsx'] });
    const workbook = await openWorkbook(await download(server, server.adminToken, run.files[0].url));
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Devices', 'Certificates', 'By source']);
    expect(sheetRows(workbook.getWorksheet('Devices')!)).toEqual(expectedDeviceRows);
    const [alpha, beta] = sheetRows(workbook.getWorksheet('Certificates')!);
    expect(alpha[1]).toBeInstanceOf(Date);
    expect((alpha[1] as Date).toISOString()).toBe('2027-03-01T12:00:00.000Z');
    expect(alpha[2]).toBe(true);
    expect((beta[1] as Date).toISOString()).toBe('2026-12-24T08:30:00.000Z');
    expect(beta[2]).toBe(false);
    expect(workbook.getWorksheet('Certificates')!.getRow(2).getCell(2).numFmt).toBe('yyyy-mm-dd hh:mm');
    expect(sheetRows(workbook.getWorksheet('By source')!).map((row) => row.slice(0, 2)).sort()).toEqual([['crowdstrike', 50], ['jamf', 50], ['qualys', 50]]);
  }, 120_000);

  it('breaks a long table across PDF pages with the header row on each, and draws the chart as text a reader finds', async () => {
    const run = await runReport(server, fleetId, { formats: ['pdf'] });
    const pages = await pdfPageTexts(await download(server, server.adminToken, run.files[0].url));
    expect(pages[0]).toContain('Fleet');
    // Every page is numbered out of the whole, and each table says how many records it holds.
    expect(pages.map((text) => text.match(/Page (\d+) of (\d+)/)?.slice(1))).toEqual(pages.map((_, index) => [String(index + 1), String(pages.length)]));
    expect(pages.find((text) => text.includes('Devices'))).toContain('150 devices');
    expect(pages.find((text) => text.includes('Certificates'))).toContain('2 certificates');
    const tablePages = pages.filter((text) => /host-\d{3}/.test(text));
    expect(tablePages.length).toBeGreaterThanOrEqual(3);
    // Every page of the table starts with its header again: as many headers as pages, one on each.
    const headers = (text: string) => text.match(/Hostname\s+OS type/g)?.length ?? 0;
    expect(tablePages.map(headers)).toEqual(tablePages.map(() => 1));
    expect(pages.map(headers).reduce((sum, count) => sum + count, 0)).toBe(tablePages.length);
    // Every device is on some page, once.
    const listed = tablePages.join(' ').match(/host-\d{3}/g) ?? [];
    expect(listed).toEqual(devices.map((device) => device.fields.Hostname[0]));
    const chartPage = pages.find((text) => text.includes('By source'));
    expect(chartPage).toBeTruthy();
    // The legend of the pie chart, drawn from its Vega-Lite spec: the adapters appear nowhere else in the report.
    for (const adapter of ['crowdstrike', 'jamf', 'qualys']) expect(chartPage).toContain(adapter);
    expect(pages.filter((text) => text.includes('crowdstrike'))).toEqual([chartPage]);
  }, 120_000);

  it('holds every matching row by default, and says in the PDF, the XLSX and the run when a limit cut a table', async () => {
    const preview = await server.request('POST', '/reports/preview', { token: server.adminToken, body: { name: 'Cut', sections: [devicesTable, { ...devicesTable, limit: 100 }] } });
    expect(preview.body.sections.map((section: { count: number; report_rows: number }) => [section.count, section.report_rows])).toEqual([[150, 150], [150, 100]]);
    const reportId = await createReport(server, { name: 'First hundred', is_public: true, sections: [{ ...devicesTable, limit: 100 }] });
    const run = await runReport(server, reportId, { formats: ['pdf', 'xlsx', 'csv'] });
    expect(run.progress.tables).toEqual([{ title: 'Devices', shown: 100, matching: 150 }]);
    const file = (format: string) => download(server, server.adminToken, run.files.find((entry) => entry.format === format)!.url);
    const pages = await pdfPageTexts(await file('pdf'));
    expect(pages[1]).toContain('Showing 100 of 150 devices (the table stops at 100 rows).');
    expect((pages.join(' ').match(/host-\d{3}/g) ?? []).length).toBe(100);
    const rows = sheetRows((await openWorkbook(await file('xlsx'))).getWorksheet('Devices')!);
    expect(rows.slice(0, 100)).toEqual(expectedDeviceRows.slice(0, 100));
    expect(rows.slice(100)).toEqual([['Showing 100 of 150 devices (the table stops at 100 rows).']]);
    expect(csvRows(await file('csv'))).toHaveLength(101);
  }, 120_000);
});
