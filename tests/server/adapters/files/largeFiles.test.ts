import { createWriteStream, statSync } from 'node:fs';
import { loopbackAllowed } from '../../../support/outbound.js';
import { once } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import type { AdapterEngine } from '../../../../src/server/adapters/engine.js';
import { createFileEngines } from '../../../../src/server/adapters/files/fileEngines.js';
import { pathSource, scratchFolder } from './helpers.js';

const folder = scratchFolder();
const engines = createFileEngines({ dataDir: folder.path, importRoots: [folder.path] });
afterAll(() => folder.remove());

const rows = 200_000;
const padding = 'x'.repeat(240);

/** Writes `count` lines produced by `line` through a stream, honouring back-pressure. */
async function writeLines(path: string, header: string, footer: string, line: (index: number) => string): Promise<number> {
  const out = createWriteStream(path);
  if (header) out.write(header);
  for (let index = 0; index < rows; index += 1) if (!out.write(line(index))) await once(out, 'drain');
  out.end(footer);
  await once(out, 'finish');
  return statSync(path).size;
}

// A full collection before each sample, so the heap measured is what the engine keeps alive, not garbage a busy
// machine has not collected yet (which made the bound flaky under load).
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const liveHeap = () => {
  collectGarbage();
  return process.memoryUsage().heapUsed;
};

/** Reads every record, sampling the live heap as it goes; the records are dropped as they arrive, as the pipeline's batches are. */
async function countWithPeakHeap(engine: AdapterEngine, config: Record<string, unknown>): Promise<{ count: number; growth: number; warnings: string[] }> {
  const baseline = liveHeap();
  let peak = baseline;
  let count = 0;
  const warnings: string[] = [];
  for await (const record of engine.fetch({ adapter: 'file', config, signal: AbortSignal.timeout(120_000), warn: (message) => warnings.push(message), outbound: loopbackAllowed })) {
    count += 1;
    if (count === 1) expect(record.fields.Hostname).toBe('host-000000');
    if (count % 20_000 === 0) peak = Math.max(peak, liveHeap());
  }
  return { count, growth: peak - baseline, warnings };
}

// Far below what holding the file (or its records) would take: the file alone is larger than this bound.
const heapBound = 48 * 1024 * 1024;

describe('large files', () => {
  it('streams a 200,000-row CSV with bounded heap growth', async () => {
    const size = await writeLines(folder.file('large.csv'), 'hostname,serial,ip,os,notes\n', '', (index) => `host-${String(index).padStart(6, '0')},SN${index},10.${index >> 16}.${(index >> 8) & 255}.${index & 255},Windows,${padding}\n`);
    expect(size).toBeGreaterThan(heapBound);
    const { count, growth, warnings } = await countWithPeakHeap(engines.csv, { source: pathSource(folder.file('large.csv')), entity: 'device', delimiter: ',', encoding: 'utf-8' });
    expect(warnings).toEqual([]);
    expect(count).toBe(rows);
    expect(growth).toBeLessThan(heapBound);
  });

  it('streams a 200,000-element JSON array under a records path with bounded heap growth', async () => {
    const size = await writeLines(folder.file('large.json'), '{"meta":{"exported":"2026-11-22"},"data":{"items":[', ']}}', (index) => `${index ? ',' : ''}{"hostname":"host-${String(index).padStart(6, '0')}","serial":"SN${index}","os":{"name":"Windows"},"notes":"${padding}"}\n`);
    expect(size).toBeGreaterThan(heapBound);
    const { count, growth } = await countWithPeakHeap(engines.json, { source: pathSource(folder.file('large.json')), entity: 'device', records_path: 'data.items' });
    expect(count).toBe(rows);
    expect(growth).toBeLessThan(heapBound);
  });

  it('streams a 20,000-row XLSX written by a streaming writer, row by row', async () => {
    const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: folder.file('large.xlsx'), useSharedStrings: true });
    const sheet = writer.addWorksheet('Assets');
    sheet.addRow(['Hostname', 'Serial', 'IP', 'Notes']).commit();
    for (let index = 0; index < 20_000; index += 1) sheet.addRow([`host-${String(index).padStart(6, '0')}`, `SN${index}`, `10.1.${index >> 8 & 255}.${index & 255}`, padding]).commit();
    sheet.commit();
    await writer.commit();
    const { count, growth } = await countWithPeakHeap(engines.xlsx, { source: pathSource(folder.file('large.xlsx')), entity: 'device', sheet: 'Assets' });
    expect(count).toBe(20_000);
    expect(growth).toBeLessThan(heapBound);
  });
});
