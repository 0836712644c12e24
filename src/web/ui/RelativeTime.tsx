import { formatDate, formatRelativeDate, isNoDate, noDateText, toDate } from '../../core/dates';

/**
 * A moment shown as its distance from now ("3 days ago"), where that matters more than the day (when a connection was
 * last fetched, a feed last imported, a finding last seen); the full date, in the console's format, is its tooltip.
 */
export function RelativeTime({ value, now }: { value: unknown; now?: Date }) {
  const date = toDate(value);
  if (date === null || isNoDate(date)) return <>{noDateText}</>;
  return <time dateTime={date.toISOString()} title={formatDate(date)}>{formatRelativeDate(date, now)}</time>;
}
