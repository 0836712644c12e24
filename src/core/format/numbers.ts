/**
 * The one formatter of numbers, amounts and percentages the console, reports and PDFs show (issue 28, "One format"):
 * through `Intl`, in the console's locale (en-US, the only one it has: src/web/app/i18n/locales.ts), with grouping
 * and at most the decimals the value is meant to carry. Before: `194062.91999999998`; after: `"194,062.92"`.
 * Exports keep raw numbers (XLSX cells are numbers), never these texts.
 */
export const numberLocale = 'en-US';

/** Decimals a value of unknown precision keeps: enough for a score (7.5) or an amount (0.25), never float noise. */
export const defaultFractionDigits = 2;

const formats = new Map<string, Intl.NumberFormat>();
function numberFormat(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = JSON.stringify(options);
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.NumberFormat(numberLocale, options)));
  return format;
}

/** `1234567` → "1,234,567"; `7.25` → "7.25"; `0.1 + 0.2` → "0.3". Not a finite number: as written. */
export function formatNumber(value: unknown, maximumFractionDigits = defaultFractionDigits): string {
  const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (!Number.isFinite(number)) return value === null || value === undefined ? '' : String(value);
  return numberFormat({ maximumFractionDigits }).format(number);
}

/** An amount with its ISO currency code after it, always with the currency's cents: `194062.91999999998, "EUR"` → "194,062.92 EUR". */
export function formatCurrency(value: unknown, currency?: string | null): string {
  const number = Number(value);
  if (value === null || value === undefined || value === '' || !Number.isFinite(number)) return value === null || value === undefined ? '' : String(value);
  const amount = numberFormat({ minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(number);
  return currency ? `${amount} ${currency.toUpperCase()}` : amount;
}

/** A share of a whole (0.423) as a percentage: "42.3%"; `fractionDigits` decimals at most. */
export function formatPercent(ratio: number, fractionDigits = 1): string {
  return Number.isFinite(ratio) ? numberFormat({ style: 'percent', maximumFractionDigits: fractionDigits }).format(ratio) : '';
}

/**
 * Whether a text shows a number with more decimals than `allowed` (the e2e crawl's check): "194062.91999999998" has
 * 11; dates, versions (1.2.3) and addresses (10.0.0.1) are not numbers.
 */
export function hasExcessDecimals(text: string, allowed = defaultFractionDigits): boolean {
  return new RegExp(`(^|[\\s(])-?\\d[\\d,]*\\.\\d{${allowed + 1},}(?![\\d.:])`).test(text);
}
