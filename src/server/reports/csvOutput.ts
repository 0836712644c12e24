import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { Readable } from 'node:stream';
import archiver from 'archiver';
import { csvField, cellText } from '../inventory/exports.js';
import { cellDisplay, typedCell } from './cells.js';
import { chartTable, fileStem, progressEvery, type RenderInput } from './output.js';

type CsvFile = { name: string; lines: () => AsyncGenerator<string> };

/** One CSV file per table (and per chart's data), each produced line by line as it is written. */
function csvFiles(input: RenderInput): CsvFile[] {
  let rows = 0;
  return input.sections.flatMap((section, index): CsvFile[] => {
    const name = `${String(index + 1).padStart(2, '0')}-${fileStem(section.title)}.csv`;
    if (section.type === 'table') {
      return [{
        name,
        lines: async function* () {
          yield `\ufeff${section.columns.map((column) => csvField(cellText([column.label]))).join(',')}\r\n`;
          for await (const row of section.rows()) {
            yield `${row.map((cell) => csvField(typeof cell === 'string' ? cell : cellDisplay(cell))).join(',')}\r\n`;
            rows += 1;
            if (rows % progressEvery === 0) await input.onProgress({ sections: index, rows });
          }
          await input.onProgress({ sections: index + 1, rows });
        },
      }];
    }
    if (section.type === 'chart') {
      const table = chartTable(section);
      return [{
        name,
        lines: async function* () {
          yield `\ufeff${table.headings.map((heading) => csvField(cellText([heading]))).join(',')}\r\n`;
          for (const row of table.rows) yield `${row.map((value) => csvField(cellDisplay(typedCell([value].flat())))).join(',')}\r\n`;
        },
      }];
    }
    return [];
  });
}

/** Writes the CSV output to `path`: the one file itself, or a zip of one file per table when there are several. */
export async function writeCsv(input: RenderInput, path: string): Promise<{ filename: string; contentType: string }> {
  const files = csvFiles(input);
  const stem = fileStem(input.report.name);
  if (files.length === 1) {
    const output = createWriteStream(path);
    for await (const line of files[0].lines()) if (!output.write(line)) await once(output, 'drain');
    output.end();
    await finished(output);
    return { filename: `${stem}.csv`, contentType: 'text/csv; charset=utf-8' };
  }
  const output = createWriteStream(path);
  const zip = archiver('zip', { zlib: { level: 6 } });
  zip.pipe(output);
  // archiver reads the entries one after the other, so only the file being written is being produced.
  for (const file of files) zip.append(Readable.from(file.lines()), { name: file.name });
  if (!files.length) zip.append('No table in this report.\r\n', { name: 'README.txt' });
  await zip.finalize();
  await finished(output);
  return { filename: `${stem}.zip`, contentType: 'application/zip' };
}
