/**
 * IPv4 scan targets as the `scanner_target` rule defines them (spec, form rules): comma-separated IPv4 addresses,
 * each optionally with a CIDR suffix from /8 to /32 or a range to another address. Isomorphic: the console's form
 * rule and the server's network scanner read targets with the same code.
 */

/** An inclusive range of IPv4 addresses as unsigned 32-bit integers. */
export type Ipv4Range = { first: number; last: number };

export type TargetParse = { ok: true; ranges: Ipv4Range[] } | { ok: false; error: string };

const octet = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const addressPattern = new RegExp(`^${octet}\\.${octet}\\.${octet}\\.${octet}$`);

/** `"10.0.0.1"` → `167772161`; null for anything that is not a dotted-quad IPv4 address. */
export function parseIpv4(text: string): number | null {
  const match = addressPattern.exec(text.trim());
  if (!match) return null;
  return ((Number(match[1]) << 24) >>> 0) + (Number(match[2]) << 16) + (Number(match[3]) << 8) + Number(match[4]);
}

/** `167772161` → `"10.0.0.1"`. */
export function formatIpv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff].join('.');
}

/**
 * One target term as a range. CIDR blocks of /30 and wider leave out their network and broadcast addresses,
 * which no host answers on. Before: `"10.0.0.0/30"`; after: `{first: 10.0.0.1, last: 10.0.0.2}` (as integers).
 */
export function parseTargetTerm(term: string, minimumPrefix = 8): Ipv4Range | string {
  const text = term.trim();
  if (!text) return 'an empty entry (two commas in a row?)';
  const slash = text.indexOf('/');
  if (slash >= 0) {
    const base = parseIpv4(text.slice(0, slash));
    const prefixText = text.slice(slash + 1).trim();
    const prefix = /^\d{1,2}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
    if (base === null) return `"${text}" does not start with an IPv4 address`;
    if (!(prefix >= minimumPrefix && prefix <= 32)) return `"${text}" needs a CIDR suffix from /${minimumPrefix} to /32`;
    const size = 2 ** (32 - prefix);
    const network = base - (base % size);
    return prefix <= 30 ? { first: network + 1, last: network + size - 2 } : { first: network, last: network + size - 1 };
  }
  const dash = text.indexOf('-');
  if (dash >= 0) {
    const first = parseIpv4(text.slice(0, dash));
    const last = parseIpv4(text.slice(dash + 1));
    if (first === null || last === null) return `"${text}" is not a range between two IPv4 addresses`;
    if (last < first) return `"${text}" ends before it starts`;
    return { first, last };
  }
  const address = parseIpv4(text);
  return address === null ? `"${text}" is not an IPv4 address` : { first: address, last: address };
}

/** Sorts and merges overlapping or adjacent ranges, so no address is counted or probed twice. */
export function mergeRanges(ranges: Ipv4Range[]): Ipv4Range[] {
  const sorted = [...ranges].sort((left, right) => left.first - right.first);
  const merged: Ipv4Range[] = [];
  for (const range of sorted) {
    const previous = merged[merged.length - 1];
    if (previous && range.first <= previous.last + 1) previous.last = Math.max(previous.last, range.last);
    else merged.push({ ...range });
  }
  return merged;
}

/**
 * Parses a `scanner_target` value. Before: `"10.0.0.0/30, 10.0.0.9-10.0.0.10"`;
 * after: `{ok: true, ranges: [{first: 10.0.0.1, last: 10.0.0.2}, {first: 10.0.0.9, last: 10.0.0.10}]}`.
 */
export function parseScannerTargets(text: string): TargetParse {
  if (!text.trim()) return { ok: false, error: 'No target given.' };
  const ranges: Ipv4Range[] = [];
  for (const term of text.split(',')) {
    const range = parseTargetTerm(term);
    if (typeof range === 'string') return { ok: false, error: `${range[0].toUpperCase()}${range.slice(1)}.` };
    ranges.push(range);
  }
  return { ok: true, ranges: mergeRanges(ranges) };
}

/** The `scanner_target` form rule. */
export function isScannerTarget(text: string): boolean {
  return parseScannerTargets(text).ok;
}

/** How many addresses the ranges hold. */
export function countAddresses(ranges: Ipv4Range[]): number {
  return ranges.reduce((total, range) => total + range.last - range.first + 1, 0);
}

/** Removes the excluded ranges. Before: `[10.0.0.1–10.0.0.10]` minus `[10.0.0.5]`; after: `[10.0.0.1–10.0.0.4, 10.0.0.6–10.0.0.10]`. */
export function subtractRanges(ranges: Ipv4Range[], excluded: Ipv4Range[]): Ipv4Range[] {
  let remaining = mergeRanges(ranges);
  for (const cut of mergeRanges(excluded)) {
    remaining = remaining.flatMap((range) => {
      if (cut.last < range.first || cut.first > range.last) return [range];
      const pieces: Ipv4Range[] = [];
      if (cut.first > range.first) pieces.push({ first: range.first, last: cut.first - 1 });
      if (cut.last < range.last) pieces.push({ first: cut.last + 1, last: range.last });
      return pieces;
    });
  }
  return remaining;
}

/** Every address of the ranges, in order, without materialising them (a /8 is 16 million addresses). */
export function* addressesOf(ranges: Ipv4Range[]): Generator<string> {
  for (const range of ranges) for (let value = range.first; value <= range.last; value += 1) yield formatIpv4(value);
}

/**
 * Parses a TCP port list. Before: `"22, 80, 8080-8082"`; after: `[22, 80, 8080, 8081, 8082]` (sorted, unique).
 * Returns an error text for a port outside 1–65535, a reversed range or more than `maximum` ports.
 */
export function parsePortList(text: string, maximum = 65535): number[] | string {
  const ports = new Set<number>();
  for (const term of text.split(',')) {
    const match = /^\s*(\d{1,5})\s*(?:-\s*(\d{1,5})\s*)?$/.exec(term);
    if (!match) return `"${term.trim()}" is not a port or a port range.`;
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    if (first < 1 || last > 65535) return `"${term.trim()}" is outside 1–65535.`;
    if (last < first) return `"${term.trim()}" ends before it starts.`;
    if (ports.size + (last - first + 1) > maximum) return `The port list holds more than ${maximum} ports.`;
    for (let port = first; port <= last; port += 1) ports.add(port);
  }
  return [...ports].sort((left, right) => left - right);
}
