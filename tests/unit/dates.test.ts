import { describe, expect, it } from 'vitest';
import { acceptedDatePatterns, datePlaceholder, elapsedParts, formatDate, formatElapsed, isNoDate, parseDate } from '../../src/core/dates/index.js';

const local = (year: number, month: number, day: number, hours = 0, minutes = 0, seconds = 0) => new Date(year, month - 1, day, hours, minutes, seconds);

describe('date parsing', () => {
  it('reads ISO date-times, with and without fractional seconds and zones', () => {
    expect(parseDate('2024-03-05T10:20:30Z')?.toISOString()).toBe('2024-03-05T10:20:30.000Z');
    expect(parseDate('2024-03-05T10:20:30.123456Z')?.toISOString()).toBe('2024-03-05T10:20:30.123Z');
    expect(parseDate('2024-03-05T10:20:30+02:00')?.toISOString()).toBe('2024-03-05T08:20:30.000Z');
    expect(parseDate('2024-03-05T10:20:30')).toEqual(local(2024, 3, 5, 10, 20, 30));
  });

  it('reads every date order of spec §5', () => {
    const cases: [string, Date][] = [
      ['2024-03-25', local(2024, 3, 25)],
      ['25/03/2024', local(2024, 3, 25)],
      ['03/25/2024', local(2024, 3, 25)],
      ['2024/03/25', local(2024, 3, 25)],
      ['25.03.2024', local(2024, 3, 25)],
      ['03.25.2024', local(2024, 3, 25)],
      ['25-03-2024', local(2024, 3, 25)],
      ['03-25-2024', local(2024, 3, 25)],
      ['2024.03.25', local(2024, 3, 25)],
    ];
    for (const [text, date] of cases) expect(parseDate(text), text).toEqual(date);
  });

  it('reads a time after the date, with seconds or without, with a comma or without', () => {
    expect(parseDate('25/03/2024 08:15:42')).toEqual(local(2024, 3, 25, 8, 15, 42));
    expect(parseDate('25/03/2024 08:15')).toEqual(local(2024, 3, 25, 8, 15));
    expect(parseDate('25.03.2024, 08:15:42')).toEqual(local(2024, 3, 25, 8, 15, 42));
    expect(parseDate('2024.03.25, 08:15')).toEqual(local(2024, 3, 25, 8, 15));
    expect(acceptedDatePatterns).toHaveLength(45);
  });

  it('reads a day-first date first when both orders fit', () => {
    expect(parseDate('03/04/2024')).toEqual(local(2024, 4, 3));
  });

  it('refuses text that is no date: impossible days, two-digit years, words, extra text', () => {
    for (const text of ['31/02/2024', '25/03/24', 'yesterday', '2024-03-25 noon', '', '2024-13-01']) expect(parseDate(text), text).toBeNull();
  });
});

describe('date display', () => {
  it('writes every date one way: two-digit day, long month, year, and the time to the minute for a moment', () => {
    expect(formatDate('2024-03-05T10:20:30')).toBe('05 March 2024, 10:20');
    expect(formatDate(new Date(2024, 2, 5, 10, 20, 30))).toBe('05 March 2024, 10:20');
    // The list's and the detail's values of one field, as a source wrote them, read the same.
    expect(formatDate('2026-11-08 00:00:00')).toBe(formatDate('2026-11-08T00:00:00'));
    expect(formatDate('2024-03-05', 'date')).toBe('05 March 2024');
  });

  it('shows a dash for year 0001 and a missing date, and text that is no date as written', () => {
    for (const value of ['0001-01-01T00:00:00', '0001-01-01T00:00:00Z', null, undefined, '']) {
      expect(formatDate(value), String(value)).toBe('-');
      expect(isNoDate(value)).toBe(true);
    }
    expect(isNoDate('soon')).toBe(true);
    expect(formatDate('soon')).toBe('soon');
  });

  it('shows elapsed time in hours, minutes and seconds', () => {
    expect(elapsedParts('2024-03-05T10:00:00Z', '2024-03-05T11:02:03Z')).toEqual({ hours: 1, minutes: 2, seconds: 3 });
    expect(formatElapsed('2024-03-05T10:00:00Z', '2024-03-06T12:00:01Z')).toBe('26h 0m 1s');
  });

  it('shows negative elapsed parts as zero', () => {
    expect(elapsedParts('2024-03-05T11:02:03Z', '2024-03-05T10:00:00Z')).toEqual({ hours: 0, minutes: 0, seconds: 0 });
    expect(formatElapsed('2024-03-05T10:00:05Z', '2024-03-05T10:00:00Z')).toBe('0h 0m 0s');
  });

  it('runs elapsed time to now when the end is missing or year 0001', () => {
    const now = new Date('2024-03-05T10:00:30Z');
    expect(elapsedParts('2024-03-05T10:00:00Z', '0001-01-01T00:00:00', now)).toEqual({ hours: 0, minutes: 0, seconds: 30 });
    expect(elapsedParts('2024-03-05T10:00:00Z', null, now)).toEqual({ hours: 0, minutes: 0, seconds: 30 });
  });

  it('derives the date placeholder from the locale', () => {
    expect(datePlaceholder('en-US')).toBe('MM/dd/yyyy');
    expect(datePlaceholder('de-DE')).toBe('dd.MM.yyyy');
    expect(datePlaceholder('en-GB')).toBe('dd/MM/yyyy');
    expect(datePlaceholder('sv-SE')).toBe('yyyy-MM-dd');
  });
});
