import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { expect } from 'vitest';
import type { TestServer } from './harness.js';

/** Polls `check` every 250 ms until it answers something truthy (a job finished, a mail arrived), or fails. */
export async function waitFor<T>(check: () => Promise<T | null | undefined | false>, what: string, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A run's file (or any URL) downloaded with a user's token; the answer must be 200. */
export async function download(server: TestServer, token: string, url: string): Promise<Buffer> {
  const response = await server.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
  return response.rawPayload;
}

export type FinishedRun = { id: number; status: 'done' | 'error'; error: string; index_id: number | null; progress: Record<string, unknown>; files: { format: string; filename: string; url: string }[] };

/** Runs a saved report now and waits for the run to end (done or error). */
export async function runReport(server: TestServer, reportId: number, body: { formats: string[]; index_id?: number }): Promise<FinishedRun> {
  const started = await server.request('POST', `/reports/reports/${reportId}/run`, { token: server.adminToken, body });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  return waitFor(async () => {
    const answer = await server.request('GET', `/reports/runs/${started.body.id}`, { token: server.adminToken });
    return answer.body.status === 'done' || answer.body.status === 'error' ? (answer.body as FinishedRun) : null;
  }, `run ${started.body.id}`);
}

/** Creates a report and answers its id (the creation must succeed). */
export async function createReport(server: TestServer, report: object): Promise<number> {
  const created = await server.request('POST', '/reports/reports', { token: server.adminToken, body: report });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}

/** A CSV file's rows, header first, as a CSV reader sees them (the BOM Excel needs removed). */
export function csvRows(content: Buffer | string): string[][] {
  return parse(content.toString().replace(/^\ufeff/, ''), { relaxColumnCount: false }) as string[][];
}

/** A zip's entries by name, each read whole, through a real zip reader. */
export async function zipEntries(content: Buffer): Promise<Map<string, Buffer>> {
  const zip = await JSZip.loadAsync(content);
  const entries = new Map<string, Buffer>();
  for (const name of Object.keys(zip.files).sort()) entries.set(name, await zip.files[name].async('nodebuffer'));
  return entries;
}

/** An XLSX file opened by exceljs. */
export async function openWorkbook(content: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(content as unknown as ArrayBuffer);
  return workbook;
}

/** A sheet's cell values below its header row (exceljs's values, typed: numbers, Dates, booleans, text). */
export function sheetRows(sheet: ExcelJS.Worksheet): unknown[][] {
  const rows: unknown[][] = [];
  sheet.eachRow((row, number) => {
    if (number > 1) rows.push((row.values as unknown[]).slice(1));
  });
  return rows;
}

/** Each page's text as pdf.js extracts it (the words a reader can select and search), one string per page. */
export async function pdfPageTexts(content: Buffer): Promise<string[]> {
  const document = await getDocument({ data: new Uint8Array(content), verbosity: 0 }).promise;
  try {
    const pages: string[] = [];
    for (let number = 1; number <= document.numPages; number += 1) {
      const text = await (await document.getPage(number)).getTextContent();
      pages.push(text.items.map((item) => ('str' in item ? item.str : '')).join(' '));
    }
    return pages;
  } finally {
    await document.destroy();
  }
}
