// `npm run adapter -- check <slug>`: everything an adapter folder must satisfy before it fetches, and what its
// fixture's replay hands over (records per entity, how many carry each identity field correlation needs).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import type { FetchedRecord } from '../../src/server/adapters/engine.js';
import type { Manifest } from '../../src/server/adapters/http/manifest.js';
import { adapterFiles, adaptersFolder, configForForm, has, readJson, schemaErrors, unreadFormFields } from './adapterFolder.js';
import { replayConnectivityCheck, replayFixture, type ReplayResult } from './fixtureReplay.js';
import { replayFileConnectivityCheck, replayFileFixture, type FileEngineFactory, type FileFixture } from './fileReplay.js';
import type { AdapterEngine, ConnectivityResult } from '../../src/server/adapters/engine.js';
import { replayGmpConnectivityCheck, replayGmpFixture, type GmpFixture } from './gmpReplay.js';
import { greenboneEngine } from '../../src/server/adapters/greenbone/greenboneEngine.js';
import { sqlViewsEngine } from '../../src/server/adapters/sql/sqlViewsEngine.js';
import { createSbomEngine } from '../../src/server/adapters/sbom/sbomEngine.js';
import { dirname } from 'node:path';
import { replayTdsConnectivityCheck, replayTdsFixture, type TdsFixture } from './tdsReplay.js';
import { isSubset, type ReplayFixture } from './replayServer.js';
import { scaffoldMarker } from './scaffold.js';

type Node = Record<string, unknown>;

export type CheckReport = {
  slug: string;
  /** Anything that keeps the adapter from fetching or from matching its fixture: the check fails on any. */
  problems: string[];
  /** What the engine warned about during the replay (shown, not failing). */
  warnings: string[];
  /** Requests the engine sent that no exchange of the fixture answered. */
  unmatched: string[];
  /** Records handed over, per entity. */
  entities: Record<string, number>;
  /** Per entity that names a device: the share (0–1) of its records carrying each identity field. */
  identity: Record<string, Record<string, number>>;
};

/** Identity fields correlation joins devices on; "cloud/agent id" counts any of the vendor's own device ids. */
export const identityFields: Record<string, string[]> = {
  Hostname: ['Hostname'],
  SerialNumber: ['SerialNumber'],
  MacAddresses: ['MacAddresses'],
  IpAddresses: ['IpAddresses'],
  'cloud/agent id': ['CloudInstanceId', 'AgentId', 'DeviceId'],
};
/** A fixture replayed against a local server of the engine's protocol (GMP over TLS, SQL Server's TDS). */
export type SocketFixture = GmpFixture | TdsFixture;

type SocketEngine = {
  engine: AdapterEngine;
  /** The `protocol` its fixtures name. */
  protocol: SocketFixture['protocol'];
  replay: (slug: string, fixture: SocketFixture, engine: AdapterEngine) => Promise<ReplayResult>;
  check: (slug: string, fixture: SocketFixture, engine: AdapterEngine, changes?: Record<string, unknown>) => Promise<ConnectivityResult>;
};

/** Code engines whose adapters replay a socket fixture instead of an HTTP manifest: the engine name → how it replays. */
export const socketEngines: Record<'gmp' | 'sql-views', SocketEngine> = {
  gmp: { engine: greenboneEngine, protocol: 'gmp', replay: (slug, fixture, engine) => replayGmpFixture(slug, fixture as GmpFixture, engine), check: (slug, fixture, engine, changes) => replayGmpConnectivityCheck(slug, fixture as GmpFixture, engine, changes) },
  'sql-views': { engine: sqlViewsEngine, protocol: 'tds', replay: (slug, fixture, engine) => replayTdsFixture(slug, fixture as TdsFixture, engine), check: (slug, fixture, engine, changes) => replayTdsConnectivityCheck(slug, fixture as TdsFixture, engine, changes) },
};
type SocketEngineName = keyof typeof socketEngines;
const isSocketEngine = (engine: unknown): engine is SocketEngineName => typeof engine === 'string' && engine in socketEngines;
/** Code engines whose adapters replay files kept in their fixtures folder (the SBOM engine). */
export const fileEngines: Record<string, FileEngineFactory> = { sbom: createSbomEngine };
const isFileEngine = (engine: unknown): engine is string => typeof engine === 'string' && engine in fileEngines;

/** Entities whose records name a device (a software, finding or service record carries its device's identifiers). */
const deviceEntities = new Set(['device', 'software', 'vulnerability', 'service']);

function present(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  return !Array.isArray(value) || value.some(present);
}

