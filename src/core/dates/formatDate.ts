import { format, formatDistance } from 'date-fns';
import { enUS } from 'date-fns/locale';
import { toDate } from './parseDate.js';

/**
 * The date-fns locale of the console's one locale (en-US, as numbers: src/core/format/numbers.ts): month names and
 * relative phrases ("3 days ago") read in it.
 */
export const dateLocale = enUS;

/** What the console shows in place of a missing date. */
export const noDateText = '-';

/** Spec §3/§5: a missing value, an unreadable one and year 0001 (the API's empty date) are no date. */
export function isNoDate(value: unknown): boolean {
  const date = toDate(value);
  return date === null || date.getFullYear() <= 1;
}

/**
 * The date rule of spec §3, for every date the console shows (lists, details, previews, charts, discoveries): two-digit
 * day, long month, numeric year, and for a moment in time the time to the minute. Exports keep ISO-8601.
 */
export const datePattern = 'dd MMMM yyyy';
export const dateTimePattern = `${datePattern}, HH:mm`;
/** The same rule in d3-time-format, which Vega-Lite charts take. */
export const chartDatePattern = '%d %B %Y';
export const chartDateTimePattern = `${chartDatePattern}, %H:%M`;

/** A calendar day (`format: date`) or a moment in time (`format: date-time`, the inventories' date fields). */
export type DatePrecision = 'date' | 'date-time';

/**
 * The one formatter of dates: "-" for no date (missing or year 0001), and text that reads as no date as it is
 * written (a source's own words are not hidden). Before: `"2024-03-05T10:20:30"`; after: `"05 March 2024, 10:20"`,
 * or `"05 March 2024"` as a date.
 */
export function formatDate(value: unknown, precision: DatePrecision = 'date-time'): string {
  const date = toDate(value);
  if (date === null) return typeof value === 'string' && value.trim() ? value : noDateText;
  return isNoDate(date) ? noDateText : format(date, precision === 'date' ? datePattern : dateTimePattern, { locale: dateLocale });
}

export type ElapsedParts = { hours: number; minutes: number; seconds: number };

/**
 * Elapsed time between two moments in hours, minutes and seconds; a negative part shows as zero (spec §5).
 * Without an end, the elapsed time runs to `now`.
 */
export function elapsedParts(start: unknown, end: unknown = null, now: Date = new Date()): ElapsedParts {
  const from = toDate(start);
  const to = end === null || end === undefined || isNoDate(end) ? now : toDate(end);
  if (!from || !to || isNoDate(from)) return { hours: 0, minutes: 0, seconds: 0 };
  const totalSeconds = Math.trunc((to.getTime() - from.getTime()) / 1000);
  const clamp = (part: number) => Math.max(0, part);
  return {
    hours: clamp(Math.trunc(totalSeconds / 3600)),
    minutes: clamp(Math.trunc((totalSeconds % 3600) / 60)),
    seconds: clamp(totalSeconds % 60),
  };
}

/** Before: 3723 seconds between start and end; after: `"1h 2m 3s"`. */
export function formatElapsed(start: unknown, end: unknown = null, now: Date = new Date()): string {
  const { hours, minutes, seconds } = elapsedParts(start, end, now);
  return `${hours}h ${minutes}m ${seconds}s`;
}

const partTokens: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = { day: 'dd', month: 'MM', year: 'yyyy' };

/**
 * The date placeholder of the browser's locale (spec §5). Before: `"en-US"`; after: `"MM/dd/yyyy"`; `"de-DE"` → `"dd.MM.yyyy"`.
 */
export function datePlaceholder(locale: string | undefined = typeof navigator === 'undefined' ? undefined : navigator.language): string {
  const parts = new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric' }).formatToParts(new Date(2024, 10, 22));
  return parts.map((part) => partTokens[part.type] ?? part.value).join('');
}

/**
 * A moment relative to now, where the distance matters more than the day ("3 days ago", "in 2 months"); the page
 * shows the full date (formatDate) in its tooltip. No date: "-".
 */
export function formatRelativeDate(value: unknown, now: Date = new Date()): string {
  const date = toDate(value);
  if (date === null || isNoDate(date)) return noDateText;
  return formatDistance(date, now, { addSuffix: true, locale: dateLocale });
}
