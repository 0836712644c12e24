// The fixed set of filters templates may call (`value | name(args)`); each takes plain data and returns plain data.
import { randomUUID } from 'node:crypto';

type Filter = (value: unknown, ...args: unknown[]) => unknown;

const maximumListLength = 1_000_000;
const maximumJsonLength = 100_000;

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function asList(value: unknown): unknown[] {
  if (isEmpty(value)) return [];
  return Array.isArray(value) ? value : [value];
}

function text(value: unknown): string {
  if (isEmpty(value)) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Walks a dotted path (`a.b.0`) through own properties only. */
function pathValue(value: unknown, path: unknown): unknown {
  let current = value;
  for (const key of String(path).split('.')) {
    if (current === null || typeof current !== 'object' || key === '__proto__' || key === 'constructor' || key === 'prototype') return undefined;
    if (!Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Each value of a list through `transform` (a scalar counts as a one-item list; the shape is kept). */
function each(value: unknown, transform: (item: unknown) => unknown): unknown {
  return Array.isArray(value) ? value.map(transform) : transform(value);
}

function isHexDigit(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 97 && code <= 102);
}

/** The lower-case code of a hex digit (`A` → `a`), or -1 when `code` is not one. */
function lowerHexCode(code: number): number {
  if (isHexDigit(code)) return code;
  return code >= 65 && code <= 70 ? code + 32 : -1;
}

const colon = 58;
const hyphen = 45;

/**
 * The usual shapes (`aa:bb:cc:dd:ee:ff`, `AA-BB-CC-DD-EE-FF`) as `aa:bb:cc:dd:ee:ff`, else undefined. Checked and
 * rewritten code by code: this runs for every record of large fetches, where regular expressions and string
 * replacement cost several times more.
 */
function separatedMac(value: string): string | undefined {
  if (value.length !== 17) return undefined;
  const separator = value.charCodeAt(2);
  if (separator !== colon && separator !== hyphen) return undefined;
  const codes: number[] = new Array(17);
  let canonical = separator === colon;
  for (let index = 0; index < 17; index += 1) {
    const code = value.charCodeAt(index);
    if (index % 3 === 2) {
      if (code !== separator) return undefined;
      codes[index] = colon;
      continue;
    }
    const lower = lowerHexCode(code);
    if (lower === -1) return undefined;
    if (lower !== code) canonical = false;
    codes[index] = lower;
  }
  return canonical ? value : String.fromCharCode(...codes);
}

function macAddress(value: unknown): unknown {
  if (typeof value !== 'string') return isEmpty(value) ? undefined : value;
  const separated = separatedMac(value);
  if (separated !== undefined) return separated;
  const lower = value.toLowerCase();
  let out = '';
  let digits = 0;
  for (let index = 0; index < lower.length && digits <= 12; index += 1) {
    const code = lower.charCodeAt(index);
    if (!isHexDigit(code)) continue;
    if (digits && digits % 2 === 0) out += ':';
    out += lower[index];
    digits += 1;
  }
  return digits === 12 ? out : value.trim() || undefined;
}

const isoUtc = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
const epochDigits = /^\d{9,13}(\.\d+)?$/;
const compactDate = /^((?:19|20)\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/;

/**
 * A vendor timestamp as ISO 8601 UTC: ISO text (with or without zone), `YYYY-MM-DD HH:MM:SS` (taken as UTC),
 * epoch seconds or milliseconds (numbers or digit strings), and `YYYYMMDD` text (the Windows uninstall key's
 * InstallDate, which osquery and System Insights pass on). Unparseable values are left as they are.
 * Before: `1710417600`; after: `"2024-03-14T12:00:00.000Z"`.
 */
function isoDate(value: unknown): unknown {
  if (isEmpty(value)) return undefined;
  // Already ISO 8601 UTC (the common case): only the milliseconds may be missing.
  if (typeof value === 'string' && isoUtc.test(value)) return value.length === 20 ? `${value.slice(0, 19)}.000Z` : value;
  let date: Date;
  const compact = typeof value === 'string' ? compactDate.exec(value) : null;
  if (compact) date = new Date(`${compact[1]}-${compact[2]}-${compact[3]}T00:00:00Z`);
  else if (typeof value === 'number' || (typeof value === 'string' && epochDigits.test(value))) {
    const number = Number(value);
    date = new Date(number > 1e11 ? number : number * 1000);
  } else if (typeof value === 'string') {
    const plain = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(:\d{2}(\.\d+)?)?)$/.exec(value.trim());
    date = new Date(plain ? `${plain[1]}T${plain[2]}Z` : value.trim());
  } else return value;
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

/** A number a vendor sent as text, or undefined when it is not one ("n/a", "high"): never NaN in a record. */
function finiteOrUndefined(number: number): number | undefined {
  return Number.isFinite(number) ? number : undefined;
}

export const filters: Record<string, Filter> = Object.assign(Object.create(null) as Record<string, Filter>, {
  default: (value: unknown, fallback: unknown) => (isEmpty(value) ? fallback : value),
  join: (value: unknown, separator: unknown = ',') => asList(value).map(text).join(text(separator)),
  urlencode: (value: unknown) => encodeURIComponent(text(value)),
  lower: (value: unknown) => each(value, (item) => (typeof item === 'string' ? item.toLowerCase() : item)),
  upper: (value: unknown) => each(value, (item) => (typeof item === 'string' ? item.toUpperCase() : item)),
  trim: (value: unknown) => each(value, (item) => (typeof item === 'string' ? item.trim() : item)),
  string: (value: unknown) => (isEmpty(value) ? value : each(value, text)),
  int: (value: unknown) => each(value, (item) => finiteOrUndefined(isEmpty(item) ? Number.NaN : Number.parseInt(String(item), 10))),
  number: (value: unknown) => each(value, (item) => finiteOrUndefined(isEmpty(item) ? Number.NaN : Number(item))),
  bool: (value: unknown) => (isEmpty(value) ? undefined : value === true || value === 1 || ['true', '1', 'yes', 'on'].includes(String(value).toLowerCase())),
  first: (value: unknown) => (Array.isArray(value) ? value[0] : value),
  // The largest item (numbers by value, anything else as text, so ISO dates after `| date` by time): the latest of
  // Configuration Manager's discovery times `AgentTime`, which come in no order.
  max: (value: unknown) => asList(value).filter((item) => !isEmpty(item)).reduce<unknown>((largest, item) => (largest === undefined || (typeof item === 'number' && typeof largest === 'number' ? item > largest : text(item) > text(largest)) ? item : largest), undefined),
  last: (value: unknown) => (Array.isArray(value) ? value[value.length - 1] : value),
  length: (value: unknown) => (Array.isArray(value) || typeof value === 'string' ? value.length : isEmpty(value) ? 0 : Object.keys(value as object).length),
  pluck: (value: unknown, path: unknown) => asList(value).map((item) => pathValue(item, path)),
  // where('path', value) keeps the items whose path equals value; where('path') those whose path is present and not false
  // (Salt answers `false` for a minion that did not reply, beside the others' grains).
  where: (value: unknown, path: unknown, ...expected: unknown[]) =>
    expected.length ? asList(value).filter((item) => pathValue(item, path) === expected[0] || String(pathValue(item, path)) === String(expected[0])) : asList(value).filter((item) => !isEmpty(pathValue(item, path)) && pathValue(item, path) !== false),
  within: (value: unknown, path: unknown, allowed: unknown) => {
    const wanted = new Set(asList(allowed).map((item) => text(item)));
    return asList(value).filter((item) => wanted.has(text(pathValue(item, path))));
  },
  contains: (value: unknown, needle: unknown) => (Array.isArray(value) ? value.some((item) => text(item) === text(needle)) : text(value).toLowerCase().includes(text(needle).toLowerCase())),
  split: (value: unknown, separator: unknown = ',') => (isEmpty(value) ? [] : text(value).split(text(separator)).slice(0, maximumListLength)),
  replace: (value: unknown, search: unknown, replacement: unknown = '') => each(value, (item) => (typeof item === 'string' ? item.split(text(search)).join(text(replacement)) : item)),
  mac: (value: unknown) => each(value, macAddress),
  date: (value: unknown) => each(value, isoDate),
  // A date in the layout a vendor's query wants (Forcepoint DLP: 'DD/MM/YYYY HH:mm:ss'), in UTC; tokens YYYY MM DD HH mm ss.
  date_format: (value: unknown, layout: unknown) => each(value, (item) => {
    const iso = isoDate(item);
    if (typeof iso !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(iso)) return undefined;
    const parts: Record<string, string> = { YYYY: iso.slice(0, 4), MM: iso.slice(5, 7), DD: iso.slice(8, 10), HH: iso.slice(11, 13), mm: iso.slice(14, 16), ss: iso.slice(17, 19) };
    return text(layout).replace(/YYYY|MM|DD|HH|mm|ss/g, (token) => parts[token]);
  }),
  // A search window ending now (Sumo Logic's search jobs take absolute from/to only): epoch milliseconds of now minus
  // the given seconds, undefined for a value that is no number.
  ago: (value: unknown) => {
    const seconds = isEmpty(value) ? Number.NaN : Number(value);
    return Number.isFinite(seconds) ? Date.now() - Math.round(seconds * 1000) : undefined;
  },
  // A fresh random UUID whatever the value (`{{ '' | uuid }}`): WS-Management wants a new MessageID on every request.
  uuid: () => randomUUID(),
  base64: (value: unknown) => Buffer.from(text(value), 'utf8').toString('base64'),
  flatten: (value: unknown) => asList(value).flat(4),
  compact: (value: unknown) => asList(value).filter((item) => !isEmpty(item)),
  keys: (value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : []),
  values: (value: unknown) => (value && typeof value === 'object' ? Object.values(value) : []),
  // Text placed inside an XML request body (a SOAP envelope): a password holding `<` or `&` stays one value.
  xml: (value: unknown) => text(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;'),
  json: (value: unknown) => JSON.stringify(value ?? null),
  from_json: (value: unknown) => (isEmpty(value) ? undefined : typeof value === 'string' ? JSON.parse(value.slice(0, maximumJsonLength)) : value),
});
