import type { ReportDocument } from './reportDocuments.js';
import type { ResolvedSection } from './sections.js';

/** What every writer is given: the report, its sections resolved against one snapshot, and a progress callback. */
export type RenderInput = {
  report: ReportDocument;
  sections: ResolvedSection[];
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

/** The chart's rows as a table (label, value, …) so CSV and XLSX carry what a chart shows. */
export function chartTable(section: Extract<ResolvedSection, { type: 'chart' }>): { headings: string[]; rows: unknown[][] } {
  const columns = section.data.columns ?? [...new Set(section.data.rows.flatMap((row) => Object.keys(row)))].filter((key) => key !== 'query' && key !== 'index_id');
  return { headings: columns, rows: section.data.rows.map((row) => columns.map((column) => row[column] ?? null)) };
}
