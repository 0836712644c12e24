import { mkdtempSync, rmSync } from 'node:fs';
import { loopbackAllowed } from '../../../support/outbound.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AdapterEngine, FetchedRecord } from '../../../../src/server/adapters/engine.js';

/** A temporary folder for the files one test file writes, removed by `remove`. */
export function scratchFolder(): { path: string; file: (name: string) => string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), 'cartograph-files-'));
  return { path, file: (name) => join(path, name), remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Runs an engine's fetch to the end, collecting records and warnings. */
export async function fetchAll(engine: AdapterEngine, config: Record<string, unknown>, adapter = 'csvfile'): Promise<{ records: FetchedRecord[]; warnings: string[] }> {
  const records: FetchedRecord[] = [];
  const warnings: string[] = [];
  for await (const record of engine.fetch({ adapter, config, signal: AbortSignal.timeout(60_000), warn: (message) => warnings.push(message), outbound: loopbackAllowed })) records.push(record);
  return { records, warnings };
}

/** The source config of a file on the server. */
export const pathSource = (file_path: string) => ({ source_type: 'path', file_path });
