// Replays a file engine adapter's fixture (the SBOM engine): the files the fixture names, kept beside it in the
// adapter's fixtures/ folder as the tools wrote them, are put in a fresh folder that the engine may import from,
// and the real engine reads that folder as a connection whose source is a folder on the server. The conformance
// test and the kit's `check` both replay through here.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AdapterEngine, ConnectivityResult, FetchedRecord } from '../../src/server/adapters/engine.js';
import type { FileEngineOptions } from '../../src/server/adapters/files/fileSource.js';
import { loopbackAllowed, type ReplayResult } from './fixtureReplay.js';

export type FileFixture = {
  description: string;
  /** `file`: the engine reads the listed files of the fixtures folder. */
  protocol: 'file';
  /** The connection's config; its `source` is pointed at the folder the files are put in. */
  config: Record<string, unknown>;
  /** Files of the fixtures folder, by name. */
  files: string[];
  expected: { count: number; records: { entity: string; fields: Record<string, unknown> }[] };
  /** A documented failure: the files that alone bring it, and the connectivity reason it must give. */
  failure?: { files: string[]; reason: string };
};

/** An engine reading from (and only from) one folder. */
export type FileEngineFactory = (options: FileEngineOptions) => AdapterEngine;

const replayTimeoutMs = 20_000;

/** The named files copied into a new folder; answers the folder and the names no file of the fixtures folder has. */
function stage(fixtureFolder: string, files: string[]): { folder: string; missing: string[] } {
  const folder = mkdtempSync(join(tmpdir(), 'cartograph-file-replay-'));
  const missing: string[] = [];
  for (const name of files) {
    const from = join(fixtureFolder, name);
    if (name.includes('/') || name.includes('\\') || !existsSync(from)) missing.push(name);
    else copyFileSync(from, join(folder, name));
  }
  return { folder, missing };
}

const configFor = (fixture: FileFixture, folder: string) => ({ ...fixture.config, source: { source_type: 'folder', folder_path: folder } });

/** Fetches the staged files through the engine; a failing fetch is reported, not thrown. `unmatched` names missing files. */
export async function replayFileFixture(slug: string, fixture: FileFixture, fixtureFolder: string, create: FileEngineFactory): Promise<ReplayResult> {
  const { folder, missing } = stage(fixtureFolder, fixture.files);
  const engine = create({ dataDir: folder, importRoots: [folder] });
  const warnings: string[] = [];
  const records: FetchedRecord[] = [];
  try {
    for await (const record of engine.fetch({ adapter: slug, config: configFor(fixture, folder), signal: AbortSignal.timeout(replayTimeoutMs), warn: (message) => warnings.push(message), outbound: loopbackAllowed })) records.push(record);
    return { records, warnings, unmatched: missing };
  } catch (error) {
    return { records, warnings, unmatched: missing, error: error instanceof Error ? error.message : String(error) };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The engine's connectivity check against the staged files (the fixture's, or `files`, e.g. its documented failure's). */
export async function replayFileConnectivityCheck(slug: string, fixture: FileFixture, fixtureFolder: string, create: FileEngineFactory, files = fixture.files): Promise<ConnectivityResult> {
  const { folder } = stage(fixtureFolder, files);
  try {
    return await create({ dataDir: folder, importRoots: [folder] }).test({ adapter: slug, config: configFor(fixture, folder), signal: AbortSignal.timeout(replayTimeoutMs), outbound: loopbackAllowed });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
