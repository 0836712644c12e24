import type { Database } from '../db/database.js';
import type { QueryReader } from '../query/savedQueryStore.js';
import { isTimeZone } from '../../core/dates/index.js';
import { fieldError, Invalid } from '../errors.js';
import { cellDisplay, dateFormatterFor } from './cells.js';
import type { ReportDocument } from './reportDocuments.js';
import { unknownTimeZone } from './scheduleTimes.js';
import { isProblem, resolveSection } from './sections.js';
import { readableSnapshot } from '../inventory/snapshots.js';

// Rows of each table the builder's preview shows.
export const previewRows = 20;

/**
 * The builder's live preview, computed by the same code as a run: each section's first rows, how many records match
 * (`count`) and how many rows the report's table will hold (`report_rows`, fewer when its limit cuts it), charts'
 * data and Vega-Lite spec, text's Markdown tree; a section that cannot be computed says why instead.
 */
export async function previewReport(db: Database, reader: QueryReader, report: ReportDocument) {
  const { companyId } = reader;
  if (!isTimeZone(report.time_zone)) throw fieldError('time_zone', unknownTimeZone(report.time_zone));
  const snapshot = await readableSnapshot(db, companyId, report.index_id);
  if (!snapshot) throw new Invalid({ index_id: ['No published snapshot to preview: run a discovery first, or choose another snapshot.'] });
  const formatDate = dateFormatterFor(report.time_zone);
  const scope = { db, companyId, userId: reader.userId, snapshot, now: new Date() };
  const sections = [];
  for (const [index, section] of report.sections.entries()) {
    const resolved = await resolveSection(scope, section, index);
    if (isProblem(resolved)) {
      sections.push({ type: section.type, title: resolved.title, error: resolved.message });
    } else if (resolved.type === 'table') {
      const rows: string[][] = [];
      for await (const cells of resolved.rows()) {
        rows.push(cells.map((cell) => cellDisplay(cell, formatDate)));
        if (rows.length >= previewRows) break;
      }
      const count = await resolved.count();
      sections.push({ type: section.type, title: resolved.title, columns: resolved.columns, rows, count, report_rows: Math.min(count, resolved.limit), limit: resolved.limit });
    } else if (resolved.type === 'chart') {
      sections.push({ type: 'chart', title: resolved.title, data: resolved.data, spec: resolved.spec });
    } else {
      sections.push({ type: 'text', title: resolved.title, blocks: resolved.blocks });
    }
  }
  return { index_id: snapshot.id, sections };
}
