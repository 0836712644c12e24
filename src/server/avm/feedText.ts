import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { JsonRecordStream, JsonShapeError } from '../adapters/files/jsonRecordStream.js';

// Feeds arrive as bytes (an upload, a file of the import folder, a download), plain or gzipped as NVD and FIRST
// publish them: recognized by content, never by the file's name, and decoded chunk by chunk.

/** A feed that cannot be used as it is: the message names the record or line where it broke. */
export class FeedError extends Error {}

/**
 * A file's first chunk, to tell its kind by its signature, and all of its bytes again from the start (the chunk
 * included); an empty file is refused.
 */
export async function peekBytes(bytes: AsyncIterable<Buffer | string>): Promise<{ head: Buffer; all: () => AsyncGenerator<Buffer> }> {
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
  return { head, all };
}

/** The text of a feed, decompressed when it starts with the gzip signature, a chunk at a time. */
export async function* feedText(bytes: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const { head, all } = await peekBytes(bytes);
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

/** How a JSON feed names itself and its entries in errors: `{ feed: 'The NVD file', entry: 'record', entries: 'CVE records' }`. */
export type JsonFeedNames = { feed: string; entry: string; entries: string };

/**
 * The entries of a JSON feed's `vulnerabilities` list (KEV and NVD both hold one; `listKey` names another), each turned into a row by `row`
 * with its 1-based position, a chunk at a time. A document that breaks, or holds no entry, fails the import naming
 * the entry after which it broke. `maxEntryBytes` bounds one entry.
 */
export async function* jsonFeedRows<T>(
  chunks: AsyncIterable<string>, maxEntryBytes: number, names: JsonFeedNames, row: (value: unknown, position: number) => T, listKey = 'vulnerabilities',
): AsyncGenerator<T> {
  const reader = new JsonRecordStream([listKey], maxEntryBytes);
  let position = 0;
  function* drain(): Generator<T> {
    for (const value of reader.ready) {
      position += 1;
      yield row(value, position);
    }
    reader.ready.length = 0;
  }
  try {
    for await (const chunk of chunks) {
      reader.push(chunk);
      yield* drain();
    }
    reader.end();
    yield* drain();
  } catch (error) {
    if (error instanceof JsonShapeError) throw new FeedError(`${names.feed} breaks after ${names.entry} ${position}: ${error.message}`);
    throw error;
  }
  if (!position) throw new FeedError(`${names.feed} holds no ${names.entries}.`);
}
