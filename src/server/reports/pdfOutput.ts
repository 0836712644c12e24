import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import type { MarkdownBlock, MarkdownInline } from '../../core/markdown/parseMarkdown.js';
import { cellDisplay, dateFormatterFor, type Cell } from './cells.js';
import { chartSvg } from './chartSvg.js';
import { fileStem, progressEvery, type RenderInput } from './output.js';
import type { ResolvedSection } from './sections.js';

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

/**
 * A table across as many pages as it needs: each page starts with the header row again. Cells are cut to one line
 * (ellipsis) so every row has the same height and a page holds a known number of them.
 */
async function writeTable(doc: Doc, section: Extract<ResolvedSection, { type: 'table' }>, formatDate: (date: Date) => string, onRow: () => Promise<void>): Promise<void> {
  const width = doc.page.width - 2 * margin;
  const columnWidth = width / Math.max(section.columns.length, 1);
  const drawRow = (texts: string[], bold: boolean) => {
    const y = doc.y;
    if (bold) doc.rect(margin, y - 2, width, rowHeight).fill('#e4e7eb').fillColor('black');
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(fontSize);
    texts.forEach((text, index) => doc.text(text, margin + index * columnWidth + 2, y, { width: columnWidth - 4, height: rowHeight - 3, ellipsis: true, lineBreak: false }));
    doc.x = margin;
    doc.y = y + rowHeight;
  };
  const header = section.columns.map((column) => column.label);
  drawRow(header, true);
  let count = 0;
  for await (const cells of section.rows()) {
    if (doc.y + rowHeight > doc.page.height - margin) {
      doc.addPage();
      drawRow(header, true);
    }
    drawRow(cells.map((cell: Cell) => cellDisplay(cell, formatDate)), false);
    count += 1;
    await onRow();
  }
  if (!count) doc.font('Helvetica-Oblique').fontSize(9).text('No record matches.', margin, doc.y + 4);
  doc.moveDown();
}

async function writeChart(doc: Doc, section: Extract<ResolvedSection, { type: 'chart' }>): Promise<void> {
  const width = Math.min(doc.page.width - 2 * margin, 480);
  const height = 240;
  if (!section.spec) {
    // Numbers, tables and facts are not charts: their rows as "label: value" lines.
    const lines = section.data.rows.map((row) => Object.entries(row).filter(([key]) => key !== 'query' && key !== 'index_id').map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : String(value ?? '')}`).join('   '));
    doc.font('Helvetica').fontSize(10).text(lines.length ? lines.join('\n') : section.data.message ?? 'No data.').moveDown();
    return;
  }
  if (doc.y + height > doc.page.height - margin) doc.addPage();
  SVGtoPDF(doc, await chartSvg(section.spec, width, height), margin, doc.y, { width, height, assumePt: true });
  doc.x = margin;
  doc.y += height + 10;
}

/** Writes the PDF: a title page, then each section under its heading. pdfkit writes each finished page out as it goes. */
export async function writePdf(input: RenderInput, path: string): Promise<{ filename: string; contentType: string }> {
  const { report } = input;
  const doc = new PDFDocument({ size: report.page_size, layout: report.orientation, margin, bufferPages: false, info: { Title: report.name, Creator: 'Cartograph' } });
  const output = createWriteStream(path);
  doc.pipe(output);
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
    else if (section.type === 'chart') await writeChart(doc, section);
    else {
      await writeTable(doc, section, formatDate, async () => {
        rows += 1;
        if (rows % progressEvery === 0) await input.onProgress({ sections: index, rows });
      });
    }
    await input.onProgress({ sections: index + 1, rows });
  }
  doc.end();
  await finished(output);
  return { filename: `${fileStem(report.name)}.pdf`, contentType: 'application/pdf' };
}
