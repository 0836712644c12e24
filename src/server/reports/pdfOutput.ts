import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import type { MarkdownBlock, MarkdownInline } from '../../core/markdown/parseMarkdown.js';
import { cellDisplay, dateFormatterFor, type Cell } from './cells.js';
import { chartSvg } from './chartSvg.js';
import { fileStem, progressEvery, tableCountText, type RenderInput } from './output.js';
import type { CountedSection } from './sections.js';

type Doc = PDFKit.PDFDocument;
const margin = 40;
const rowHeight = 14;
const fontSize = 8;

const inlineText = (inlines: MarkdownInline[]): string => inlines.map((inline) => (inline.kind === 'text' || inline.kind === 'code' ? inline.text : inlineText(inline.children))).join('');

/** Markdown blocks as PDF text: headings larger and bold, list items with bullets or numbers (never HTML). */
function writeMarkdown(doc: Doc, blocks: MarkdownBlock[], depth = 0): void {
  for (const block of blocks) {
    if (block.kind === 'heading') doc.font('Helvetica-Bold').fontSize(16 - block.level * 2).text(inlineText(block.inlines)).moveDown(0.3);
    else if (block.kind === 'paragraph') doc.font('Helvetica').fontSize(10).text(inlineText(block.inlines)).moveDown(0.5);
    else {
      block.items.forEach((item, index) => {
        doc.font('Helvetica').fontSize(10).text(`${block.ordered ? `${index + 1}.` : '•'} ${inlineText(item.inlines)}`, { indent: 12 * (depth + 1) });
        for (const nested of item.lists) writeMarkdown(doc, [nested], depth + 1);
      });
      doc.moveDown(0.5);
    }
  }
  doc.font('Helvetica');
}

/** The first pass lays the pages out to count them (no rows read, no chart drawn); the second writes them, numbered. */
type Pass = { measuring: true } | { measuring: false; onRow: () => Promise<void> };
type Table = Extract<CountedSection, { type: 'table' }>;

/**
 * A table across as many pages as it needs, under a line with its row count (and whether it was cut): each page
 * starts with the header row again. Cells are cut to one line (ellipsis) so every row has the same height and a page
 * holds a known number of them; the measuring pass places `shown` rows without reading them.
 */
async function writeTable(doc: Doc, section: Table, formatDate: (date: Date) => string, pass: Pass): Promise<void> {
  const width = doc.page.width - 2 * margin;
  const columnWidth = width / Math.max(section.columns.length, 1);
  const placeRow = (texts: string[] | null, bold: boolean) => {
    const y = doc.y;
    if (bold) doc.rect(margin, y - 2, width, rowHeight).fill('#e4e7eb').fillColor('black');
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(fontSize);
    texts?.forEach((text, index) => doc.text(text, margin + index * columnWidth + 2, y, { width: columnWidth - 4, height: rowHeight - 3, ellipsis: true, lineBreak: false }));
    doc.x = margin;
    doc.y = y + rowHeight;
  };
  const header = section.columns.map((column) => column.label);
  const nextRow = () => {
    if (doc.y + rowHeight > doc.page.height - margin) {
      doc.addPage();
      placeRow(header, true);
    }
  };
  if (section.shown) doc.font('Helvetica-Oblique').fontSize(9).text(tableCountText(section)).moveDown(0.4);
  placeRow(header, true);
  if (pass.measuring) {
    for (let row = 0; row < section.shown; row += 1) {
      nextRow();
      placeRow(null, false);
    }
  } else {
    for await (const cells of section.rows()) {
      nextRow();
      placeRow(cells.map((cell: Cell) => cellDisplay(cell, formatDate)), false);
      await pass.onRow();
    }
  }
  if (!section.shown) doc.font('Helvetica-Oblique').fontSize(9).text('No record matches.', margin, doc.y + 4);
  doc.moveDown();
}

