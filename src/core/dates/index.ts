export { acceptedDateFormats, acceptedDatePatterns, acceptedTimeSuffixes, parseDate, toDate } from './parseDate.js';
export {
  chartDatePattern, chartDateTimePattern, datePattern, datePlaceholder, dateTimePattern, elapsedParts, formatDate, formatElapsed, formatRelativeDate, isNoDate, noDateText, type DatePrecision, type ElapsedParts,
} from './formatDate.js';
export { isTimeZone, timeZoneChoices } from './timeZones.js';
