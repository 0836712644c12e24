import { format } from 'date-fns';
import { toDate } from './parseDate.js';

/** What the console shows in place of a missing date. */
export const noDateText = '-';

/** Spec §3/§5: a missing value, an unreadable one and year 0001 (the API's empty date) are no date. */
export function isNoDate(value: unknown): boolean {
  const date = toDate(value);
  return date === null || date.getFullYear() <= 1;
}

/** A date in a date-fns pattern, or "-" for no date. */
export function formatDate(value: unknown, pattern = 'yyyy-MM-dd HH:mm:ss'): string {
  const date = toDate(value);
  return date === null || isNoDate(date) ? noDateText : format(date, pattern);
}

/**
 * The discovery date of spec §3: two-digit day, long month, numeric year.
 * Before: `"2024-03-05T10:20:30Z"`; after: `"05 March 2024"`. `"0001-01-01T00:00:00"` → `"-"`.
 */
export function formatDiscoveryDate(value: unknown): string {
  return formatDate(value, 'dd MMMM yyyy');
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
