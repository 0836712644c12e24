import { cellText } from '../inventory/exports.js';

/** A cell as a spreadsheet types it: numbers, booleans and dates stay themselves; anything else is text. */
export type Cell = string | number | boolean | Date | null;

const isoDate = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A field's values as one typed cell: `[42]` → 42, `["2026-11-20T10:00:00Z"]` → a Date, `[true]` → true, several
 * values or text → their text joined (escaped against formulas), none → null.
 */
export function typedCell(values: unknown): Cell {
  const list = Array.isArray(values) ? values : values === undefined || values === null ? [] : [values];
  if (!list.length) return null;
  if (list.length === 1) {
    const [value] = list;
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'boolean') return value;
    if (typeof value === 'string' && isoDate.test(value) && !Number.isNaN(Date.parse(value))) return new Date(value);
  }
  return cellText(list);
}

// Fields a report shows by one value, as the inventory lists do: a device's host name in its display form (the spelling
// chosen when the snapshot was built, first among its values), not every spelling its sources gave joined.
const shownByDisplayForm = new Set(['Hostname']);

/** A record's field as a report cell: `PrimaryKey` is its id, `Hostname` its display form, any other field every value. */
export function fieldCell(field: string, id: string, values: unknown[] | undefined): Cell {
  if (field === 'PrimaryKey') return typedCell([id]);
  return typedCell(shownByDisplayForm.has(field) ? values?.slice(0, 1) : values);
}

/** A typed cell as text of a CSV file or a PDF table (dates in ISO-8601 or in the report's time zone). */
export function cellDisplay(cell: Cell, formatDate: (date: Date) => string = (date) => date.toISOString()): string {
  if (cell === null) return '';
  if (cell instanceof Date) return formatDate(cell);
  return String(cell);
}

/** Dates as people of the report's time zone read them: `25 Nov 2026, 14:05`. */
export function dateFormatterFor(timeZone: string): (date: Date) => string {
  const format = new Intl.DateTimeFormat('en-GB', { timeZone, day: '2-digit', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return (date) => format.format(date);
}
