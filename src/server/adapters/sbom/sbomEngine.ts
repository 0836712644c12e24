import { createReadStream } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import type { AdapterEngine, ConnectivityResult, FetchContext, FetchedRecord } from '../engine.js';
import { WarningCounter } from '../files/fieldMapping.js';
import { FileSourceError, openFileSource, type FileEngineOptions } from '../files/fileSource.js';
import { SbomFormatError, type SbomContents } from './sbomContents.js';
import { parseSbom, readBounded } from './sbomDocument.js';
import { sbomRecords } from './sbomRecords.js';

// The SBOM engine: CycloneDX and SPDX JSON files (syft, trivy, cdxgen) read as the software installed on the image
// or machine each describes. Its source is a file like the CSV engine's (an upload, a URL, a path on the server),
// or a folder of them on the server, one SBOM per file, where a file that cannot be read is skipped with a warning
// and the others are read.

type SbomConfig = { source?: { source_type?: string; folder_path?: string; file_name?: string; file_url?: string }; host_name?: string };

/** Files of a folder read as SBOMs: `*.json` and `*.json.gz` (`.cdx.json`, `.spdx.json` included). */
const sbomFilePattern = /\.json(\.gz)?$/i;
/** How many files of a folder the connectivity check reads (all are read by a fetch). */
const filesTestRead = 20;
/** Notes named one by one before they are only counted. */
const notesNamed = 20;

const within = (root: string, path: string) => {
  const inner = relative(root, path);
  return inner === '' || (!inner.startsWith('..') && !isAbsolute(inner));
};

/**
 * An allowed import folder itself, or a folder inside one (where a pipeline drops its SBOMs is often the folder
 * allowed), judged by its real path: a symbolic link inside an allowed folder cannot lead out of it.
 */
async function allowedFolder(folder: string, options: FileEngineOptions): Promise<string> {
  const outside = () => new FileSourceError(options.importRoots.length ? `${folder} is outside the folders this server may import from (${options.importRoots.join(', ')}).` : 'Reading files from the server is turned off: the administrator lists the allowed folders in CARTOGRAPH_IMPORT_DIRS.');
  const path = resolve(folder);
  if (!isAbsolute(folder) || !options.importRoots.some((root) => within(root, path))) throw outside();
  const real = await realpath(path).catch(() => null);
  if (!real || !(await stat(real)).isDirectory()) throw new FileSourceError(`${folder} is not a folder.`);
  const roots = await Promise.all(options.importRoots.map((root) => realpath(root).catch(() => root)));
  if (!roots.some((root) => within(root, real))) throw outside();
  return real;
}

/** The SBOM files of a folder the server may import from, by name; symbolic links are not followed out of it. */
async function folderFiles(folder: string, options: FileEngineOptions): Promise<{ folder: string; names: string[] }> {
  const path = await allowedFolder(folder, options);
  const entries = await readdir(path, { withFileTypes: true });
  const names = entries.filter((entry) => entry.isFile() && sbomFilePattern.test(entry.name)).map((entry) => entry.name).sort();
  if (!names.length) throw new FileSourceError(`${folder} holds no SBOM file (*.json or *.json.gz).`);
  return { folder: path, names };
}

/** Reads and parses one SBOM; a content problem is a FileSourceError with the reader's message. */
async function readSbomFile(open: () => Promise<{ label: string; stream: Readable }>): Promise<{ label: string; contents: SbomContents }> {
  const opened = await open();
  try {
    return { label: opened.label, contents: parseSbom(await readBounded(opened.stream, opened.label), opened.label) };
  } catch (error) {
    if (error instanceof SbomFormatError) throw new FileSourceError(error.message);
    throw error;
  } finally {
    opened.stream.destroy();
  }
}

const openLocal = (folder: string, name: string, signal: AbortSignal) => async () => ({ label: name, stream: createReadStream(join(folder, name), { signal }) });

/** The name an SBOM's file had, for a device named after it: the upload's name, the path's or the URL's last segment. */
function fileNameOf(config: SbomConfig, label: string): string {
  const source = config.source ?? {};
  if (source.source_type === 'url' && source.file_url) return decodeURIComponent(new URL(source.file_url).pathname.split('/').pop() || 'sbom');
  return source.file_name ?? label;
}

