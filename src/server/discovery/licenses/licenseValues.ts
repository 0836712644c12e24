// Reading the values of license records as vendors and spreadsheets write them: seat counts and costs as numbers or
// text ("1,250", "299.00", "€ 1.200,50" is refused rather than guessed), dates as ISO text, `YYYY-MM-DD`, ServiceNow's
// `YYYY-MM-DD HH:MM:SS` or Snipe-IT's `{date, formatted}` (flattened to `.date`). A value out of bounds is no value.

/** The most seats one entitlement may hold: beyond it a count is a typo or garbage, not a purchase. */
export const maximumSeats = 10_000_000;
/** The largest cost kept, in any currency. */
export const maximumCost = 1e12;

/** A count or amount: `"1,250"` → 1250, `" 299.00 "` → 299, `"12 seats"` → null, 1e20 → null (beyond `maximum`). */
export function amountOf(value: unknown, maximum: number): number | null {
  let number: number;
  if (typeof value === 'number') number = value;
  else if (typeof value === 'string') {
    const text = value.trim().replace(/^[$€£¥]\s*/, '');
    // Thousands separators only in their places, so "1,5" (a decimal comma) is refused instead of read as 15.
    if (!/^-?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/.test(text)) return null;
    number = Number(text.replace(/,/g, ''));
  } else return null;
  return Number.isFinite(number) && number >= 0 && number <= maximum ? number : null;
}

/** A date as ISO 8601 (`2027-03-31` → `2027-03-31T00:00:00.000Z`), or null for text that is no date. */
export function isoDateOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(text);
  if (!match) return null;
  const [, year, month, day, hours = '00', minutes = '00', seconds = '00', zone = 'Z'] = match;
  const date = new Date(`${year}-${month}-${day}T${hours}:${minutes}:${seconds}${zone}`);
  // `2027-02-30` parses to March 2nd: a date whose parts changed was no date.
  if (Number.isNaN(date.getTime()) || (zone === 'Z' && date.getUTCDate() !== Number(day))) return null;
  return date.toISOString();
}

/** The names in a cell or list of assigned users: `"alice; bob@corp.com, carol"` → three names. */
export function namesOf(values: unknown[] | undefined): string[] {
  return (values ?? []).flatMap((value) => (typeof value === 'string' ? value.split(/[;,|\n]+/) : [])).map((name) => name.trim()).filter((name) => name && name.length <= 320);
}
