import type { AdapterEngine } from '../engine.js';
import { createCsvEngine } from './csvEngine.js';
import { defaultFileEngineOptions, type FileEngineOptions } from './fileSource.js';
import { createJsonEngine } from './jsonEngine.js';
import { createXlsxEngine } from './xlsxEngine.js';

/** The CSV, JSON and XLSX engines, by the names their adapters use, reading uploads from `options.dataDir`. */
export function createFileEngines(options: FileEngineOptions = defaultFileEngineOptions()): Record<'csv' | 'json' | 'xlsx', AdapterEngine> {
  return { csv: createCsvEngine(options), json: createJsonEngine(options), xlsx: createXlsxEngine(options) };
}