/** A short description of one SBOM, for the connectivity check: "CycloneDX 1.6 by syft 1.4.1: image alpine:3.19, 15 packages". */
function describe(contents: SbomContents): string {
  const subject = contents.subject;
  const what = subject.kind === 'image' ? `image ${subject.reference ?? subject.digest ?? '(unnamed)'}` : subject.kind === 'host' ? `device ${subject.hostname}` : subject.name ? `${subject.type ?? 'component'} ${subject.name}` : 'no named subject';
  return `${contents.format}${contents.tool ? ` by ${contents.tool}` : ''}: ${what}, ${contents.packages.length} package${contents.packages.length === 1 ? '' : 's'}`;
}

export async function* fetchSbom(context: FetchContext, options: FileEngineOptions): AsyncGenerator<FetchedRecord> {
  const config = context.config as SbomConfig;
  let notes = 0;
  const note = (message: string) => {
    notes += 1;
    if (notes <= notesNamed) context.warn(message);
  };
  const emit = (contents: SbomContents, fileName: string, label: string) => {
    const { records, notes: found } = sbomRecords(contents, { fileName, hostName: config.host_name }, label);
    found.forEach(note);
    return records;
  };
  if (config.source?.source_type !== 'folder') {
    const { label, contents } = await readSbomFile(() => openFileSource(context.config, options, context.signal, context.outbound));
    yield* emit(contents, fileNameOf(config, label), label);
  } else {
    const { folder, names } = await folderFiles(config.source.folder_path ?? '', options);
    const failed = new WarningCounter(context.warn);
    let firstFailure = '';
    for (const name of names) {
      if (context.signal.aborted) throw context.signal.reason;
      let read: Awaited<ReturnType<typeof readSbomFile>>;
      try {
        read = await readSbomFile(openLocal(folder, name, context.signal));
      } catch (error) {
        // One bad file (not an SBOM, too large, gone since the listing) costs only itself.
        if (context.signal.aborted) throw context.signal.reason;
        const message = error instanceof FileSourceError ? error.message : `${name} cannot be read: ${(error as Error).message}`;
        firstFailure ||= message;
        failed.add(`${message} It was skipped.`);
        continue;
      }
      yield* emit(read.contents, name, name);
    }
    failed.finish('SBOM files that cannot be read were');
    if (failed.total === names.length) throw new FileSourceError(`None of the ${names.length} SBOM files in ${config.source.folder_path} can be read; the first: ${firstFailure}`);
  }
  if (notes > notesNamed) context.warn(`${notes} notes on the SBOMs in all (the first ${notesNamed} are listed).`);
}

/** The connectivity check: the file (or the folder's first files) can be read as SBOMs, and what they describe. */
async function testSbom(context: Omit<FetchContext, 'warn'>, options: FileEngineOptions): Promise<ConnectivityResult> {
  const config = context.config as SbomConfig;
  try {
    if (config.source?.source_type !== 'folder') {
      const { label, contents } = await readSbomFile(() => openFileSource(context.config, options, context.signal, context.outbound));
      return { ok: true, detail: `${label} can be read: ${describe(contents)}.` };
    }
    const { folder, names } = await folderFiles(config.source.folder_path ?? '', options);
    const checked = names.slice(0, filesTestRead);
    const failures: string[] = [];
    const read: string[] = [];
    for (const name of checked) {
      try {
        read.push(`${name} (${describe((await readSbomFile(openLocal(folder, name, context.signal))).contents)})`);
      } catch (error) {
        failures.push(error instanceof FileSourceError ? error.message : `${name} cannot be read: ${(error as Error).message}`);
      }
    }
    const scope = names.length > checked.length ? `the first ${checked.length} of ${names.length}` : `${names.length}`;
    if (!read.length) return { ok: false, reason: 'invalid_config', detail: `None of ${scope} SBOM files in ${config.source.folder_path} can be read; the first: ${failures[0]}` };
    const detail = `${read.length} of ${scope} SBOM files in ${config.source.folder_path} can be read: ${read.slice(0, 3).join('; ')}${read.length > 3 ? '; …' : ''}.`;
    return { ok: true, detail: failures.length ? `${detail} ${failures.length} cannot, the first: ${failures[0]}` : detail };
  } catch (error) {
    return { ok: false, reason: error instanceof FileSourceError ? error.reason : 'protocol', detail: (error as Error).message };
  }
}

export function createSbomEngine(options: FileEngineOptions): AdapterEngine {
  return { name: 'sbom', test: (context) => testSbom(context, options), fetch: (context) => fetchSbom(context, options) };
}
