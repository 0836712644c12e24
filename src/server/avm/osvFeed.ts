import { FeedError } from './feedText.js';
import { cvePattern } from './kevFeed.js';
import { normalizePackageName } from '../../core/software/packages.js';

// OSV records (https://ossf.github.io/osv-schema/), the advisories of distributions (Debian DSA/DLA and its
// security tracker, Ubuntu USN, Red Hat RHSA, Alpine, SUSE, Rocky, Alma) and language ecosystems (GitHub's GHSA,
// PyPA, Go, RustSec...), as stored: the advisory with the CVEs it is the same vulnerability as, and each affected
// package with its ranges. Only ECOSYSTEM and SEMVER ranges are kept: GIT ranges name commits, which no
// installation reports.

/** One range event, as OSV writes it: exactly one of its keys. */
export type OsvEvent = { introduced?: string; fixed?: string; last_affected?: string; limit?: string };
export type OsvRange = { type: 'ECOSYSTEM' | 'SEMVER'; events: OsvEvent[] };

/** One affected package of an advisory: its ecosystem as written (`Debian:12`), its name as matched (normalized). */
export type OsvPackageRow = { ecosystem: string; name: string; ranges: OsvRange[]; versions: string[] };

export type OsvRow = {
  osv_id: string; modified: string | null; published: string | null; withdrawn: string | null; summary: string | null;
  aliases: string[]; cves: string[]; packages: OsvPackageRow[];
};

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(text).filter((item): item is string => item !== null) : []);
const eventKeys = ['introduced', 'fixed', 'last_affected', 'limit'] as const;

function rangesOf(raw: unknown, where: string): OsvRange[] {
  if (raw == null) return [];
  if (!Array.isArray(raw)) throw new FeedError(`${where}: ranges is not a list.`);
  return raw.flatMap((range: Record<string, unknown>) => {
    if (range?.type !== 'ECOSYSTEM' && range?.type !== 'SEMVER') return [];
    if (!Array.isArray(range.events)) throw new FeedError(`${where}: a ${String(range.type)} range has no events list.`);
    const events = (range.events as Record<string, unknown>[]).map((event) => {
      const key = eventKeys.find((name) => typeof event?.[name] === 'string');
      if (!key) throw new FeedError(`${where}: a range event names none of introduced, fixed, last_affected or limit (${JSON.stringify(event).slice(0, 200)}).`);
      return { [key]: (event[key] as string).trim() } as OsvEvent;
    });
    return [{ type: range.type, events }];
  });
}

/** A CVE id, or a distribution tracker's record of one (`UBUNTU-CVE-2024-6387`, `DEBIAN-CVE-…`, `ALPINE-CVE-…`) read as its CVE; else null. */
function cveOf(id: string): string | null {
  const upper = id.toUpperCase();
  if (cvePattern.test(upper)) return upper;
  const tracked = /^(?:UBUNTU|DEBIAN|ALPINE)-(CVE-\d{4}-\d{4,})$/.exec(upper);
  return tracked ? tracked[1] : null;
}

/**
 * The CVEs an advisory is the same vulnerability as: its own id when it is one, its aliases and the upstream
 * records it derives from (Debian's records name their CVE so, Ubuntu's notices their tracker's `UBUNTU-CVE-…`
 * records); `related` only when nothing else names a CVE, since it may also name neighbouring vulnerabilities
 * (Red Hat's RHSA and AlmaLinux's ALSA list the CVEs they fix there).
 * Before: `{id: "USN-6859-1", upstream: ["UBUNTU-CVE-2024-6387"]}`; after: `["CVE-2024-6387"]`.
 */
export function cvesOfRecord(record: { id: string; aliases: string[]; upstream: string[]; related: string[] }): string[] {
  const cvesIn = (ids: string[]) => ids.map(cveOf).filter((cve): cve is string => cve !== null);
  const named = cvesIn([record.id, ...record.aliases, ...record.upstream]);
  return [...new Set(named.length ? named : cvesIn(record.related))];
}

/** One OSV record as a row; `where` names the file (and entry) it came from in errors. */
export function osvRow(value: unknown, where: string): OsvRow {
  const record = (value ?? {}) as Record<string, unknown>;
  const id = text(record.id);
  if (!id || typeof value !== 'object' || Array.isArray(value)) throw new FeedError(`${where} is not an OSV record: it has no id.`);
  const at = `${where} (${id})`;
  if (record.affected != null && !Array.isArray(record.affected)) throw new FeedError(`${at}: affected is not a list.`);
  const packages = ((record.affected as Record<string, unknown>[] | undefined) ?? []).flatMap((affected): OsvPackageRow[] => {
    const pkg = (affected?.package ?? {}) as Record<string, unknown>;
    const ecosystem = text(pkg.ecosystem);
    const name = text(pkg.name);
    // An affected entry without a package names commits or a product outside any ecosystem: nothing to match.
    if (!ecosystem || !name) return [];
    return [{ ecosystem, name: normalizePackageName(ecosystem, name), ranges: rangesOf(affected.ranges, at), versions: strings(affected.versions) }];
  });
  const aliases = strings(record.aliases);
  return {
    osv_id: id, modified: text(record.modified), published: text(record.published), withdrawn: text(record.withdrawn),
    summary: (text(record.summary) ?? text(record.details))?.slice(0, 1000) ?? null,
    aliases, cves: cvesOfRecord({ id, aliases, upstream: strings(record.upstream), related: strings(record.related) }), packages,
  };
}
