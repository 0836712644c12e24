import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReportFormat } from './reportDocuments.js';

/**
 * What an e-mailed download link lets whoever holds it fetch without signing in: one file of one run of one company,
 * until it expires. Mail clients and browsers send no bearer token, so the link carries its own proof: the server's
 * signature over these fields.
 */
export type FileLink = { companyId: number; runId: number; format: ReportFormat; expiresAt: Date };

/** The answer to a link presented: signed by this server for exactly these fields and still in time, or not. */
export type FileLinkCheck = 'valid' | 'forged' | 'expired';

/** The link carries its expiry in whole seconds, so the signed text is the same when the link comes back. */
const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * HMAC-SHA256 under the report-links key, base64url (43 characters). The text names its purpose and version and joins
 * fields that cannot hold the separator (numbers and a format), so no two links sign the same text.
 */
function signatureOf(key: Buffer, link: FileLink): string {
  const signed = ['report-file', 'v1', link.companyId, link.runId, link.format, epochSeconds(link.expiresAt)].join(':');
  return createHmac('sha256', key).update(signed).digest('base64url');
}

/** Where a signed link is answered, beside the run file's authenticated download: `/reports/runs/7/files/pdf/signed`. */
export const signedFilePath = (runId: number, format: string) => `/reports/runs/${runId}/files/${format}/signed`;

/** The absolute link for a mail: `https://cartograph.example.com/reports/runs/7/files/pdf/signed?company=1&expires=1767225600&signature=…`. */
export function signedFileUrl(key: Buffer, publicUrl: string, link: FileLink): string {
  const query = new URLSearchParams({ company: String(link.companyId), expires: String(epochSeconds(link.expiresAt)), signature: signatureOf(key, link) });
  return `${publicUrl}${signedFilePath(link.runId, link.format)}?${query}`;
}

/** The link's fields as its query names them (`expires` in seconds since 1970). */
export const fileLinkOf = (runId: number, format: ReportFormat, query: { company: number; expires: number }): FileLink =>
  ({ companyId: query.company, runId, format, expiresAt: new Date(query.expires * 1000) });

/**
 * Checks a presented link: the signature first, compared in constant time so its bytes cannot be guessed one by one
 * from response times, then the expiry against `now` (a parameter, so tests need not wait).
 */
export function checkFileLink(key: Buffer, link: FileLink, signature: string, now: Date = new Date()): FileLinkCheck {
  const expected = Buffer.from(signatureOf(key, link));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'forged';
  return link.expiresAt.getTime() <= now.getTime() ? 'expired' : 'valid';
}
