import { FeedError } from './feedText.js';
import { cvePattern } from './kevFeed.js';

/** One CVE's EPSS score, as stored. */
export type EpssRow = { cve_id: string; score: number; percentile: number; score_date: string | null };

const probability = (text: string) => /^(0(\.\d+)?|1(\.0+)?|\d?\.\d+(e-?\d+)?)$/i.test(text) && Number(text) >= 0 && Number(text) <= 1;

/**
 * Streams FIRST's daily EPSS CSV: an optional comment line `#model_version:v2023.03.01,score_date:2024-…`, the header
 * `cve,epss,percentile`, then one CVE a line. Any line that does not read as such (a cut-off last line included)
 * fails the import, naming its line.
 */
export async function* epssRows(chunks: AsyncIterable<string>): AsyncGenerator<EpssRow> {
  let lineNumber = 0;
  let pending = '';
  let scoreDate: string | null = null;
  let columns: { cve: number; epss: number; percentile: number } | null = null;
  let rows = 0;
  function read(line: string): EpssRow | null {
    lineNumber += 1;
    const trimmed = line.replace(/\r$/, '').replace(/^\uFEFF/, '');
    if (!trimmed.trim()) return null;
    if (trimmed.startsWith('#')) {
      scoreDate = /score_date:(\d{4}-\d{2}-\d{2})/.exec(trimmed)?.[1] ?? scoreDate;
      return null;
    }
    const cells = trimmed.split(',').map((cell) => cell.trim());
    if (!columns) {
      const header = cells.map((cell) => cell.toLowerCase());
      columns = { cve: header.indexOf('cve'), epss: header.indexOf('epss'), percentile: header.indexOf('percentile') };
      if (columns.cve < 0 || columns.epss < 0 || columns.percentile < 0) throw new FeedError(`Line ${lineNumber} should be the header cve,epss,percentile but is "${trimmed.slice(0, 80)}".`);
      return null;
    }
    const [cve, epss, percentile] = [cells[columns.cve], cells[columns.epss], cells[columns.percentile]];
    if (!cve || !cvePattern.test(cve.toUpperCase())) throw new FeedError(`Line ${lineNumber} has no valid CVE id: "${trimmed.slice(0, 80)}".`);
    if (epss === undefined || percentile === undefined || !probability(epss) || !probability(percentile)) {
      throw new FeedError(`Line ${lineNumber} (${cve}) has no EPSS score and percentile between 0 and 1: "${trimmed.slice(0, 80)}" (a file cut short ends this way).`);
    }
    rows += 1;
    return { cve_id: cve.toUpperCase(), score: Number(epss), percentile: Number(percentile), score_date: scoreDate };
  }
  for await (const chunk of chunks) {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    if (pending.length > 10_000) throw new FeedError(`Line ${lineNumber + 1} is longer than any EPSS line: the file is not an EPSS CSV.`);
    for (const line of lines) {
      const row = read(line);
      if (row) yield row;
    }
  }
  const last = read(pending);
  if (last) yield last;
  if (!columns) throw new FeedError('The file has no header line cve,epss,percentile: it is not an EPSS CSV.');
  if (!rows) throw new FeedError('The EPSS file holds no scores.');
}
