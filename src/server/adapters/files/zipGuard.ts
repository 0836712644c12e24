import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInflateRaw } from 'node:zlib';
import { FileSourceError } from './fileSource.js';

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

type Entry = { name: string; method: number; compressed: number; uncompressed: number; localOffset: number };

const tilingGaps = new Set([0, 12, 16, 20, 24]);
const inMemoryEntries = new Set(['xl/sharedStrings.xml', 'xl/styles.xml', 'xl/workbook.xml', 'xl/_rels/workbook.xml.rels']);
const bomb = (detail: string) => new FileSourceError(`The workbook was refused as a possible decompression bomb: ${detail}.`);

async function readAt(handle: Awaited<ReturnType<typeof open>>, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/** The central directory: every entry with its declared sizes (ZIP64 included). */
async function readDirectory(path: string, limits: ZipLimits): Promise<{ entries: Entry[]; size: number; directoryOffset: number }> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const tailLength = Math.min(size, 65_557);
    const tail = await readAt(handle, size - tailLength, tailLength);
    const end = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    if (end < 0) throw new FileSourceError('The file is not a valid XLSX workbook: its ZIP directory is missing (is the file truncated?).');
    let count = tail.readUInt16LE(end + 10);
    let directorySize = tail.readUInt32LE(end + 12);
    let directoryOffset = tail.readUInt32LE(end + 16);
    if (count === 0xffff || directoryOffset === 0xffffffff || directorySize === 0xffffffff) {
      const locator = end - 20;
      if (locator < 0 || tail.readUInt32LE(locator) !== 0x07064b50) throw new FileSourceError('The workbook has a damaged ZIP64 directory.');
      const record = await readAt(handle, Number(tail.readBigUInt64LE(locator + 8)), 56);
      if (record.readUInt32LE(0) !== 0x06064b50) throw new FileSourceError('The workbook has a damaged ZIP64 directory.');
      count = Number(record.readBigUInt64LE(32));
      directorySize = Number(record.readBigUInt64LE(40));
      directoryOffset = Number(record.readBigUInt64LE(48));
    }
    if (count > limits.maximumEntries) throw bomb(`it has ${count} entries (at most ${limits.maximumEntries})`);
    if (directorySize > 64 * 1024 * 1024 || directoryOffset + directorySize > size) throw new FileSourceError('The workbook has a damaged ZIP directory.');
    const directory = await readAt(handle, directoryOffset, directorySize);
    const entries: Entry[] = [];
    for (let at = 0; entries.length < count; ) {
      if (at + 46 > directory.length || directory.readUInt32LE(at) !== 0x02014b50) throw new FileSourceError('The workbook has a damaged ZIP directory.');
      const nameLength = directory.readUInt16LE(at + 28);
      const extraLength = directory.readUInt16LE(at + 30);
      const entry: Entry = {
        name: directory.toString('utf8', at + 46, at + 46 + nameLength), method: directory.readUInt16LE(at + 10),
        compressed: directory.readUInt32LE(at + 20), uncompressed: directory.readUInt32LE(at + 24), localOffset: directory.readUInt32LE(at + 42),
      };
      // ZIP64 extra field: the 64-bit values, in this order, of those set to 0xFFFFFFFF above.
      for (let extra = at + 46 + nameLength; extra + 4 <= at + 46 + nameLength + extraLength; ) {
        const id = directory.readUInt16LE(extra);
        const length = directory.readUInt16LE(extra + 2);
        if (id === 0x0001) {
          let field = extra + 4;
          for (const key of ['uncompressed', 'compressed', 'localOffset'] as const) {
            if (entry[key] === 0xffffffff && field + 8 <= extra + 4 + length) {
              entry[key] = Number(directory.readBigUInt64LE(field));
              field += 8;
            }
          }
        }
        extra += 4 + length;
      }
      entries.push(entry);
      at += 46 + nameLength + extraLength + directory.readUInt16LE(at + 32);
    }
    return { entries, size, directoryOffset };
  } finally {
    await handle.close();
  }
}

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
