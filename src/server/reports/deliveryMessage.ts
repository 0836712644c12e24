import type { MailAttachment } from '../outbound/smtp.js';
import type { ReportFormat } from './reportDocuments.js';

/** A file of a run as the delivery reads it: its content only when it is small enough to attach. */
export type DeliveredFile = { format: ReportFormat; filename: string; content_type: string; size: number; content: Uint8Array | null };

/** A size as people read it: `840 B`, `12 kB`, `12.4 MB`. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.ceil(bytes / 1024)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** When the links stop working, as the schedule's recipients read it: `8 May 2026 at 06:00 CEST` in the schedule's time zone. */
export function linkExpiryText(expiresAt: Date, timeZone: string): string {
  return expiresAt.toLocaleString('en-GB', { timeZone, day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
}

/**
 * The e-mail of a scheduled run: the files within the attachment limit attached, each larger one as a signed link that
 * downloads it without signing in until `linkExpiry`, and the console's Reports page that lists the run.
 */
export function deliveryMessage(input: {
  publicUrl: string; reportName: string; body: string; limitMb: number; files: DeliveredFile[]; linkOf: (format: ReportFormat) => string; linkExpiry: string;
}): { text: string; attachments: MailAttachment[] } {
  const attached = input.files.filter((file) => file.content);
  const linked = input.files.filter((file) => !file.content);
  // PGlite answers bytea as a Uint8Array, PostgreSQL as a Buffer: nodemailer wants a Buffer.
  const attachments = attached.map((file) => ({ filename: file.filename, content: Buffer.from(file.content as Uint8Array), contentType: file.content_type }));
  const intro = input.body || (attached.length ? `The report "${input.reportName}" is attached.` : `The report "${input.reportName}" is ready.`);
  const links = linked.map((file) => `${file.filename} (${sizeText(file.size)}) is over the ${input.limitMb} MB attachment limit; download it here: ${input.linkOf(file.format)}`);
  // Whoever holds a link can download its file until it expires, so recipients are told until when, and where users
  // who sign in find the run after that.
  const where = linked.length
    ? [`The download ${linked.length === 1 ? 'link works' : 'links work'} without signing in until ${input.linkExpiry}. Users allowed to download reports also find the run and its files in the console under Reports: ${input.publicUrl}/#/reports`]
    : [];
  return { text: [intro, ...links, ...where].join('\n\n'), attachments };
}