async function writeChart(doc: Doc, section: Extract<CountedSection, { type: 'chart' }>, measuring: boolean): Promise<void> {
  const width = Math.min(doc.page.width - 2 * margin, 480);
  const height = 240;
  if (!section.spec) {
    // Numbers, tables and facts are not charts: their rows as "label: value" lines.
    const lines = section.data.rows.map((row) => Object.entries(row).filter(([key]) => key !== 'query' && key !== 'index_id').map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : String(value ?? '')}`).join('   '));
    doc.font('Helvetica').fontSize(10).text(lines.length ? lines.join('\n') : section.data.message ?? 'No data.').moveDown();
    return;
  }
  if (doc.y + height > doc.page.height - margin) doc.addPage();
  if (!measuring) SVGtoPDF(doc, await chartSvg(section.spec, width, height), margin, doc.y, { width, height, assumePt: true });
  doc.x = margin;
  doc.y += height + 10;
}

// pdfkit keeps the current font on the document with no getter: a footer drawn while a paragraph flows onto a new
// page gives the paragraph its font back.
type FontState = { _font?: { name?: string }; _fontSize?: number };

/** "Page 3 of 7", centred in the bottom margin; the position, font and colour of the page's content are kept. */
function writeFooter(doc: Doc, page: number, total: number): void {
  const { x, y } = doc;
  const state = doc as unknown as FontState;
  const [font, size] = [state._font?.name, state._fontSize];
  const text = `Page ${page} of ${total}`;
  doc.save().font('Helvetica').fontSize(8).fillColor('#555555');
  doc.text(text, (doc.page.width - doc.widthOfString(text)) / 2, doc.page.height - margin / 2 - 4, { lineBreak: false });
  doc.restore();
  if (font) doc.font(font);
  if (size) doc.fontSize(size);
  doc.x = x;
  doc.y = y;
}

const newDocument = (report: RenderInput['report']): Doc =>
  new PDFDocument({ size: report.page_size, layout: report.orientation, margin, bufferPages: false, info: { Title: report.name, Creator: 'Cartograph' } });

/** The title page, then each section from a new page under its heading. */
async function writeContent(doc: Doc, input: RenderInput, measuring: boolean): Promise<void> {
  const { report } = input;
  const formatDate = dateFormatterFor(report.time_zone);
  // The logo sits in the top-left corner of the title page, scaled to fit a 180 × 90 pt box.
  if (input.logo) doc.image(input.logo, margin, margin, { fit: [180, 90] });
  doc.font('Helvetica-Bold').fontSize(26).text(report.name, margin, doc.page.height / 3);
  if (report.description) doc.moveDown(0.5).font('Helvetica').fontSize(13).text(report.description);
  doc.moveDown(2).font('Helvetica').fontSize(10);
  if (report.show_company) doc.text(input.companyName);
  doc.text(`Data of the discovery ${input.snapshot.id} (${formatDate(input.snapshot.start_time)}, ${report.time_zone})`);
  doc.text(`Generated ${formatDate(input.now)}`);
  let rows = 0;
  for (const [index, section] of input.sections.entries()) {
    doc.addPage();
    doc.font('Helvetica-Bold').fontSize(16).text(section.title).moveDown(0.5);
    if (section.type === 'text') writeMarkdown(doc, section.blocks);
    else if (section.type === 'chart') await writeChart(doc, section, measuring);
    else {
      await writeTable(doc, section, formatDate, measuring ? { measuring } : {
        measuring,
        onRow: async () => {
          rows += 1;
          if (rows % progressEvery === 0) await input.onProgress({ sections: index, rows });
        },
      });
    }
    if (!measuring) await input.onProgress({ sections: index + 1, rows });
  }
}

/** How many pages the PDF has: its layout without rows or charts, written nowhere. */
async function countPages(input: RenderInput): Promise<number> {
  const doc = newDocument(input.report);
  let pages = 1;
  doc.on('pageAdded', () => (pages += 1));
  doc.on('data', () => undefined);
  await writeContent(doc, input, true);
  doc.end();
  return pages;
}

/**
 * Writes the PDF: a title page, then each section under its heading, every page numbered "Page 3 of 7" (the total
 * comes from a first pass that lays the pages out without reading rows). pdfkit writes each finished page out as it goes.
 */
export async function writePdf(input: RenderInput, path: string): Promise<{ filename: string; contentType: string }> {
  const total = await countPages(input);
  const doc = newDocument(input.report);
  const output = createWriteStream(path);
  doc.pipe(output);
  let page = 1;
  writeFooter(doc, page, total);
  doc.on('pageAdded', () => writeFooter(doc, (page += 1), total));
  await writeContent(doc, input, false);
  doc.end();
  await finished(output);
  return { filename: `${fileStem(input.report.name)}.pdf`, contentType: 'application/pdf' };
}
