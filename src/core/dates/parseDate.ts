import { isValid, parse, parseISO } from 'date-fns';

/** The date orders of spec §5, tried in this order (so 03/04/2024 reads as 3 April, day first). */
export const acceptedDateFormats = [
  'yyyy-MM-dd',
  'dd/MM/yyyy',
  'MM/dd/yyyy',
  'yyyy/MM/dd',
  'dd.MM.yyyy',
  'MM.dd.yyyy',
  'dd-MM-yyyy',
  'MM-dd-yyyy',
  'yyyy.MM.dd',
] as const;

/** Each date may be followed by a time, with or without a comma between them. */
export const acceptedTimeSuffixes = ['', ' HH:mm:ss', ' HH:mm', ', HH:mm:ss', ', HH:mm'] as const;

/** Every accepted pattern apart from ISO date-times: date orders × time suffixes. */
export const acceptedDatePatterns: readonly string[] = acceptedDateFormats.flatMap((format) => acceptedTimeSuffixes.map((suffix) => `${format}${suffix}`));

const isoDateTime = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}(:?\d{2})?)?$/;

// date-fns' parse is lenient about digit counts ("24" passes as yyyy); this shape check keeps years four digits long.
function shapeOf(pattern: string): RegExp {
  const source = pattern
    .replace(/[.]/g, '\\.')
    .replace('yyyy', '\\d{4}')
    .replace(/dd|MM|HH|mm|ss/g, '\\d{1,2}');
  return new RegExp(`^${source}$`);
}
const shapes = acceptedDatePatterns.map((pattern) => ({ pattern, shape: shapeOf(pattern) }));
const referenceDate = new Date(2000, 0, 1);

/**
 * Reads a date written in any format of spec §5, or null when it is none of them.
 * Before: `"31.12.2024, 08:15"`; after: the local date 2024-12-31 08:15:00.
 */
export function parseDate(text: string): Date | null {
  const value = text.trim();
  if (isoDateTime.test(value)) {
    const date = parseISO(value.replace(' ', 'T'));
    return isValid(date) ? date : null;
  }
  for (const { pattern, shape } of shapes) {
    if (!shape.test(value)) continue;
    const date = parse(value, pattern, referenceDate);
    if (isValid(date)) return date;
  }
  return null;
}

/** A date from what the API or a form holds: a Date, epoch milliseconds or text in an accepted format. */
export function toDate(value: unknown): Date | null {
  if (value instanceof Date) return isValid(value) ? value : null;
  if (typeof value === 'number') return Number.isFinite(value) ? new Date(value) : null;
  if (typeof value === 'string' && value.trim()) return parseDate(value);
  return null;
}
