import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInflateRaw } from 'node:zlib';
import { FileSourceError } from './fileSource.js';
import { readAt, readZipDirectory, type ZipEntry as Entry } from './zipDirectory.js';

export type ZipLimits = {
  maximumEntries: number;
  /** Uncompressed bytes of all entries together. */
  maximumTotalBytes: number;
  /** Uncompressed bytes of one entry that the reader keeps in memory (an XLSX's shared strings). */
  maximumInMemoryEntryBytes: number;
  /** Uncompressed ÷ compressed size above which a large entry is refused: real spreadsheets stay far below it. */
  maximumRatio: number;
};

export const defaultZipLimits: ZipLimits = { maximumEntries: 10_000, maximumTotalBytes: 8 * 1024 ** 3, maximumInMemoryEntryBytes: 256 * 1024 ** 2, maximumRatio: 250 };

const tilingGaps = new Set([0, 12, 16, 20, 24]);
const inMemoryEntries = new Set(['xl/sharedStrings.xml', 'xl/styles.xml', 'xl/workbook.xml', 'xl/_rels/workbook.xml.rels']);
const bomb = (detail: string) => new FileSourceError(`The workbook was refused as a possible decompression bomb: ${detail}.`);

/** The central directory, its errors worded for a workbook. */
const readDirectory = (path: string, limits: ZipLimits) => readZipDirectory(path, {
  maximumEntries: limits.maximumEntries,
  fail: (problem) => new FileSourceError(problem === 'missing' ? 'The file is not a valid XLSX workbook: its ZIP directory is missing (is the file truncated?).' : problem === 'zip64' ? 'The workbook has a damaged ZIP64 directory.' : 'The workbook has a damaged ZIP directory.'),
  tooMany: (count) => bomb(`it has ${count} entries (at most ${limits.maximumEntries})`),
});

/** Inflates one entry into nothing, counting: the declared size is a claim, this is the proof. */
async function inflatedSize(path: string, entry: Entry, fileSize: number, allowance: number): Promise<{ size: number; end: number }> {
  const handle = await open(path, 'r');
  let start: number;
  try {
    const header = await readAt(handle, entry.localOffset, 30);
    if (header.length < 30 || header.readUInt32LE(0) !== 0x04034b50) throw new FileSourceError(`The workbook entry ${entry.name} is damaged.`);
    start = entry.localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  } finally {
    await handle.close();
  }
  if (entry.compressed === 0) return { size: 0, end: start };
  if (start + entry.compressed > fileSize) throw new FileSourceError(`The workbook entry ${entry.name} is truncated.`);
  let total = 0;
  const counter = new Writable({
    write(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      done(total > allowance ? bomb(`${entry.name} inflates beyond ${total > entry.uncompressed ? 'its declared size' : 'the allowed size'}`) : null);
    },
  });
  const source = createReadStream(path, { start, end: start + entry.compressed - 1 });
  if (entry.method === 0) await pipeline(source, counter);
  else if (entry.method === 8) await pipeline(source, createInflateRaw(), counter);
  else throw new FileSourceError(`The workbook entry ${entry.name} uses an unsupported compression method (${entry.method}).`);
  return { size: total, end: start + entry.compressed };
}

/**
 * Checks a ZIP (an XLSX) before anything parses it: entry count, declared sizes and ratios, then the real
 * inflated size of every entry (streamed and counted, never held), so a lying header cannot slip a bomb through.
 */
export async function guardZip(path: string, limits: ZipLimits = defaultZipLimits): Promise<void> {
  const { entries, size, directoryOffset } = await readDirectory(path, limits);
  let declared = 0;
  for (const entry of entries) {
    declared += entry.uncompressed;
    if (declared > limits.maximumTotalBytes) throw bomb(`it unpacks to more than ${Math.round(limits.maximumTotalBytes / 1024 ** 2)} MB`);
    if (entry.uncompressed > 16 * 1024 ** 2 && entry.uncompressed / Math.max(entry.compressed, 1) > limits.maximumRatio) {
      throw bomb(`${entry.name} expands ${Math.round(entry.uncompressed / Math.max(entry.compressed, 1))} times`);
    }
    if (inMemoryEntries.has(entry.name) && entry.uncompressed > limits.maximumInMemoryEntryBytes) throw bomb(`${entry.name} is larger than ${Math.round(limits.maximumInMemoryEntryBytes / 1024 ** 2)} MB`);
  }
  let actual = 0;
  let previousEnd = 0;
  // Streaming readers follow the local headers, not the directory: the entries must tile the file with no hidden
  // data between them (only an optional data descriptor of 12 to 24 bytes after each).
  for (const entry of [...entries].sort((left, right) => left.localOffset - right.localOffset)) {
    if (!tilingGaps.has(entry.localOffset - previousEnd)) throw bomb(`it holds data outside its directory near byte ${previousEnd}`);
    const allowance = Math.min(entry.uncompressed, limits.maximumTotalBytes - actual);
    const inflated = await inflatedSize(path, entry, size, allowance);
    actual += inflated.size;
    previousEnd = inflated.end;
  }
  if (!tilingGaps.has(directoryOffset - previousEnd)) throw bomb(`it holds data outside its directory near byte ${previousEnd}`);
}
