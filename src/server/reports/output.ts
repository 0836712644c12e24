import type { ReportDocument } from './reportDocuments.js';
import type { CountedSection, ResolvedSection } from './sections.js';

/** What every writer is given: the report, its sections resolved against one snapshot, and a progress callback. */
export type RenderInput = {
  report: ReportDocument;
  sections: CountedSection[];
  companyName: string;
  /** The company's logo (PNG or JPEG, checked when uploaded) when the report shows it and one is uploaded. */
  logo: Buffer | null;
  snapshot: { id: number; start_time: Date };
  now: Date;
  /** Called every so many rows and after each section, so the run's progress can be recorded. */
  onProgress: (done: { sections: number; rows: number }) => Promise<void>;
};

// Rows between two progress reports.
export const progressEvery = 5000;

/** A file name part from a title: `Unmanaged devices / EU` → `Unmanaged-devices-EU`. */
export function fileStem(title: string): string {
  return title.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'report';
}

type CountedTable = Extract<CountedSection, { type: 'table' }>;
const number = (value: number) => value.toLocaleString('en-US');

/** Whether a table shows fewer rows than match (its section's limit, or the 500,000 of a table without one). */
export const isCut = (table: CountedTable) => table.shown < table.matching;

/**
 * What a report says of a table's rows under its title: `2,266 devices`, `1 device`, or when the table was cut
 * `Showing 1,000 of 2,266 devices (the table stops at 1,000 rows).`
 */
export function tableCountText(table: CountedTable): string {
  const [one, many] = table.noun;
  if (isCut(table)) return `Showing ${number(table.shown)} of ${number(table.matching)} ${many} (the table stops at ${number(table.limit)} rows).`;
  return `${number(table.matching)} ${table.matching === 1 ? one : many}`;
}

/** The chart's rows as a table (label, value, …) so CSV and XLSX carry what a chart shows. */
export function chartTable(section: Extract<ResolvedSection, { type: 'chart' }>): { headings: string[]; rows: unknown[][] } {
  const columns = section.data.columns ?? [...new Set(section.data.rows.flatMap((row) => Object.keys(row)))].filter((key) => key !== 'query' && key !== 'index_id');
  return { headings: columns, rows: section.data.rows.map((row) => columns.map((column) => row[column] ?? null)) };
}
