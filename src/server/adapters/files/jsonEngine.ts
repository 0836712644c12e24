import type { AdapterEngine, EntityKind, FetchContext, FetchedRecord } from '../engine.js';
import { recordFromRow, resolveColumns, WarningCounter } from './fieldMapping.js';
import { checkFileSource, openFileSource, type FileEngineOptions } from './fileSource.js';
import { JsonRecordStream } from './jsonRecordStream.js';
import { textDecoder } from './textDecoding.js';

type JsonConfig = { entity?: EntityKind; records_path?: string; column_map?: Record<string, string> };

const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `a ${typeof value}`);

/**
 * Streams the objects of a JSON file's records list (the top-level array, the array at the records path, or the
 * lines of a JSON Lines file). A file that is not a list fails with a message saying what it is instead; an element
 * that is not an object is skipped with a counted warning.
 */
export async function* fetchJson(context: FetchContext, options: FileEngineOptions): AsyncGenerator<FetchedRecord> {
  const config = context.config as JsonConfig;
  const entity = config.entity ?? 'device';
  const path = (config.records_path ?? '').split('.').map((part) => part.trim()).filter(Boolean);
  const reader = new JsonRecordStream(path);
  const skipped = new WarningCounter(context.warn);
  const opened = await openFileSource(context.config, options, context.signal, context.outbound);
  const text = opened.stream.pipe(textDecoder('utf-8', 'JSON', context.warn));
  opened.stream.on('error', (error) => text.destroy(error));
  let position = 0;
  const columnsByShape = new Map<string, Map<string, string>>();
  function* drain(): Generator<FetchedRecord> {
    for (const value of reader.ready) {
      position += 1;
      if (!value || typeof value !== 'object' || Array.isArray(value)) {
        skipped.add(`Record ${position} of ${opened.label} was skipped: it is ${kindOf(value)}, not an object.`);
        continue;
      }
      const row = value as Record<string, unknown>;
      // Records of one file mostly share their keys: the mapping is resolved once per set of keys.
      const keys = Object.keys(row);
      const shape = keys.join('\u0000');
      let columns = columnsByShape.get(shape);
      if (!columns) {
        columns = resolveColumns([...keys, ...Object.keys(config.column_map ?? {}).filter((column) => !keys.includes(column))], entity, config.column_map);
        if (columnsByShape.size < 1000) columnsByShape.set(shape, columns);
      }
      yield recordFromRow(row, entity, columns);
    }
    reader.ready.length = 0;
  }
  try {
    for await (const chunk of text as AsyncIterable<string>) {
      if (context.signal.aborted) throw context.signal.reason;
      reader.push(chunk);
      yield* drain();
    }
    reader.end();
    yield* drain();
  } finally {
    opened.stream.destroy();
  }
  skipped.finish('records that are not objects');
  if (!position) context.warn(`The list of records in ${opened.label} is empty.`);
}

export function createJsonEngine(options: FileEngineOptions): AdapterEngine {
  return {
    name: 'json',
    test: ({ config, signal, outbound }) => checkFileSource(config, options, signal, outbound),
    fetch: (context) => fetchJson(context, options),
  };
}
