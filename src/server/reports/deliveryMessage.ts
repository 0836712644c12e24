import type { MailAttachment } from '../outbound/smtp.js';

/** A file of a run as the delivery reads it: its content only when it is small enough to attach. */
export type DeliveredFile = { format: string; filename: string; content_type: string; size: number; content: Uint8Array | null };

/** A size as people read it: `840 B`, `12 kB`, `12.4 MB`. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.ceil(bytes / 1024)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Where a run's file is downloaded, on the console's public address: `https://cartograph.example.com/reports/runs/7/files/pdf`. */
export const runFileUrl = (publicUrl: string, runId: number, format: string) => `${publicUrl}/reports/runs/${runId}/files/${format}`;

/**
 * The e-mail of a scheduled run: the files within the attachment limit attached, each larger one as a link to its
 * download (which asks for a user allowed to download reports), and the console's Reports page that lists the run.
 */
export function deliveryMessage(input: { publicUrl: string; runId: number; reportName: string; body: string; limitMb: number; files: DeliveredFile[] }): { text: string; attachments: MailAttachment[] } {
  const attached = input.files.filter((file) => file.content);
  const linked = input.files.filter((file) => !file.content);
  // PGlite answers bytea as a Uint8Array, PostgreSQL as a Buffer: nodemailer wants a Buffer.
  const attachments = attached.map((file) => ({ filename: file.filename, content: Buffer.from(file.content as Uint8Array), contentType: file.content_type }));
  const intro = input.body || (attached.length ? `The report "${input.reportName}" is attached.` : `The report "${input.reportName}" is ready.`);
  const links = linked.map((file) => `${file.filename} (${sizeText(file.size)}) is over the ${input.limitMb} MB attachment limit; download it here: ${runFileUrl(input.publicUrl, input.runId, file.format)}`);
  // The download answers a bearer token, not a browser's session: people are also told where the console lists the run.
  const where = linked.length ? [`A download link asks for the access token of a user allowed to download reports. In the console, the run and its files are under Reports: ${input.publicUrl}/#/reports`] : [];
  return { text: [intro, ...links, ...where].join('\n\n'), attachments };
}
