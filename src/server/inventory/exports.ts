import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Database } from '../db/database.js';
import { documentSql } from '../query/fieldColumns.js';
import { connectionNameOf } from '../../core/connectionNames.js';
import { fieldLabelOf } from './fieldMaps.js';
import { inventorySchemas } from './indexedFields.js';
import type { QueryReader } from '../query/savedQueryStore.js';
import { planSnapshotQuery, withStatementTimeout, type InventorySearch } from './search.js';
import { snapshotConnections } from './snapshotConnections.js';
import { resolveSnapshot } from './snapshots.js';

export type InventoryExport = { format: 'csv' | 'xlsx'; query?: string; fields: string[]; labels?: string[]; index_id?: number | null; ordering?: InventorySearch['ordering'] };

// Assets read per statement while streaming, and the most one export may hold.
const chunkSize = 1000;
export const maximumExportRows = 500_000;

/**
 * A cell a spreadsheet will not execute: text starting with `=`, `+`, `-`, `@`, tab or carriage return gets a
 * leading apostrophe (OWASP's advice against CSV/formula injection). Before: `=HYPERLINK("http://x")`; after:
 * `'=HYPERLINK("http://x")`.
 */
export function neutralizeFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** A field's values as one cell: `["10.0.0.1", "10.0.0.2"]` → `10.0.0.1, 10.0.0.2`, escaped against formulas. */
export function cellText(values: unknown): string {
  const list = Array.isArray(values) ? values : values === undefined || values === null ? [] : [values];
  return neutralizeFormula(list.map((value) => (typeof value === 'object' ? JSON.stringify(value) : String(value))).join(', '));
}

/** How XLSX exports show dates: ISO order, to the minute (the cell holds a real date Excel sorts and filters). */
export const xlsxDateFormat = 'yyyy-mm-dd hh:mm';

const isoMoment = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * One XLSX cell of a field's values: a single number stays a number and a single ISO date a date, so Excel sorts
 * and sums them; several values, or text, are one text cell as in CSV. CSV keeps ISO 8601 text (docs/api.md).
 */
export function xlsxCell(values: unknown): unknown {
  const list = Array.isArray(values) ? values : values === undefined || values === null ? [] : [values];
  if (list.length === 1) {
    const [value] = list;
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'string' && isoMoment.test(value)) {
      const date = new Date(/T/.test(value) || value.length > 10 ? value : `${value}T00:00:00Z`);
      if (!Number.isNaN(date.getTime()) && date.getUTCFullYear() > 1) return date;
    }
  }
  return cellText(list);
}

/** RFC 4180 quoting: `a "b", c` → `"a ""b"", c"`. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** What a snapshot read is asked for: a query, the fields to read, the order and how many records at most. */
export type SnapshotRead = { query?: string; fields: string[]; ordering?: InventorySearch['ordering']; limit?: number };

/**
 * A snapshot's records matching a query, in order, with the fields asked for: asset ids are sorted once, then
 * fields are read in chunks, so only one chunk of records is held at a time.
 */
export async function* snapshotRecords(db: Database, reader: QueryReader, discoveryId: number, entity: string, read: SnapshotRead): AsyncGenerator<{ id: string; fields: Record<string, unknown[]> }> {
  const limit = Math.min(read.limit ?? maximumExportRows, maximumExportRows);
  const ids = await withStatementTimeout(db, async (connection) => {
    const plan = await planSnapshotQuery(connection, reader, discoveryId, entity, read.query, read.ordering);
    const rows = await connection.query<{ asset_id: string }>(`select asset_id from ${plan.table} where ${plan.where} order by ${plan.orderSql} limit ${limit}`, plan.params);
    return rows.map((row) => row.asset_id);
  });
  for (let start = 0; start < ids.length; start += chunkSize) {
    const chunk = ids.slice(start, start + chunkSize);
    const rows = await db.query<{ asset_id: string; fields: Record<string, unknown[]> }>(
      `select asset_id, ${documentSql(read.fields)} as fields from snapshot_assets where discovery_id = $1 and entity = $2 and asset_id = any($3::text[])`,
      [discoveryId, entity, chunk],
    );
    const byId = new Map(rows.map((row) => [row.asset_id, row.fields]));
    for (const id of chunk) {
      const fields = byId.get(id);
      if (fields) yield { id, fields };
    }
  }
}

/**
 * The rows of an export, in the list's order. Values are written as stored (dates stay ISO-8601), but connections
 * by their names, as the list shows them.
 */
async function* exportRows(db: Database, reader: QueryReader, entity: string, request: InventoryExport): AsyncGenerator<unknown[][]> {
  const discoveryId = await resolveSnapshot(db, reader.companyId, request.index_id);
  const connections = request.fields.includes('Connections') ? await snapshotConnections(db, discoveryId) : [];
  const valuesOf = (field: string, id: string, fields: Record<string, unknown[]>): unknown[] => {
    if (field === 'PrimaryKey') return [id];
    if (field === 'Connections') return (fields.Connections ?? []).map((connection) => connectionNameOf(connections, Number(connection)));
    return fields[field] ?? [];
  };
  for await (const { id, fields } of snapshotRecords(db, reader, discoveryId, entity, request)) yield request.fields.map((field) => valuesOf(field, id, fields));
}

export const headingsOf = (entity: string, request: InventoryExport) => request.fields.map((field, index) => neutralizeFormula(request.labels?.[index] || fieldLabelOf(inventorySchemas[entity], field)));

/**
 * Streams an export of exactly a list's view (its query, columns and sort). Errors in the query surface before
 * the first byte (the caller awaits `ready`); the body is produced as the client reads it.
 */
export async function exportInventory(db: Database, reader: QueryReader, entity: string, request: InventoryExport): Promise<Readable> {
  const rows = exportRows(db, reader, entity, request);
  // Start the generator so a bad query or a missing snapshot is an error answer, not a broken download.
  const first = await rows.next();
  async function* all() {
    if (!first.done) yield first.value;
    yield* rows;
  }
  if (request.format === 'csv') {
    return Readable.from((async function* () {
      yield `\ufeff${headingsOf(entity, request).map(csvField).join(',')}\r\n`;
      for await (const row of all()) yield `${row.map((values) => csvField(cellText(values))).join(',')}\r\n`;
    })());
  }
  const output = new PassThrough();
  // Styles on: a date cell needs its number format for Excel to show it as a date.
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useSharedStrings: false, useStyles: true });
  const sheet = workbook.addWorksheet(({ device: 'Devices', user: 'Users', software: 'Software', vulnerability: 'Vulnerabilities', service: 'Services', license: 'Licenses' } as Record<string, string>)[entity] ?? entity);
  void (async () => {
    sheet.addRow(headingsOf(entity, request)).commit();
    for await (const row of all()) {
      const added = sheet.addRow(row.map(xlsxCell));
      added.eachCell((cell) => { if (cell.value instanceof Date) cell.numFmt = xlsxDateFormat; });
      added.commit();
      // Let a slow client pace the workbook instead of buffering it whole.
      if (output.writableNeedDrain) await once(output, 'drain');
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error: Error) => output.destroy(error));
  return output;
}
