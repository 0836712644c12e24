import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

// Feeds arrive as bytes (an upload, a file of the import folder, a download), plain or gzipped as NVD and FIRST
// publish them: recognized by content, never by the file's name, and decoded chunk by chunk.

/** A feed that cannot be used as it is: the message names the record or line where it broke. */
export class FeedError extends Error {}

/** The text of a feed, decompressed when it starts with the gzip signature, a chunk at a time. */
export async function* feedText(bytes: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const iterator = bytes[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) throw new FeedError('The file is empty.');
  const head = Buffer.isBuffer(first.value) ? first.value : Buffer.from(first.value);
  async function* all(): AsyncGenerator<Buffer> {
    yield head;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    }
  }
  let source: AsyncIterable<Buffer> = all();
  if (head[0] === 0x1f && head[1] === 0x8b) {
    const compressed = Readable.from(source);
    const gunzip = createGunzip();
    compressed.on('error', (error) => gunzip.destroy(error));
    source = compressed.pipe(gunzip);
  } else if (head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
    throw new FeedError('The file is a ZIP archive: unzip it and import the JSON or CSV file it holds (gzip files are read as they are).');
  }
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of source) {
      const text = decoder.decode(chunk, { stream: true });
      if (text) yield text;
    }
    const rest = decoder.decode();
    if (rest) yield rest;
  } catch (error) {
    if (error instanceof TypeError) throw new FeedError('The file is not UTF-8 text.');
    if ((error as { code?: string }).code?.startsWith('Z_')) throw new FeedError(`The gzip data is damaged or cut short (${(error as Error).message}).`);
    throw error;
  }
}
