import { compareSemver } from './semver.js';
import type { VersionOrder } from './ecosystems.js';

// Whether a version falls in an OSV advisory's affected ranges (https://ossf.github.io/osv-schema/#affectedranges-field):
// each range's events sorted by version, a version is affected from an `introduced` up to (not including) the next
// `fixed` or `limit`, or up to and including a `last_affected`; the `versions` list names affected versions exactly.
// ECOSYSTEM ranges compare with the ecosystem's order, SEMVER ranges with SemVer's.

export type RangeEvent = { introduced?: string; fixed?: string; last_affected?: string; limit?: string };
export type AffectedRange = { type: string; events: RangeEvent[] };

/** The verdict on one version: affected or not, and the fix that ends the affected interval it is in, when there is one. */
export type RangeVerdict = { affected: boolean; fixed: string | null; lastAffected: string | null };

const versionOf = (event: RangeEvent) => event.introduced ?? event.fixed ?? event.last_affected ?? event.limit ?? '';

/** One range's verdict on a version. */
function rangeVerdict(version: string, events: RangeEvent[], compare: (left: string, right: string) => number): RangeVerdict {
  // "0" introduces from the very first version, whatever the order makes of it.
  const order = (event: RangeEvent) => (event.introduced === '0' ? null : versionOf(event));
  const sorted = [...events].sort((left, right) => {
    const [a, b] = [order(left), order(right)];
    return a === null ? (b === null ? 0 : -1) : b === null ? 1 : compare(a, b);
  });
  let affected = false;
  let lastAffected: string | null = null;
  for (const event of sorted) {
    const at = order(event);
    const reached = at === null || compare(at, version) <= 0;
    if (event.introduced !== undefined && reached) affected = true;
    else if ((event.fixed !== undefined || event.limit !== undefined) && reached) affected = false;
    else if (event.last_affected !== undefined && at !== null) {
      if (compare(at, version) < 0) affected = false;
      else if (affected) lastAffected = event.last_affected;
    }
  }
  if (!affected) return { affected, fixed: null, lastAffected: null };
  // The fix that ends this interval: the first `fixed` above the version.
  const fixed = sorted.find((event) => event.fixed !== undefined && compare(event.fixed, version) > 0)?.fixed ?? null;
  return { affected, fixed, lastAffected: fixed ? null : lastAffected };
}

/**
 * Whether `version` is affected by an advisory's entry for its package: by a range (with the ecosystem's order;
 * SEMVER ranges with SemVer's) or by being listed. Before: `("2.15.0-1~deb11u1", [{type: "ECOSYSTEM", events:
 * [{introduced: "0"}, {fixed: "2.16.0-1~deb11u1"}]}], [], dpkg)`; after: `{affected: true, fixed: "2.16.0-1~deb11u1"}`.
 */
export function affectedVersion(version: string, ranges: AffectedRange[], versions: string[], order: VersionOrder | null): RangeVerdict {
  for (const range of ranges) {
    const compare = range.type === 'SEMVER' ? compareSemver : range.type === 'ECOSYSTEM' && order ? order.compare : null;
    if (!compare) continue;
    const verdict = rangeVerdict(version, range.events, compare);
    if (verdict.affected) return verdict;
  }
  if (versions.includes(version)) return { affected: true, fixed: null, lastAffected: null };
  return { affected: false, fixed: null, lastAffected: null };
}

/**
 * The fix an unaffected version already has: the greatest `fixed` event of the ranges at or below it (with the
 * ecosystem's order; SEMVER ranges with SemVer's), or null when no range names one. Before: `("8.7p1-38.el9_4.1",
 * [{type: "ECOSYSTEM", events: [{introduced: "0"}, {fixed: "8.7p1-38.el9_4.1"}]}], rpm)`; after: `"8.7p1-38.el9_4.1"`.
 */
export function fixReached(version: string, ranges: AffectedRange[], order: VersionOrder | null): string | null {
  let reached: { fixed: string; compare: (left: string, right: string) => number } | null = null;
  for (const range of ranges) {
    const compare = range.type === 'SEMVER' ? compareSemver : range.type === 'ECOSYSTEM' && order ? order.compare : null;
    if (!compare) continue;
    for (const event of range.events) {
      if (event.fixed === undefined || compare(event.fixed, version) > 0) continue;
      if (!reached || compare(event.fixed, reached.fixed) > 0) reached = { fixed: event.fixed, compare };
    }
  }
  return reached?.fixed ?? null;
}
