// Version strings as sources report them, compared with the rules of their style. Package managers and vendors
// disagree on what "newer" means: dpkg sorts `~` before the end of a string (1.0~rc1 < 1.0), RPM splits at every
// change between letters and digits and ignores separators, Windows and most vendors compare dotted numbers, and
// macOS writes the build after the version (`14.2.1 (23C71)`). Pure functions: the server and the console share them.
// The package managers' own orders live in src/core/versionOrder, one file each.

import { compareDebian, compareDpkgPart, splitEpochVersionRelease } from '../versionOrder/dpkg.js';
import { compareRpm, compareRpmPart } from '../versionOrder/rpm.js';

/** How a version string is written, which decides how it compares. */
export type VersionStyle = 'debian' | 'rpm' | 'macos' | 'dotted' | 'generic';

export type ParsedVersion = { text: string; style: VersionStyle };

const debianHint = /(^\d+:)|~|[+.~-](deb|ubuntu|dfsg)\d*|-\d+(\.\d+)*(ubuntu|build)\d/i;
const rpmHint = /\.(el|fc|amzn|sles|suse|mga|rhel)\d/i;
const macosPattern = /^(\d+(?:\.\d+)*)\s+\(([0-9A-Za-z]+)\)$/;
const dottedPattern = /^\d+(\.\d+)*$/;

/**
 * The style of a version, or null when the text is no version at all (empty, no digit, control characters): such
 * values are kept as reported and never ordered. Before: `"1:3.0.11-1~deb12u2"`; after: `{style: "debian"}`.
 */
export function parseVersion(raw: unknown): ParsedVersion | null {
  if (typeof raw !== 'string' && typeof raw !== 'number') return null;
  const text = String(raw).trim();
  if (!text || text.length > 200 || !/\d/.test(text) || /[\u0000-\u001f]/.test(text)) return null;
  if (macosPattern.test(text)) return { text, style: 'macos' };
  if (dottedPattern.test(text)) return { text, style: 'dotted' };
  if (rpmHint.test(text)) return { text, style: 'rpm' };
  if (debianHint.test(text)) return { text, style: 'debian' };
  return { text, style: 'generic' };
}

/** Dotted numbers component by component, a missing component counting as 0 (Windows' 10.0.19045.3803). */
export function compareDotted(left: string, right: string): number {
  const [a, b] = [left.split('.').map(Number), right.split('.').map(Number)];
  for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference) return Math.sign(difference);
  }
  return 0;
}

/** macOS: the marketing version as dotted numbers, then the build (`23C71`) with rpm's segment rules. */
export function compareMacos(left: string, right: string): number {
  const [a, b] = [macosPattern.exec(left)!, macosPattern.exec(right)!];
  return compareDotted(a[1], b[1]) || compareRpmPart(a[2], b[2]);
}

const sameStyle: Record<VersionStyle, (left: string, right: string) => number> = {
  debian: compareDebian, rpm: compareRpm, macos: compareMacos, dotted: compareDotted, generic: compareDpkgPart,
};

/**
 * Compares two versions (negative, zero, positive): with their style's rules when both share it, else as dpkg
 * compares upstream versions (digits as numbers, `~` first), which orders mixed styles sensibly. A value that is no
 * version sorts before every version.
 */
export function compareVersions(left: unknown, right: unknown): number {
  const [a, b] = [parseVersion(left), parseVersion(right)];
  if (!a || !b) return a ? 1 : b ? -1 : 0;
  if (a.style === b.style) return sameStyle[a.style](a.text, b.text);
  // A package manager's version against a plain one ("1:3.0.11-1~deb12u2" and "3.0.13-1"): the manager's rules.
  const styles = new Set([a.style, b.style]);
  const plain = (style: VersionStyle) => style === 'dotted' || style === 'generic';
  if (styles.has('debian') && [...styles].every((style) => style === 'debian' || plain(style))) return compareDebian(a.text, b.text);
  if (styles.has('rpm') && [...styles].every((style) => style === 'rpm' || plain(style))) return compareRpm(a.text, b.text);
  const upstream = (version: ParsedVersion) => (version.style === 'macos' ? macosPattern.exec(version.text)![1] : splitEpochVersionRelease(version.text).version);
  return compareDpkgPart(upstream(a), upstream(b));
}

/** Versions highest first, de-duplicated; values that are no version go last, as reported. */
export function sortVersionsDescending(versions: Iterable<string>): string[] {
  return [...new Set(versions)].sort((left, right) => compareVersions(right, left) || left.localeCompare(right));
}
