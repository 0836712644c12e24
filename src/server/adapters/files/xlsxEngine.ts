import ExcelJS from 'exceljs';
import type { AdapterEngine, EntityKind, FetchContext, FetchedRecord } from '../engine.js';
import { recordFromRow, resolveColumns, uniqueHeaders } from './fieldMapping.js';
import { checkFileSource, FileSourceError, localCopyOf, sniffLocal, type FileEngineOptions } from './fileSource.js';
import { defaultZipLimits, guardZip, type ZipLimits } from './zipGuard.js';

type XlsxConfig = { entity?: EntityKind; sheet?: string; header_row?: number; column_map?: Record<string, string>; column_map_only?: boolean };
type StreamedRow = { number: number; values: unknown[] | Record<string, unknown> };
type StreamedSheet = { name: string; [Symbol.asyncIterator]: () => AsyncIterator<StreamedRow> };

/** A cell as a plain value: formulas give their cached result, rich text its text, hyperlinks their label. */
export function cellValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date || typeof value !== 'object') return value;
  const cell = value as { richText?: { text: string }[]; result?: unknown; formula?: string; text?: unknown; error?: string };
  if (cell.richText) return cell.richText.map((part) => part.text).join('');
  if ('result' in cell || cell.formula) return cellValue(cell.result);
  if (cell.text !== undefined) return cellValue(cell.text);
  if (cell.error) return null;
  return null;
}

function valuesOf(row: StreamedRow): unknown[] {
  // exceljs gives row values 1-based (index 0 unused), as a sparse array.
  const values = Array.isArray(row.values) ? row.values.slice(1) : [];
  return Array.from({ length: values.length }, (_, index) => cellValue(values[index]));
}

const isBlank = (value: unknown) => value === null || value === undefined || (typeof value === 'string' && !value.trim());

/**
 * Streams the rows of one worksheet as records, below its header row. The file is checked by content (a ZIP
 * signature) and against decompression bombs before it is parsed; the worksheet is read row by row.
 */
export async function* fetchXlsx(context: FetchContext, options: FileEngineOptions, limits: ZipLimits = defaultZipLimits): AsyncGenerator<FetchedRecord> {
  const config = context.config as XlsxConfig;
  const entity = config.entity ?? 'device';
  const headerRow = config.header_row ?? 1;
  const wanted = config.sheet?.trim() || null;
  const local = await localCopyOf(context.config, options, context.signal, context.outbound);
  try {
    const head = await sniffLocal(local.path, 4);
    if (!head.equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) throw new FileSourceError(`${local.label} is not an XLSX workbook (an .xlsx file is a ZIP archive, and this file is not one).`);
    await guardZip(local.path, limits);
    const workbook = new ExcelJS.stream.xlsx.WorkbookReader(local.path, { worksheets: 'emit', sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'cache', entries: 'ignore' });
    const seen: string[] = [];
    let found = false;
    try {
      for await (const sheet of workbook as unknown as AsyncIterable<StreamedSheet>) {
        seen.push(sheet.name);
        if (found || (wanted !== null && sheet.name !== wanted)) continue;
        found = true;
        yield* sheetRecords(sheet, context, entity, headerRow, config.column_map, config.column_map_only);
      }
    } finally {
      (workbook as unknown as { stream?: { destroy: () => void } }).stream?.destroy();
    }
    if (!found) throw new FileSourceError(wanted ? `The workbook has no worksheet named "${wanted}" (it has: ${seen.join(', ') || 'none'}).` : 'The workbook has no worksheet.');
  } finally {
    await local.remove();
  }
}

async function* sheetRecords(sheet: StreamedSheet, context: FetchContext, entity: EntityKind, headerRow: number, columnMap: Record<string, string> | undefined, explicitOnly = false): AsyncGenerator<FetchedRecord> {
  let headers: string[] | null = null;
  let columns: Map<string, string> = new Map();
  let empty = true;
  let rows = 0;
  for await (const row of sheet as AsyncIterable<StreamedRow>) {
    if (context.signal.aborted) throw context.signal.reason;
    empty = false;
    if (row.number < headerRow) continue;
    const values = valuesOf(row);
    if (!headers) {
      const texts = values.filter((value) => typeof value === 'string' && value.trim());
      if (row.number !== headerRow || !texts.length) {
        throw new FileSourceError(`Worksheet "${sheet.name}" has no header row: row ${headerRow} ${row.number !== headerRow ? 'is empty' : 'holds no column names (no text cells)'}. Put the column names in row ${headerRow}, or set the header row.`);
      }
      headers = uniqueHeaders(values);
      columns = resolveColumns(headers, entity, columnMap, explicitOnly);
      continue;
    }
    if (values.every(isBlank)) continue;
    const cells: Record<string, unknown> = {};
    for (const [index, value] of values.entries()) {
      if (isBlank(value)) continue;
      cells[headers[index] ?? `column_${index + 1}`] = value;
    }
    rows += 1;
    yield recordFromRow(cells, entity, columns);
  }
  if (!headers) throw new FileSourceError(`Worksheet "${sheet.name}" has no header row: ${empty ? 'the sheet is empty' : `it has fewer than ${headerRow} rows`}.`);
  if (!rows) context.warn(`Worksheet "${sheet.name}" has no rows below its header.`);
}

export function createXlsxEngine(options: FileEngineOptions): AdapterEngine {
  return {
    name: 'xlsx',
    test: ({ config, signal, outbound }) => checkFileSource(config, options, signal, outbound),
    fetch: (context) => fetchXlsx(context, options),
  };
}
