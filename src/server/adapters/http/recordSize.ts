// A bound on the size of one record. A scanner can answer megabytes for one host (a 10 MB plugin output, fifty
// thousand open ports): stored whole, such a record would weigh on the snapshot and every query reading it. The
// record is kept, its long values cut, and the connection warned; the rest of the fetch goes on.
import type { FetchedRecord } from '../engine.js';

export const defaultMaxRecordBytes = 1024 * 1024;

/** The longest text value kept in an oversized record, and the most items kept of one of its lists. */
const keptTextLength = 8192;
const keptListItems = 1000;
/** Raw vendor properties kept of an oversized record: short scalars (its ids), so its record key stays stable. */
const keptRawScalarLength = 1024;

function sizeOf(record: FetchedRecord): number {
  return JSON.stringify(record.fields).length + (record.raw === undefined ? 0 : JSON.stringify(record.raw).length);
}

function cut(value: unknown): unknown {
  if (typeof value === 'string') return value.length > keptTextLength ? `${value.slice(0, keptTextLength)}…` : value;
  if (Array.isArray(value)) return value.slice(0, keptListItems).map(cut);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).slice(0, keptListItems).map(([key, inner]) => [key, cut(inner)]));
  return value;
}

function shortScalars(raw: unknown): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return kept;
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value === 'number' || typeof value === 'boolean' || (typeof value === 'string' && value.length <= keptRawScalarLength)) kept[key] = value;
  }
  return kept;
}

/**
 * Cuts the records of a page that are larger than `maxBytes` (as JSON): mapped text values to 8 KiB, lists to 1,000
 * items, the raw vendor record to its short scalar properties. Measured only when the page itself was larger than
 * the bound (`pageBytes`), so ordinary pages cost nothing. Answers a warning for the page, or null.
 * Before: a record of 10 MB (one 10 MB `Evidence`); after: the same record with an 8 KiB `Evidence` and its ids.
 */
export function boundRecordSizes(records: FetchedRecord[], pageBytes: number, maxBytes: number, label: string): string | null {
  if (pageBytes <= maxBytes) return null;
  let oversized = 0;
  let largest = 0;
  for (let index = 0; index < records.length; index += 1) {
    const record = records[index];
    const size = sizeOf(record);
    if (size <= maxBytes) continue;
    oversized += 1;
    largest = Math.max(largest, size);
    records[index] = { entity: record.entity, fields: cut(record.fields) as Record<string, unknown>, raw: shortScalars(record.raw) };
  }
  if (!oversized) return null;
  const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${label}: ${oversized} record${oversized === 1 ? '' : 's'} over the ${megabytes(maxBytes)} record limit (largest ${megabytes(largest)}) kept with long values cut (text to 8 KiB, lists to 1,000 items) and only the short fields of the vendor record`;
}
