import { parseMarkdown, type MarkdownBlock } from '../../core/markdown/parseMarkdown.js';
import { vegaSpecFor, type VegaLiteSpec } from '../../core/dashboards/widgetSpecs.js';
import type { Database, Queryable } from '../db/database.js';
import { computeWidget, widgetSettingsOf } from '../dashboards/computeWidget.js';
import { andQueries } from '../dashboards/snapshotScope.js';
import type { WidgetData } from '../dashboards/widgetData.js';
import { DomainError, Invalid } from '../errors.js';
import { fieldLabelOf } from '../inventory/fieldMaps.js';
import { inventorySchemas } from '../inventory/indexedFields.js';
import { planSnapshotQuery, withStatementTimeout } from '../inventory/search.js';
import { fieldCell, type Cell } from './cells.js';
import { comparisonRows, previousSnapshot } from './comparison.js';
import type { ReportScope } from './reportScope.js';
import type { ReportSection } from './reportDocuments.js';
import { maximumExportRows, snapshotRecords } from '../inventory/exports.js';

export type TableColumn = { field: string; label: string };

/** Rows a table holds at most when its section sets no limit of its own (the schema's maximum, stated in its help). */
export const maximumReportRows = maximumExportRows;

/**
 * A table or comparison: its rows (at most `limit`) as a stream, and `count`, every record that matches (or every
 * change), so the report can say when the table was cut. `noun` names a row once and many times.
 */
export type TableSection = {
  type: 'table'; title: string; noun: [string, string]; columns: TableColumn[]; limit: number; rows: () => AsyncGenerator<Cell[]>; count: () => Promise<number>;
};

/** A section ready to be written: tables stream their rows; charts carry their computed data and Vega-Lite spec. */
export type ResolvedSection =
  | TableSection
  | { type: 'chart'; title: string; data: WidgetData; spec: VegaLiteSpec | null }
  | { type: 'text'; title: string; blocks: MarkdownBlock[] };

/** A section as the writers get it: a table knows how many records match and how many of them it shows. */
export type CountedSection = Exclude<ResolvedSection, TableSection> | (TableSection & { matching: number; shown: number });

/** Counts each table's matching records once, before any file is written (a PDF numbers its pages from them). */
export async function countTables(sections: ResolvedSection[]): Promise<CountedSection[]> {
  const counted: CountedSection[] = [];
  for (const section of sections) {
    if (section.type !== 'table') counted.push(section);
    else {
      const matching = await section.count();
      counted.push({ ...section, matching, shown: Math.min(matching, section.limit) });
    }
  }
  return counted;
}

/** A section that cannot be computed, and why (shown in the builder's preview and failing a run). */
export type SectionProblem = { index: number; title: string; message: string };

export type { ReportScope } from './reportScope.js';

/** The section's whole query: its saved query (as `Query is <id>`) and its text, joined with AND. */
export const sectionQueryText = (section: ReportSection) => andQueries(section.saved_query ? `Query is ${section.saved_query}` : '', section.query);

/** The message of an error a user can act on (a query that does not parse, a deleted saved query), else rethrown. */
export function problemMessage(error: unknown): string {
  if (error instanceof DomainError) {
    const body = error.body as Record<string, unknown>;
    if (typeof body.detail === 'string') return body.detail;
    return Object.values(body).flat().map(String).join(' ');
  }
  throw error;
}

const titleOf = (section: ReportSection, index: number) => section.title || `Section ${index + 1}`;
const nouns: Record<ReportSection['inventory'], [string, string]> = {
  device: ['device', 'devices'], user: ['user', 'users'], software: ['software product', 'software products'], vulnerability: ['vulnerability', 'vulnerabilities'],
  certificate: ['certificate', 'certificates'], service: ['service', 'services'], license: ['license', 'licenses'],
};
const columnsOf = (section: ReportSection): TableColumn[] => {
  const fields = section.columns.length ? section.columns : ['Hostname'];
  return fields.map((field) => ({ field, label: fieldLabelOf(inventorySchemas[section.inventory], field) }));
};

async function tableSection(scope: ReportScope, section: ReportSection, title: string): Promise<ResolvedSection> {
  const { db, companyId } = scope;
  const discoveryId = scope.snapshot.id;
  const query = sectionQueryText(section);
  const columns = columnsOf(section);
  const ordering = section.sort.map((key) => ({ field: key.field, order: key.order ?? 'asc' }));
  // Planning compiles the query: a query that no longer parses or names a deleted saved query fails here, not mid-file.
  await withStatementTimeout(db, (connection) => planSnapshotQuery(connection, scope, discoveryId, section.inventory, query, ordering));
  const limit = section.limit ?? maximumReportRows;
  const read = { query, fields: columns.map((column) => column.field), ordering, limit };
  return {
    type: 'table', title, noun: nouns[section.inventory], columns, limit,
    rows: async function* () {
      for await (const record of snapshotRecords(db, scope, discoveryId, section.inventory, read)) {
        yield columns.map((column) => fieldCell(column.field, record.id, record.fields[column.field]));
      }
    },
    count: () => withStatementTimeout(db, async (connection) => {
      const plan = await planSnapshotQuery(connection, scope, discoveryId, section.inventory, query);
      const [row] = await connection.query<{ count: number }>(`select count(*)::int as count from ${plan.table} where ${plan.where}`, plan.params);
      return row.count;
    }),
  };
}

async function comparisonSection(scope: ReportScope, section: ReportSection, title: string): Promise<ResolvedSection> {
  const earlier = section.compare_to ?? (await previousSnapshot(scope.db, scope.companyId, scope.snapshot.id));
  if (!earlier) throw new Invalid({ compare_to: ['There is no earlier snapshot to compare with.'] });
  const columns = columnsOf(section);
  const comparison = await comparisonRows(scope, section.inventory, sectionQueryText(section), earlier, columns.map((column) => column.field));
  const limit = section.limit ?? maximumReportRows;
  return {
    type: 'table', title, noun: ['change', 'changes'], columns: [{ field: 'Change', label: 'Change' }, ...columns], limit,
    rows: () => comparison.rows(limit),
    count: comparison.count,
  };
}

/** Resolves one section against the snapshot; a problem the user can fix is answered as a message. */
export async function resolveSection(scope: ReportScope, section: ReportSection, index: number): Promise<ResolvedSection | SectionProblem> {
  const title = titleOf(section, index);
  try {
    if (section.type === 'text') return { type: 'text', title, blocks: parseMarkdown(section.markdown) };
    if (section.type === 'table') return await tableSection(scope, section, title);
    if (section.type === 'comparison') return await comparisonSection(scope, section, title);
    if (!section.widget) throw new Invalid({ widget: ['A chart section needs a widget.'] });
    // The widget reads the report's snapshot as its latest, so a run against an older snapshot charts that one.
    const data = await computeWidget({ db: scope.db, companyId: scope.companyId, userId: scope.userId, now: scope.now, snapshot: scope.snapshot }, widgetSettingsOf(section.widget));
    return { type: 'chart', title, data, spec: vegaSpecFor(data, 'light') };
  } catch (error) {
    return { index, title, message: problemMessage(error) };
  }
}

export const isProblem = (section: ResolvedSection | SectionProblem): section is SectionProblem => 'message' in section;
