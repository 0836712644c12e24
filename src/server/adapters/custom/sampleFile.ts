import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import type { EntityKind } from '../engine.js';
import { resolveColumns } from '../files/fieldMapping.js';
import { cellValue } from '../files/xlsxEngine.js';
import { guardZip } from '../files/zipGuard.js';
import { identifierFieldsOf } from './entityFields.js';
import { inferType, type CustomFieldType } from './fieldTypes.js';

/** A sample is read whole into memory to infer its types: it is a sample, not the data. */
export const sampleLimitBytes = 10 * 1024 ** 2;
/** Rows read to infer types; the rest of a large sample adds little. */
const inferenceRows = 5000;
const previewRows = 10;

/** What is wrong with a sample, with the column or line it is about: answered as a 400 naming the file field. */
export class SampleError extends Error {}

export type SampleColumn = { column: string; type: CustomFieldType; field: string | null; identifier: boolean };
export type SampleShape = { file_type: 'csv' | 'xlsx'; delimiter: string; columns: SampleColumn[]; preview: Record<string, unknown>[]; rows_read: number };

const zipSignature = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
export const isXlsx = (head: Buffer): boolean => head.subarray(0, 4).equals(zipSignature);

/** Header cells as column names, refusing what would make the mapping ambiguous: an empty or repeated name. */
export function checkHeader(cells: unknown[], where: string): string[] {
  const names = cells.map((cell) => (cell === null || cell === undefined ? '' : String(cellValue(cell) ?? '')).trim());
  while (names.length && !names[names.length - 1]) names.pop();
  if (!names.length) throw new SampleError(`The header (${where}) has no column names.`);
  const firstSeen = new Map<string, number>();
  for (const [index, name] of names.entries()) {
    if (!name) throw new SampleError(`Column ${index + 1} of the header (${where}) has no name: every column needs one.`);
    const earlier = firstSeen.get(name.toLowerCase());
    if (earlier !== undefined) throw new SampleError(`The column "${name}" appears twice in the header (${where}): columns ${earlier + 1} and ${index + 1}. Column names must be unique.`);
    firstSeen.set(name.toLowerCase(), index);
  }
  return names;
}

/** The column separator the header line uses most, among the four exports use. */
export function detectDelimiter(headerLine: string): string {
  const counts = [',', ';', '\t', '|'].map((delimiter) => [delimiter, headerLine.split(delimiter).length - 1] as const);
  return counts.reduce((best, candidate) => (candidate[1] > best[1] ? candidate : best))[0];
}

function decodeText(content: Buffer): string {
  if (content[0] === 0xff && content[1] === 0xfe) return new TextDecoder('utf-16le').decode(content.subarray(2));
  if (content.includes(0)) throw new SampleError('The file is neither CSV text nor an XLSX workbook (it holds binary data).');
  return new TextDecoder('utf-8').decode(content).replace(/^\uFEFF/, '');
}

/** The header and first rows of a CSV sample; a malformed line is refused with its number. */
export function readCsvSample(content: Buffer, delimiter?: string): { delimiter: string; header: string[]; rows: Record<string, unknown>[] } {
  const text = decodeText(content);
  const headerLine = text.split(/\r?\n/, 1)[0] ?? '';
  if (!text.trim()) throw new SampleError('The file is empty.');
  const separator = delimiter ?? detectDelimiter(headerLine);
  let lines: string[][];
  try {
    lines = parse(text, { delimiter: separator, skip_empty_lines: true, to_line: inferenceRows + 1, relax_quotes: false }) as string[][];
  } catch (error) {
    const { lines: line, message } = error as { lines?: number; message: string };
    throw new SampleError(`Line ${line ?? '?'} of the file cannot be read: ${message.replace(/ on line \d+$| at line \d+/, '')}.`);
  }
  const header = checkHeader(lines[0] ?? [], 'line 1');
  const rows = lines.slice(1).map((cells) => Object.fromEntries(header.map((name, index) => [name, cells[index] ?? null])));
  return { delimiter: separator, header, rows };
}

type StreamedRow = { number: number; values: unknown[] | Record<string, unknown> };

