import { isIP } from 'node:net';

/** The types a custom adapter's column can have; a column's values are read as its type at fetch time. */
export const customFieldTypes = ['string', 'integer', 'number', 'boolean', 'date', 'ip', 'mac'] as const;
export type CustomFieldType = (typeof customFieldTypes)[number];

/** Cell texts that mean "nothing here": they neither count for nor against a type. */
const emptyTexts = new Set(['', 'null', 'none', 'n/a', 'na', '-', '--', 'undefined', '(null)']);
const booleanWords = new Map([['true', true], ['yes', true], ['y', true], ['false', false], ['no', false], ['n', false]]);
// A leading zero ("007", a zip code, an asset tag) is an identifier to keep as written, not a number.
const integerText = /^-?(0|[1-9]\d*)$/;
const numberText = /^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?$/;
const isoDate = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const dayFirstDate = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/;
const macText = /^([0-9a-f]{2}[:-]){5}[0-9a-f]{2}$|^([0-9a-f]{4}\.){2}[0-9a-f]{4}$|^[0-9a-f]{12}$/i;
const listSeparator = /[,;|\s]+/;

export const isEmptyCell = (value: unknown): boolean =>
  value === null || value === undefined || (typeof value === 'string' && emptyTexts.has(value.trim().toLowerCase()));

/**
 * A date as ISO text, or null: ISO dates as written, and day-first dates as most exports outside the U.S. write them.
 * Before: `"24.11.2026"`; after: `"2026-11-24T00:00:00.000Z"`.
 */
function dateText(text: string): string | null {
  const dayFirst = dayFirstDate.exec(text);
  const candidate = dayFirst ? `${dayFirst[3]}-${dayFirst[2].padStart(2, '0')}-${dayFirst[1].padStart(2, '0')}` : isoDate.test(text) ? text : null;
  if (!candidate) return null;
  const time = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(candidate) ? `${candidate}T00:00:00Z` : candidate);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** Whether one non-empty cell reads as the type (a spreadsheet's typed cells count as their type). */
function reads(type: CustomFieldType, value: unknown): boolean {
  if (type === 'string') return true;
  if (value instanceof Date) return type === 'date' && !Number.isNaN(value.getTime());
  if (typeof value === 'boolean') return type === 'boolean';
  if (typeof value === 'number') return type === 'number' || (type === 'integer' && Number.isInteger(value));
  const text = String(value).trim();
  switch (type) {
    case 'integer': return integerText.test(text) && Number.isSafeInteger(Number(text));
    case 'number': return numberText.test(text);
    case 'boolean': return booleanWords.has(text.toLowerCase());
    case 'date': return dateText(text) !== null;
    case 'ip': return text.split(listSeparator).filter(Boolean).every((item) => isIP(item) !== 0);
    case 'mac': return macText.test(text);
  }
}

// Most specific first: a column of 0/1 is integer, not boolean; of integers, integer before number.
const inferenceOrder: CustomFieldType[] = ['boolean', 'integer', 'number', 'date', 'ip', 'mac'];

/**
 * The most specific type every non-empty value of a column reads as; string when none fits or the column is empty.
 * Before: `["10.0.0.1", "", "10.0.0.2; 10.0.0.3"]`; after: `"ip"`.
 */
export function inferType(values: unknown[]): CustomFieldType {
  const present = values.filter((value) => !isEmptyCell(value));
  if (!present.length) return 'string';
  return inferenceOrder.find((type) => present.every((value) => reads(type, value))) ?? 'string';
}

/**
 * One value read as its column's type, or the value as written when it does not read as one (a data file may stray
 * from its sample: nothing is lost, the raw record keeps it too). Before: `("mac", "00-1A-2B-3C-4D-5E")`; after: `"00:1a:2b:3c:4d:5e"`.
 */
export function convertValue(type: CustomFieldType, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => convertValue(type, item));
  if (value === null || value === undefined || !reads(type, value)) return value;
  if (type === 'string') return value instanceof Date ? value.toISOString() : String(value);
  if (typeof value !== 'string') return value instanceof Date ? value.toISOString() : value;
  const text = value.trim();
  switch (type) {
    case 'integer':
    case 'number': return Number(text);
    case 'boolean': return booleanWords.get(text.toLowerCase());
    case 'date': return dateText(text);
    case 'ip': return text;
    case 'mac': return text.toLowerCase().replace(/[^0-9a-f]/g, '').match(/../g)!.join(':');
  }
}
