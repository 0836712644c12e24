export { acceptedDateFormats, acceptedDatePatterns, acceptedTimeSuffixes, parseDate, toDate } from './parseDate.js';
export { datePlaceholder, elapsedParts, formatDate, formatDiscoveryDate, formatElapsed, isNoDate, noDateText, type ElapsedParts } from './formatDate.js';
