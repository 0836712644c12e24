import { describe, expect, it } from 'vitest';
import { formatRelativeDate } from '../../src/core/dates';
import { formatCurrency, formatNumber, formatPercent, hasExcessDecimals } from '../../src/core/format/numbers';
import { xlsxCell } from '../../src/server/inventory/exports';

describe('the one number format', () => {
  it('groups thousands and drops float noise', () => {
    expect(formatNumber(194062.91999999998)).toBe('194,062.92');
    expect(formatNumber(0.1 + 0.2)).toBe('0.3');
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatNumber(7.25, 1)).toBe('7.3');
    expect(formatNumber('n/a')).toBe('n/a');
  });

  it('writes an amount with its cents and currency code, and a share as a percentage', () => {
    expect(formatCurrency(194062.91999999998, 'eur')).toBe('194,062.92 EUR');
    expect(formatCurrency(12, null)).toBe('12.00');
    expect(formatPercent(0.4231)).toBe('42.3%');
  });

  it('tells a number with too many decimals from dates, versions and addresses', () => {
    expect(hasExcessDecimals('Cost 194062.91999999998')).toBe(true);
    expect(hasExcessDecimals('7.123')).toBe(true);
    expect(hasExcessDecimals('194,062.92 EUR')).toBe(false);
    expect(hasExcessDecimals('10.0.0.123')).toBe(false);
    expect(hasExcessDecimals('Chrome 120.0.6099.129')).toBe(false);
    expect(hasExcessDecimals('05 March 2024, 10:20')).toBe(false);
  });
});

describe('relative dates', () => {
  it('say how long ago, with no date as a dash', () => {
    const now = new Date('2026-11-23T12:00:00Z');
    expect(formatRelativeDate('2026-11-20T12:00:00Z', now)).toBe('3 days ago');
    expect(formatRelativeDate(null, now)).toBe('-');
    expect(formatRelativeDate('0001-01-01T00:00:00Z', now)).toBe('-');
  });
});

describe('XLSX export cells', () => {
  it('keep a single number a number and a single ISO date a date, so Excel sorts them; lists and text stay text', () => {
    expect(xlsxCell([194062.92])).toBe(194062.92);
    expect(xlsxCell(['2026-11-20T10:00:00Z'])).toEqual(new Date('2026-11-20T10:00:00Z'));
    expect(xlsxCell(['2023-05-31'])).toEqual(new Date('2023-05-31T00:00:00Z'));
    expect(xlsxCell(['0001-01-01T00:00:00Z'])).toBe('0001-01-01T00:00:00Z');
    expect(xlsxCell([1, 2])).toBe('1, 2');
    expect(xlsxCell(['=SUM(A1)'])).toBe("'=SUM(A1)");
    expect(xlsxCell(['10.0.0.1'])).toBe('10.0.0.1');
  });
});
