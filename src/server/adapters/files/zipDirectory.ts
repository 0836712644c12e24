import { open } from 'node:fs/promises';

// The central directory of a ZIP file (ZIP64 included): what both the workbook guard and the OSV feed's archive
// reader need before reading any entry. Errors are the caller's, worded for what the ZIP is to it.

export type ZipEntry = { name: string; method: number; compressed: number; uncompressed: number; localOffset: number };

/** What went wrong, for the caller to word: no directory at all, a damaged ZIP64 record, a damaged directory. */
export type ZipProblem = 'missing' | 'zip64' | 'damaged';

export type ZipDirectoryOptions = { maximumEntries: number; fail: (problem: ZipProblem) => Error; tooMany: (count: number) => Error };

export async function readAt(handle: Awaited<ReturnType<typeof open>>, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/** Every entry of the directory with its declared sizes, the file's size and where the directory starts. */
export async function readZipDirectory(path: string, options: ZipDirectoryOptions): Promise<{ entries: ZipEntry[]; size: number; directoryOffset: number }> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const tailLength = Math.min(size, 65_557);
    const tail = await readAt(handle, size - tailLength, tailLength);
    const end = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    if (end < 0) throw options.fail('missing');
    let count = tail.readUInt16LE(end + 10);
    let directorySize = tail.readUInt32LE(end + 12);
    let directoryOffset = tail.readUInt32LE(end + 16);
    if (count === 0xffff || directoryOffset === 0xffffffff || directorySize === 0xffffffff) {
      const locator = end - 20;
      if (locator < 0 || tail.readUInt32LE(locator) !== 0x07064b50) throw options.fail('zip64');
      const record = await readAt(handle, Number(tail.readBigUInt64LE(locator + 8)), 56);
      if (record.readUInt32LE(0) !== 0x06064b50) throw options.fail('zip64');
      count = Number(record.readBigUInt64LE(32));
      directorySize = Number(record.readBigUInt64LE(40));
      directoryOffset = Number(record.readBigUInt64LE(48));
    }
    if (count > options.maximumEntries) throw options.tooMany(count);
    if (directorySize > 64 * 1024 * 1024 || directoryOffset + directorySize > size) throw options.fail('damaged');
    const directory = await readAt(handle, directoryOffset, directorySize);
    const entries: ZipEntry[] = [];
    for (let at = 0; entries.length < count; ) {
      if (at + 46 > directory.length || directory.readUInt32LE(at) !== 0x02014b50) throw options.fail('damaged');
      const nameLength = directory.readUInt16LE(at + 28);
      const extraLength = directory.readUInt16LE(at + 30);
      const entry: ZipEntry = {
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