function summarise(records: FetchedRecord[]): Pick<CheckReport, 'entities' | 'identity'> {
  const entities: Record<string, number> = {};
  for (const record of records) entities[record.entity] = (entities[record.entity] ?? 0) + 1;
  const identity: Record<string, Record<string, number>> = {};
  for (const entity of Object.keys(entities).filter((name) => deviceEntities.has(name))) {
    const ofEntity = records.filter((record) => record.entity === entity);
    identity[entity] = Object.fromEntries(Object.entries(identityFields).map(([label, fields]) => [label, ofEntity.filter((record) => fields.some((field) => present(record.fields[field]))).length / ofEntity.length]));
  }
  return { entities, identity };
}

/** Reads a JSON file of the folder, adding a problem (and answering undefined) when it is missing or malformed. */
function readPart<T>(path: string, problems: string[]): T | undefined {
  if (!has(path)) {
    problems.push(`${path} is missing`);
    return undefined;
  }
  try {
    return readJson<T>(path);
  } catch (error) {
    problems.push(`${path} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/** The checks of the files themselves (no replay). */
function checkFiles(slug: string, root: string, problems: string[]) {
  const files = adapterFiles(slug, root);
  const adapter = readPart<Node>(files.adapter, problems);
  if (adapter) {
    for (const error of schemaErrors(readJson<Node>(files.adapterMeta), adapter)) problems.push(`${files.adapter}: ${error}`);
    if (adapter.slug !== slug) problems.push(`${files.adapter}: slug is ${JSON.stringify(adapter.slug)}, not the folder name ${slug}`);
    if (adapter.engine !== 'http' && !isSocketEngine(adapter.engine) && !isFileEngine(adapter.engine)) problems.push(`${files.adapter}: engine is ${JSON.stringify(adapter.engine)}; set "http" once the manifest and fixture pass`);
  }
  const connection = readPart<Node>(files.connection, problems);
  if (connection) {
    if (connection.$id !== `cartograph:adapters/${slug}/connection`) problems.push(`${files.connection}: $id must be cartograph:adapters/${slug}/connection`);
    try {
      for (const [index, example] of ((connection.examples as unknown[]) ?? []).entries()) for (const error of schemaErrors(connection, example)) problems.push(`${files.connection}: example ${index + 1}: ${error}`);
    } catch (error) {
      problems.push(`${files.connection} does not compile: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const socketEngine = isSocketEngine(adapter?.engine) ? adapter.engine : null;
  const fileEngine = isFileEngine(adapter?.engine) ? adapter.engine : null;
  const manifest = socketEngine || fileEngine ? undefined : readPart<Manifest>(files.manifest, problems);
  if (manifest) {
    for (const error of schemaErrors(readJson<Node>(files.manifestMeta), manifest)) problems.push(`${files.manifest}: ${error}`);
    if (connection) for (const path of unreadFormFields(readFileSync(files.manifest, 'utf8'), connection)) problems.push(`${files.manifest} never reads the form field ${path}`);
  }
  const fixture = readPart<ReplayFixture>(files.fixture, problems);
  if (fixture && connection) {
    try {
      for (const error of schemaErrors(connection, configForForm(fixture.config ?? {}, connection))) problems.push(`${files.fixture}: config does not fill the form: ${error}`);
    } catch {
      // The connection schema's compile error is reported above.
    }
    if (fileEngine) {
      if (!(fixture as unknown as FileFixture).files?.length) problems.push(`${files.fixture} names no files`);
    } else if (!fixture.exchanges?.length) problems.push(`${files.fixture} has no exchanges`);
    if (!fixture.expected?.records?.length) problems.push(`${files.fixture} expects no records`);
  }
  for (const path of [files.adapter, files.connection, files.manifest, files.fixture, files.instructions]) {
    if (has(path) && readFileSync(path, 'utf8').includes(scaffoldMarker)) problems.push(`${path} still holds the scaffold's placeholder text`);
  }
  const protocol = socketEngine ? socketEngines[socketEngine].protocol : null;
  if (socketEngine && fixture && (fixture as unknown as SocketFixture).protocol !== protocol) problems.push(`${files.fixture}: protocol must be "${protocol}" for the ${socketEngine} engine`);
  if (fileEngine && fixture && (fixture as unknown as FileFixture).protocol !== 'file') problems.push(`${files.fixture}: protocol must be "file" for the ${fileEngine} engine`);
  return { manifest, fixture, socketEngine, fileEngine };
}

/** What a problem with the replayed records is, shared by every kind of replay. */
function checkRecords(result: ReplayResult, expected: FileFixture['expected'], problems: string[], unmatched = (request: string) => `no exchange answers ${request}`): void {
  if (result.error) problems.push(`the replay failed: ${result.error}`);
  for (const request of result.unmatched) problems.push(unmatched(request));
  if (result.records.length !== expected.count) problems.push(`the replay handed over ${result.records.length} records, the fixture expects ${expected.count}`);
  for (const record of expected.records ?? []) {
    if (!result.records.some((found) => found.entity === record.entity && isSubset(record.fields, found.fields))) problems.push(`no ${record.entity} record with ${JSON.stringify(record.fields)}`);
  }
  if (result.records.some((record) => !record.raw)) problems.push('a record has no raw vendor record');
}

/** A file engine's replay: the fixture's files read through the engine, its connectivity check and its documented failure. */
async function checkFileReplay(slug: string, fixture: FileFixture, fixtureFile: string, create: FileEngineFactory, report: CheckReport): Promise<void> {
  const folder = dirname(fixtureFile);
  const result = await replayFileFixture(slug, fixture, folder, create);
  Object.assign(report, { warnings: result.warnings, unmatched: result.unmatched }, summarise(result.records));
  checkRecords(result, fixture.expected, report.problems, (name) => `the fixture names ${name}, which is not in ${folder}`);
  const connectivity = await replayFileConnectivityCheck(slug, fixture, folder, create);
  if (!connectivity.ok) report.problems.push(`the connectivity check failed (${connectivity.reason}): ${connectivity.detail}`);
  if (fixture.failure) {
    const failed = await replayFileConnectivityCheck(slug, fixture, folder, create, fixture.failure.files);
    if (failed.ok || failed.reason !== fixture.failure.reason) report.problems.push(`the documented failure gave ${failed.ok ? 'success' : failed.reason}, not ${fixture.failure.reason}`);
  }
}

/** Every check of one adapter; replays only when the files are sound enough to. */
export async function checkAdapter(slug: string, root = adaptersFolder): Promise<CheckReport> {
  const problems: string[] = [];
  const report: CheckReport = { slug, problems, warnings: [], unmatched: [], entities: {}, identity: {} };
  if (!has(adapterFiles(slug, root).folder)) {
    problems.push(`no adapter folder ${adapterFiles(slug, root).folder}`);
    return report;
  }
  const { manifest, fixture, socketEngine, fileEngine } = checkFiles(slug, root, problems);
  if (fileEngine) {
    const fileFixture = fixture as unknown as FileFixture | undefined;
    if (fileFixture?.expected && fileFixture.protocol === 'file' && fileFixture.files?.length) await checkFileReplay(slug, fileFixture, adapterFiles(slug, root).fixture, fileEngines[fileEngine], report);
    return report;
  }
  if ((!manifest && !socketEngine) || !fixture?.exchanges?.length || !fixture.expected) return report;
  const socket: SocketEngine | null = socketEngine ? socketEngines[socketEngine] : null;
  const socketFixture = fixture as unknown as SocketFixture;
  // A fixture of another protocol cannot be replayed by this engine (the problem is already reported).
  if (socket && socketFixture.protocol !== socket.protocol) return report;
  const result: ReplayResult = socket ? await socket.replay(slug, socketFixture, socket.engine) : await replayFixture(slug, fixture, manifest!);
  Object.assign(report, { warnings: result.warnings, unmatched: result.unmatched }, summarise(result.records));
  checkRecords(result, fixture.expected, problems);
  const connectivity = socket ? await socket.check(slug, socketFixture, socket.engine) : await replayConnectivityCheck(slug, fixture, manifest!);
  if (!connectivity.ok) problems.push(`the connectivity check failed (${connectivity.reason}): ${connectivity.detail}`);
  const failure = socket ? socketFixture.failure : fixture.failure;
  if (failure) {
    const failed = socket ? await socket.check(slug, socketFixture, socket.engine, failure.config) : await replayConnectivityCheck(slug, fixture, manifest!, failure.config);
    if (failed.ok || failed.reason !== failure.reason) problems.push(`the documented failure gave ${failed.ok ? 'success' : failed.reason}, not ${failure.reason}`);
  }
  return report;
}

/** Every adapter folder that has a manifest (what the HTTP replay conformance test replays). */
export function slugsWithManifest(root = adaptersFolder): string[] {
  return readdirSync(root)
    .filter((name) => statSync(`${root}/${name}`).isDirectory() && has(adapterFiles(name, root).manifest))
    .sort();
}

/** Every adapter of a file code engine (the SBOM engine) with a replay fixture. */
export function slugsWithFileFixture(root = adaptersFolder): string[] {
  return readdirSync(root)
    .filter((name) => statSync(`${root}/${name}`).isDirectory() && has(adapterFiles(name, root).adapter) && has(adapterFiles(name, root).fixture))
    .filter((name) => isFileEngine(readJson<Node>(adapterFiles(name, root).adapter).engine))
    .sort();
}

/** Every adapter of a socket code engine (Greenbone's GMP, the SQL Server views of sql-views) with a replay fixture. */
export function slugsWithSocketFixture(root = adaptersFolder): string[] {
  return readdirSync(root)
    .filter((name) => statSync(`${root}/${name}`).isDirectory() && has(adapterFiles(name, root).adapter) && has(adapterFiles(name, root).fixture))
    .filter((name) => isSocketEngine(readJson<Node>(adapterFiles(name, root).adapter).engine))
    .sort();
}
