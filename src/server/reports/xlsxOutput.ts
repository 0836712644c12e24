import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import ExcelJS from 'exceljs';
import { neutralizeFormula } from '../inventory/exports.js';
import { typedCell } from './cells.js';
import { chartTable, fileStem, isCut, progressEvery, tableCountText, type RenderInput } from './output.js';

/** A sheet name Excel accepts (31 characters, none of `[]:*?/\`), unique within the workbook. */
function sheetName(title: string, taken: Set<string>): string {
  const base = title.replace(/[[\]:*?/\\]/g, ' ').trim().slice(0, 28) || 'Sheet';
  let name = base;
  for (let suffix = 2; taken.has(name.toLowerCase()); suffix += 1) name = `${base} ${suffix}`;
  taken.add(name.toLowerCase());
  return name;
}

const columnLetter = (count: number): string => (count <= 26 ? String.fromCharCode(64 + count) : columnLetter(Math.floor((count - 1) / 26)) + String.fromCharCode(65 + ((count - 1) % 26)));

/**
 * Writes one sheet per table or chart through exceljs's streaming writer: each row is committed (written out) as
 * it is added, so a 100k-row table is never held whole. Cells keep their type (numbers, dates, booleans), the header
 * row is frozen and carries an auto filter.
 */
export async function writeXlsx(input: RenderInput, path: string): Promise<{ filename: string; contentType: string }> {
  const output = createWriteStream(path);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useSharedStrings: false, useStyles: true });
  workbook.creator = 'Cartograph';
  const taken = new Set<string>();
  let rows = 0;
  const addSheet = (title: string, headings: string[]) => {
    const sheet = workbook.addWorksheet(sheetName(title, taken), { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.autoFilter = `A1:${columnLetter(Math.max(headings.length, 1))}1`;
    sheet.columns = headings.map((heading) => ({ header: neutralizeFormula(heading), width: Math.min(Math.max(heading.length + 4, 14), 50) }));
    sheet.getRow(1).font = { bold: true };
    sheet.getRow(1).commit();
    return sheet;
  };
  for (const [index, section] of input.sections.entries()) {
    if (section.type === 'table') {
      const sheet = addSheet(section.title, section.columns.map((column) => column.label));
      for await (const cells of section.rows()) {
        const row = sheet.addRow(cells);
        cells.forEach((cell, cellIndex) => { if (cell instanceof Date) row.getCell(cellIndex + 1).numFmt = 'yyyy-mm-dd hh:mm'; });
        row.commit();
        rows += 1;
        if (rows % progressEvery === 0) await input.onProgress({ sections: index, rows });
      }
      // A cut table says so under its rows, a blank row apart so sorting and filtering leave the note out.
      if (isCut(section)) {
        sheet.addRow([]).commit();
        const note = sheet.addRow([tableCountText(section)]);
        note.font = { italic: true };
        note.commit();
      }
      sheet.commit();
    } else if (section.type === 'chart') {
      const table = chartTable(section);
      const sheet = addSheet(section.title, table.headings);
      for (const values of table.rows) sheet.addRow(values.map((value) => typedCell([value].flat()))).commit();
      sheet.commit();
    }
    await input.onProgress({ sections: index + 1, rows });
  }
  if (!taken.size) workbook.addWorksheet('Report').commit();
  await workbook.commit();
  await finished(output);
  return { filename: `${fileStem(input.report.name)}.xlsx`, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' };
}
