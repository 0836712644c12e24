import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { inflateRawSync } from 'node:zlib';
import { readAt, readZipDirectory, type ZipEntry } from '../adapters/files/zipDirectory.js';
import { FeedError, feedText, peekBytes } from './feedText.js';

// The files OSV records come in: the ZIP OSV publishes per ecosystem (`<ecosystem>/all.zip`, one JSON record per
// entry), a JSON record or a list of records (plain or gzipped; an OSV API answer's `vulns` too), or a folder of
// them (an unpacked all.zip, a clone of an advisory database). A ZIP is spooled to a temporary file and read entry by
// entry through its directory: memory holds one record at a time, whatever the archive's size.

/** One record as parsed, with where it came from for errors. */
export type OsvSourceRecord = { value: unknown; where: string };

/** Bounds that keep a hostile file from exhausting the server: real archives stay far below them. */
const maximumEntries = 2_000_000;
const maximumEntryBytes = 64 * 1024 * 1024;
const maximumTotalBytes = 16 * 1024 ** 3;
const maximumJsonChars = 256 * 1024 * 1024;

/** The records of one JSON document: a record, a list of records, or `{vulns: [...]}`. */
function* recordsOfJson(text: string, where: string): Generator<OsvSourceRecord> {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new FeedError(`${where} is not valid JSON (${(error as Error).message}).`);
  }
  const list = Array.isArray(document) ? document : Array.isArray((document as { vulns?: unknown })?.vulns) ? (document as { vulns: unknown[] }).vulns : [document];
  for (const [index, value] of list.entries()) yield { value, where: list.length > 1 ? `${where}, record ${index + 1}` : where };
}

async function textOf(bytes: AsyncIterable<Buffer | string>, where: string): Promise<string> {
  let text = '';
  for await (const chunk of feedText(bytes)) {
    text += chunk;
    if (text.length > maximumJsonChars) throw new FeedError(`${where} is larger than ${maximumJsonChars / 1024 ** 2} MB of JSON: send the ZIP OSV publishes instead.`);
  }
  return text;
}

type ZipHandle = Awaited<ReturnType<typeof open>>;

/**
 * Inflates one entry, refusing one that inflates beyond its declared size or the bound. Records are a few kilobytes:
 * each is read in one piece from the open archive and inflated at once, rather than streamed.
 */
async function entryText(handle: ZipHandle, entry: ZipEntry, fileSize: number): Promise<string> {
  const header = await readAt(handle, entry.localOffset, 30);
  if (header.length < 30 || header.readUInt32LE(0) !== 0x04034b50) throw new FeedError(`The archive entry ${entry.name} is damaged.`);
  const start = entry.localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  if (start + entry.compressed > fileSize) throw new FeedError(`The archive entry ${entry.name} is cut short.`);
  if (entry.compressed === 0) return '';
  if (entry.uncompressed > maximumEntryBytes) throw new FeedError(`The archive entry ${entry.name} is larger than ${maximumEntryBytes / 1024 ** 2} MB.`);
  const compressed = await readAt(handle, start, entry.compressed);
  if (entry.method === 0) return compressed.toString('utf8');
  if (entry.method !== 8) throw new FeedError(`The archive entry ${entry.name} uses a compression method Cartograph does not read (${entry.method}).`);
  try {
    // One byte more than declared: an entry that fills it inflates beyond what its header claims.
    const inflated = inflateRawSync(compressed, { maxOutputLength: entry.uncompressed + 1 });
    if (inflated.length > entry.uncompressed) throw new FeedError(`The archive entry ${entry.name} inflates beyond its declared size.`);
    return inflated.toString('utf8');
  } catch (error) {
    if (error instanceof FeedError) throw error;
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new FeedError(`The archive entry ${entry.name} inflates beyond its declared size.`);
    throw new FeedError(`The archive entry ${entry.name} cannot be inflated (${(error as Error).message}).`);
  }
}

/** The records of a ZIP on disk, entry by entry in the archive's order (JSON entries only). */
async function* recordsOfZip(path: string, label: string): AsyncGenerator<OsvSourceRecord> {
  const { entries, size } = await readZipDirectory(path, {
    maximumEntries,
    fail: (problem) => new FeedError(problem === 'missing' ? `${label} is not a complete ZIP archive: its directory is missing (is it cut short?).` : `${label} has a damaged ZIP directory.`),
    tooMany: (count) => new FeedError(`${label} holds ${count} entries, more than the ${maximumEntries} Cartograph reads.`),
  });
  let declared = 0;
  const handle = await open(path, 'r');
  try {
    for (const entry of entries) {
      if (!entry.name.toLowerCase().endsWith('.json')) continue;
      declared += entry.uncompressed;
      if (declared > maximumTotalBytes) throw new FeedError(`${label} unpacks to more than ${maximumTotalBytes / 1024 ** 3} GB.`);
      yield* recordsOfJson(await entryText(handle, entry, size), `${label}: ${entry.name}`);
    }
  } finally {
    await handle.close();
  }
}

/**
 * The OSV records of a file's bytes (a ZIP, or JSON plain or gzipped), labelled `source` in errors. A ZIP is
 * written to a temporary file first, removed when the records have been read or the import fails.
 */
export async function* osvRecordsOfBytes(bytes: AsyncIterable<Buffer | string>, source: string): AsyncGenerator<OsvSourceRecord> {
  const { head, all } = await peekBytes(bytes);
  if (!head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
    yield* recordsOfJson(await textOf(all(), source), source);
    return;
  }
  const folder = await mkdtemp(join(tmpdir(), 'cartograph-osv-'));
  try {
    const path = join(folder, 'archive.zip');
    await pipeline(Readable.from(all()), createWriteStream(path));
    yield* recordsOfZip(path, source);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Every `.json`, `.json.gz` and `.zip` file under a folder, in name order. */
async function filesUnder(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.(json|json\.gz|zip)$/i.test(entry.name)) found.push(join(entry.parentPath, entry.name));
  }
  return found.sort();
}

/** The OSV records of every file under a folder, one import for them all. */
export async function* osvRecordsOfFolder(folder: string): AsyncGenerator<OsvSourceRecord> {
  const files = await filesUnder(folder);
  if (!files.length) throw new FeedError(`${folder} holds no .json, .json.gz or .zip file.`);
  for (const file of files) {
    const label = relative(folder, file);
    if ((await stat(file)).size === 0) throw new FeedError(`${label} is empty.`);
    if (/\.zip$/i.test(file)) yield* recordsOfZip(file, label);
    else yield* recordsOfJson(await textOf(createReadStream(file), label), label);
  }
}
