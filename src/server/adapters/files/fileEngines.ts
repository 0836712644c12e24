import type { AdapterEngine } from '../engine.js';
import { createCsvEngine } from './csvEngine.js';
import { defaultFileEngineOptions, type FileEngineOptions } from './fileSource.js';
import { createJsonEngine } from './jsonEngine.js';
import { createSbomEngine } from '../sbom/sbomEngine.js';
import { createXlsxEngine } from './xlsxEngine.js';

/** The CSV, JSON, XLSX and SBOM engines, by the names their adapters use, reading uploads from `options.dataDir`. */
export function createFileEngines(options: FileEngineOptions = defaultFileEngineOptions()): Record<'csv' | 'json' | 'xlsx' | 'sbom', AdapterEngine> {
  return { csv: createCsvEngine(options), json: createJsonEngine(options), xlsx: createXlsxEngine(options), sbom: createSbomEngine(options) };
}
