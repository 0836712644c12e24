import { parse, type CsvError } from 'csv-parse';
import type { AdapterEngine, EntityKind, FetchContext, FetchedRecord } from '../engine.js';
import { recordFromRow, resolveColumns, uniqueHeaders, WarningCounter } from './fieldMapping.js';
import { checkFileSource, openFileSource, type FileEngineOptions } from './fileSource.js';
import { textDecoder, type TextEncoding } from './textDecoding.js';

/** One record may not exceed this many characters: an unterminated quote cannot swallow the file into memory. */
export const maximumCsvRecordSize = 4 * 1024 * 1024;

type CsvConfig = { entity?: EntityKind; delimiter?: string; encoding?: TextEncoding; has_header?: boolean; column_map?: Record<string, string>; column_map_only?: boolean };

/**
 * Streams the rows of a CSV file as records. A malformed line (wrong column count, bad quoting) is skipped with a
 * warning naming its line and counted; the file is parsed as it arrives, so its size does not matter.
 */
export async function* fetchCsv(context: FetchContext, options: FileEngineOptions): AsyncGenerator<FetchedRecord> {
  const config = context.config as CsvConfig;
  const entity = config.entity ?? 'device';
  const hasHeader = config.has_header !== false;
  const skipped = new WarningCounter(context.warn);
  const opened = await openFileSource(context.config, options, context.signal, context.outbound);
  let columns: Map<string, string> | null = null;
  let lastSkippedLine = -1;
  let rows = 0;
  const parser = parse({
    delimiter: config.delimiter ?? ',',
    bom: true,
    columns: hasHeader ? (header: unknown[]) => uniqueHeaders(header) : false,
    skip_empty_lines: true,
    skip_records_with_error: true,
    max_record_size: maximumCsvRecordSize,
    info: true,
  });
  parser.on('skip', (error: CsvError & { lines?: number }) => {
    // One broken record can raise several errors on the same line: it is one skipped line.
    if (error.lines === lastSkippedLine) return;
    lastSkippedLine = error.lines ?? -1;
    skipped.add(`Line ${error.lines} of ${opened.label} was skipped: ${error.message.replace(/ on line \d+$| at line \d+/, '')}`);
  });
  const decoder = textDecoder(config.encoding ?? 'utf-8', 'CSV', context.warn);
  const fail = (error: Error) => parser.destroy(error);
  opened.stream.on('error', fail);
  decoder.on('error', fail);
  opened.stream.pipe(decoder).pipe(parser);
  try {
    for await (const { record } of parser as AsyncIterable<{ record: Record<string, string> | string[] }>) {
      if (context.signal.aborted) throw context.signal.reason;
      // Without a header the columns are named column_1, column_2… (the parser holds every row to the first one's length).
      const row = Array.isArray(record) ? Object.fromEntries(record.map((value, index) => [`column_${index + 1}`, value])) : record;
      columns ??= resolveColumns(Object.keys(row), entity, config.column_map, config.column_map_only);
      rows += 1;
      yield recordFromRow(row, entity, columns);
    }
  } finally {
    opened.stream.destroy();
  }
  skipped.finish('malformed lines');
  if (!rows && !skipped.total) context.warn(`${opened.label} has no data rows.`);
}

export function createCsvEngine(options: FileEngineOptions): AdapterEngine {
  return {
    name: 'csv',
    test: ({ config, signal, outbound }) => checkFileSource(config, options, signal, outbound),
    fetch: (context) => fetchCsv(context, options),
  };
}
