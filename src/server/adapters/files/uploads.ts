import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { detailBody, fieldError, TooLarge } from '../../errors.js';
import type { CatalogueAdapter } from '../catalogue.js';
import { readFile } from 'node:fs/promises';
import { SbomFormatError } from '../sbom/sbomContents.js';
import { parseSbom, sbomMaximumBytes } from '../sbom/sbomDocument.js';
import { sniffLocal } from './fileSource.js';

/** The largest file one upload may hold (the engines stream it, so the bound is about disk, not memory). */
export const uploadLimitBytes = 1024 ** 3;

type ContentKind = {
  extension: string;
  describe: string;
  matches: (head: Buffer) => boolean;
  /** A smaller bound than the upload limit, for files an engine reads whole. */
  limitBytes?: number;
  /** A check of the whole stored file, throwing a field error on `file` (an SBOM must be one the engine reads). */
  check?: (path: string) => Promise<void>;
};

/** An SBOM is read whole by its engine: the upload is parsed as the engine will, so a file it cannot read is refused now. */
async function checkSbom(path: string): Promise<void> {
  try {
    parseSbom(await readFile(path), 'The file');
  } catch (error) {
    if (error instanceof SbomFormatError) throw fieldError('file', error.message);
    throw error;
  }
}

/** What each file engine's upload must look like, checked by content, never by the file's name. */
export const expectedContent: Record<string, ContentKind> = {
  csv: { extension: 'csv', describe: 'CSV text', matches: (head) => !head.includes(0) || isUtf16(head) },
  json: { extension: 'json', describe: 'JSON text', matches: (head) => /^(\uFEFF)?\s*[[{]/.test(head.toString('utf8')) },
  xlsx: { extension: 'xlsx', describe: 'an XLSX workbook (a ZIP archive)', matches: (head) => head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])) },
  // JSON text (UTF-8, or UTF-16 with its BOM, as Windows PowerShell writes it), or gzipped.
  sbom: {
    extension: 'json', describe: 'a CycloneDX or SPDX JSON SBOM', limitBytes: sbomMaximumBytes, check: checkSbom,
    matches: (head) => (head[0] === 0x1f && head[1] === 0x8b) || (isUtf16(head) || (head[0] === 0xfe && head[1] === 0xff)) || /^(\uFEFF)?\s*[[{]/.test(head.toString('utf8')),
  },
};

function isUtf16(head: Buffer): boolean {
  return head[0] === 0xff && head[1] === 0xfe;
}

/** A file name safe to show back: no path, no control characters, bounded. */
export function cleanFileName(name: string | undefined, extension: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = basename((name ?? '').replace(/\\/g, '/')).replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
  return cleaned || `upload.${extension}`;
}

type ExpectedContent = ContentKind;

/** The largest file one upload of these kinds may be: the upload limit, or the kinds' own smaller bound. */
export const uploadLimitOf = (kinds: ExpectedContent[]): number => Math.max(...kinds.map((kind) => kind.limitBytes ?? uploadLimitBytes));

/** The contents a connection of this adapter takes as uploads (a custom adapter's: CSV or XLSX); none when it reads no file. */
export const uploadKindsOf = (adapter: Pick<CatalogueAdapter, 'custom' | 'engine'> | undefined): ExpectedContent[] =>
  adapter?.custom ? [expectedContent.xlsx, expectedContent.csv] : adapter?.engine && expectedContent[adapter.engine] ? [expectedContent[adapter.engine]] : [];

/**
 * Streams one uploaded file to `uploads/` in the data folder under a random name and checks it by content against
 * the kinds the connection reads (the first that matches names the file); a file that fails is removed.
 */
export async function storeUpload(dataDir: string, file: NodeJS.ReadableStream & { truncated?: boolean }, kinds: ExpectedContent[], limitBytes = uploadLimitBytes): Promise<{ reference: string; expected: ExpectedContent }> {
  await mkdir(join(dataDir, 'uploads'), { recursive: true, mode: 0o700 });
  const partial = join(dataDir, `uploads/${randomUUID()}.partial`);
  try {
    await pipeline(file, createWriteStream(partial, { mode: 0o600 }));
    if (file.truncated) throw new TooLarge(detailBody(`The file is larger than the upload limit of ${Math.round(limitBytes / 1024 ** 2)} MB.`));
    const head = await sniffLocal(partial, 512);
    if (!head.length) throw fieldError('file', 'The file is empty.');
    const expected = kinds.find((kind) => kind.matches(head));
    if (!expected) throw fieldError('file', `The file is not ${kinds.map((kind) => kind.describe).join(' or ')}: its content was checked, whatever its name says.`);
    await expected.check?.(partial);
    const reference = `uploads/${randomUUID()}.${expected.extension}`;
    await rename(partial, join(dataDir, reference));
    return { reference, expected };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}