/** A streamed row's cells as plain values (exceljs gives them 1-based and sparse). */
function cellsOf(row: StreamedRow): unknown[] {
  const values = Array.isArray(row.values) ? row.values.slice(1) : [];
  return Array.from({ length: values.length }, (_, index) => cellValue(values[index]));
}

const isBlankCell = (value: unknown) => value === null || value === undefined || value === '';

/** The header (row 1) and up to `maximumRows` rows of the first worksheet of an XLSX file, checked against decompression bombs first. */
export async function readXlsxRows(path: string, maximumRows: number): Promise<{ header: string[]; rows: Record<string, unknown>[] }> {
  await guardZip(path).catch((error: Error) => {
    throw new SampleError(`The workbook cannot be read safely: ${error.message}`);
  });
  // Streamed like the XLSX engine reads data files, and only as far as the rows types are inferred from.
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(path, { worksheets: 'emit', sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'cache', entries: 'ignore' });
  let header: string[] | null = null;
  const rows: Record<string, unknown>[] = [];
  try {
    for await (const sheet of workbook as unknown as AsyncIterable<AsyncIterable<StreamedRow>>) {
      for await (const row of sheet) {
        const values = cellsOf(row);
        if (!header) {
          header = checkHeader(row.number === 1 ? values : [], 'row 1 of the first worksheet');
        } else if (!values.every(isBlankCell)) {
          rows.push(Object.fromEntries(header.map((name, index) => [name, values[index] ?? null])));
        }
        if (rows.length >= maximumRows) break;
      }
      break;
    }
  } catch (error) {
    if (error instanceof SampleError) throw error;
    throw new SampleError(`The file is not a readable XLSX workbook: ${(error as Error).message}`);
  } finally {
    (workbook as unknown as { stream?: { destroy: () => void } }).stream?.destroy();
  }
  if (!header) throw new SampleError('The file is empty: its first worksheet has no rows.');
  return { header, rows };
}

async function readXlsxSample(content: Buffer): Promise<{ header: string[]; rows: Record<string, unknown>[] }> {
  const folder = await mkdtemp(join(tmpdir(), 'cartograph-sample-'));
  const path = join(folder, 'sample.xlsx');
  try {
    await writeFile(path, content, { mode: 0o600 });
    return await readXlsxRows(path, inferenceRows);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The column names of a stored data file, refused like a sample's when one is empty or repeated. */
export async function readDataHeader(path: string, kind: 'csv' | 'xlsx', delimiter: string): Promise<string[]> {
  if (kind === 'xlsx') return (await readXlsxRows(path, 0)).header;
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(1024 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = decodeText(buffer.subarray(0, bytesRead));
    const headerLine = text.split(/\r?\n/, 1)[0] ?? '';
    if (!headerLine.trim()) throw new SampleError('The file has no header line: its first line is empty.');
    const [cells] = parse(headerLine, { delimiter }) as string[][];
    return checkHeader(cells ?? [], 'line 1');
  } catch (error) {
    if (error instanceof SampleError) throw error;
    throw new SampleError(`Line 1 of the file cannot be read: ${(error as Error).message}`);
  } finally {
    await handle.close();
  }
}

/**
 * Reads a sample: its columns with the type their values read as, the entity field the column's name suggests
 * (the file connections' common headers) and whether that field identifies the record; and the first rows.
 */
export async function readSample(content: Buffer, entity: EntityKind): Promise<SampleShape> {
  if (!content.length) throw new SampleError('The file is empty.');
  const xlsx = isXlsx(content);
  const sample = xlsx ? { delimiter: ',', ...(await readXlsxSample(content)) } : readCsvSample(content);
  if (!sample.rows.length) throw new SampleError('The file has a header but no data rows: the types of its columns are read from its rows.');
  const suggested = resolveColumns(sample.header, entity);
  const identifying = new Set(identifierFieldsOf(entity));
  const columns = sample.header.map((column) => {
    const field = suggested.get(column) ?? null;
    return { column, type: inferType(sample.rows.map((row) => row[column])), field, identifier: field !== null && identifying.has(field) };
  });
  const preview = sample.rows.slice(0, previewRows).map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value])));
  return { file_type: xlsx ? 'xlsx' : 'csv', delimiter: sample.delimiter, columns, preview, rows_read: sample.rows.length };
}
