import { Transform } from 'node:stream';
import { FileSourceError } from './fileSource.js';

export type TextEncoding = 'utf-8' | 'utf-16le' | 'windows-1252';

const zipSignature = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** What a binary file looks like, for a message that tells the user which adapter fits instead. */
function describeBinary(head: Buffer): string | null {
  if (head.subarray(0, 4).equals(zipSignature)) return 'a ZIP archive (an Excel .xlsx workbook?)';
  if (head.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) return 'an old binary Office file (.xls)';
  if (head.subarray(0, 4).toString('latin1') === '%PDF') return 'a PDF document';
  if (head[0] === 0x1f && head[1] === 0x8b) return 'a gzip archive';
  return null;
}

/**
 * Decodes a byte stream to text chunk by chunk (a character split across chunks is kept whole), after checking by
 * content, not by the file's name, that the bytes are text: a ZIP, PDF or other binary file is refused with a
 * message saying what it is. Undecodable bytes are reported once through `onInvalid`.
 */
export function textDecoder(encoding: TextEncoding, expected: string, onInvalid: (message: string) => void): Transform {
  const decoder = new TextDecoder(encoding, { fatal: false, ignoreBOM: false });
  let first = true;
  let reported = false;
  const check = (text: string) => {
    if (!reported && text.includes('\uFFFD')) {
      reported = true;
      onInvalid(`The file has bytes that are not valid ${encoding}; they were replaced. Check the encoding of the connection.`);
    }
  };
  return new Transform({
    encoding: 'utf8',
    decodeStrings: true,
    transform(chunk: Buffer, _encoding, done) {
      if (first) {
        first = false;
        const binary = describeBinary(chunk);
        const hasNul = encoding !== 'utf-16le' && chunk.subarray(0, 4096).includes(0);
        if (binary || hasNul) return done(new FileSourceError(`The file is ${binary ?? 'binary data'}, not ${expected} text.`));
      }
      const text = decoder.decode(chunk, { stream: true });
      check(text);
      done(null, text);
    },
    flush(done) {
      const text = decoder.decode();
      check(text);
      done(null, text);
    },
  });
}
