import PDFDocument from 'pdfkit';
import type { Queryable } from '../db/database.js';
import { fieldError } from '../errors.js';

/** Largest logo accepted: a title-page logo needs no more, and every run reads it. */
export const logoLimitBytes = 256 * 1024;

export type ReportLogo = { content_type: 'image/png' | 'image/jpeg'; size: number; content: Buffer; updated_at: Date };

const pngMagic = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const jpegMagic = Buffer.from([0xff, 0xd8, 0xff]);

/**
 * The image's type read from its first bytes, never from a name or a declared type: PNG or JPEG only. SVG (which can
 * carry scripts and external references) and every other kind are refused.
 */
export function logoTypeOf(content: Buffer): ReportLogo['content_type'] | null {
  if (content.subarray(0, pngMagic.length).equals(pngMagic)) return 'image/png';
  if (content.subarray(0, jpegMagic.length).equals(jpegMagic)) return 'image/jpeg';
  return null;
}

/** The uploaded logo checked: decoded, at most 256 kB, PNG or JPEG by its bytes, and one pdfkit can open. */
export function checkedLogo(base64: string): { contentType: ReportLogo['content_type']; content: Buffer } {
  const content = Buffer.from(base64, 'base64');
  if (content.length > logoLimitBytes) throw fieldError('image', `The image is ${Math.ceil(content.length / 1024)} kB; a logo may be at most ${logoLimitBytes / 1024} kB.`);
  const contentType = logoTypeOf(content);
  if (!contentType) throw fieldError('image', 'The file is not a PNG or JPEG image.');
  try {
    // The same parser the PDF writer embeds it with: a file with the right first bytes but a broken body fails here, not in a run.
    // openImage is pdfkit's own (doc.image calls it) though @types/pdfkit does not declare it.
    (new PDFDocument({ autoFirstPage: false }) as unknown as { openImage(source: Buffer): unknown }).openImage(content);
  } catch {
    throw fieldError('image', 'The image cannot be read: the file is damaged or not really a PNG or JPEG.');
  }
  return { contentType, content };
}

export async function loadReportLogo(db: Queryable, companyId: number): Promise<ReportLogo | null> {
  const [row] = await db.query<ReportLogo>('select content_type, size, content, updated_at from report_logos where company_id = $1', [companyId]);
  // PGlite answers bytea as a Uint8Array, PostgreSQL as a Buffer: a Buffer either way (base64, pdfkit).
  return row ? { ...row, content: Buffer.from(row.content) } : null;
}

export async function saveReportLogo(db: Queryable, companyId: number, logo: { contentType: string; content: Buffer }): Promise<ReportLogo> {
  const [row] = await db.query<ReportLogo>(
    `insert into report_logos (company_id, content_type, size, content) values ($1, $2, $3, $4)
       on conflict (company_id) do update set content_type = excluded.content_type, size = excluded.size, content = excluded.content, updated_at = now()
     returning content_type, size, updated_at`,
    [companyId, logo.contentType, logo.content.length, logo.content],
  );
  return { ...row, content: logo.content };
}

export const deleteReportLogo = (db: Queryable, companyId: number) => db.query('delete from report_logos where company_id = $1', [companyId]);
