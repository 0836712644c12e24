import type { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { readCycloneDx } from './cycloneDx.js';
import { isObject, SbomFormatError, type SbomContents } from './sbomContents.js';
import { readSpdx } from './spdx.js';

/**
 * The largest SBOM one file may hold. An SBOM is one JSON document, read whole: parsing takes about twice its size
 * in memory (measured: a 91 MB CycloneDX of 100,000 components added 205 MB), and the largest images' SBOMs are a
 * few tens of MB, so 64 MB bounds the memory of a fetch without refusing real ones.
 */
export const sbomMaximumBytes = 64 * 1024 ** 2;

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 ** 2)} MB`;

/** Reads a stream into memory, refusing it once it passes `limit` bytes (the stream is destroyed, not drained). */
export async function readBounded(stream: Readable, label: string, limit = sbomMaximumBytes): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      stream.destroy();
      throw new SbomFormatError(`${label} is larger than ${megabytes(limit)}, the most one SBOM may be.`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The bytes as text: UTF-8 (a BOM dropped), or UTF-16 with its BOM (Windows PowerShell's `>` writes UTF-16LE). */
function decode(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  return new TextDecoder('utf-8').decode(bytes);
}

/** A gzip file is unpacked (SBOMs are often stored compressed), never beyond the size an SBOM may have. */
function unpacked(bytes: Buffer, label: string): Buffer {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  try {
    return gunzipSync(bytes, { maxOutputLength: sbomMaximumBytes });
  } catch (error) {
    if (error instanceof RangeError || (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new SbomFormatError(`${label} unpacks to more than ${megabytes(sbomMaximumBytes)}, the most one SBOM may be.`);
    throw new SbomFormatError(`${label} is a damaged gzip file: ${(error as Error).message}.`);
  }
}

/** What a JSON document that is not an SBOM is, when a known tool wrote it: the message says how to get an SBOM. */
function notAnSbom(document: Record<string, unknown>, label: string): string {
  if ('SchemaVersion' in document && 'Results' in document) return `${label} is a trivy JSON report, not an SBOM: run trivy with --format cyclonedx or --format spdx-json.`;
  if ('artifacts' in document && 'source' in document && 'schema' in document) return `${label} is syft's own JSON format, not an SBOM: run syft with -o cyclonedx-json or -o spdx-json.`;
  const context = JSON.stringify(document['@context'] ?? '');
  if (context.includes('spdx.org/rdf/3')) return `${label} is an SPDX 3 document (JSON-LD), which is not read yet: export the SBOM as SPDX 2.3 JSON.`;
  return `${label} is JSON but not an SBOM: a CycloneDX BOM has "bomFormat": "CycloneDX" and an SPDX document has "spdxVersion".`;
}

/**
 * Reads one SBOM file: CycloneDX JSON (1.2 to 1.6) or SPDX 2.x JSON, told apart by content, plain or gzipped.
 * Anything else fails with a message naming the file and what it is instead.
 */
export function parseSbom(bytes: Buffer, label: string): SbomContents {
  const content = decode(unpacked(bytes, label));
  const start = content.trimStart();
  if (!start) throw new SbomFormatError(`${label} is empty.`);
  if (start.startsWith('<')) throw new SbomFormatError(`${label} is XML (CycloneDX XML or SPDX RDF), which is not read: export the SBOM as JSON.`);
  if (/^SPDXVersion:/.test(start)) throw new SbomFormatError(`${label} is SPDX tag-value text, which is not read: export the SBOM as SPDX JSON.`);
  let document: unknown;
  try {
    document = JSON.parse(start);
  } catch (error) {
    throw new SbomFormatError(`${label} is not JSON: ${(error as Error).message}.`);
  }
  if (!isObject(document)) throw new SbomFormatError(`${label} is a JSON ${Array.isArray(document) ? 'list' : typeof document}, not an SBOM document (an object).`);
  try {
    if (document.bomFormat === 'CycloneDX') return readCycloneDx(document);
    if ('spdxVersion' in document) return readSpdx(document);
  } catch (error) {
    if (error instanceof SbomFormatError) throw new SbomFormatError(`${label}: ${error.message}`);
    throw error;
  }
  throw new SbomFormatError(notAnSbom(document, label));
}
