// Version strings as sources report them, compared with the rules of their style. Package managers and vendors
// disagree on what "newer" means: dpkg sorts `~` before the end of a string (1.0~rc1 < 1.0), RPM splits at every
// change between letters and digits and ignores separators, Windows and most vendors compare dotted numbers, and
// macOS writes the build after the version (`14.2.1 (23C71)`). Pure functions: the server and the console share them.

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

const isDigit = (character: string | undefined) => character !== undefined && character >= '0' && character <= '9';
const isLetter = (character: string | undefined) => character !== undefined && /[A-Za-z]/.test(character);

/** dpkg's weight of a character in a non-digit run: `~` before everything (even the end), letters before the rest. */
function dpkgOrder(character: string | undefined): number {
  if (character === undefined || isDigit(character)) return 0;
  if (isLetter(character)) return character.charCodeAt(0);
  if (character === '~') return -1;
  return character.charCodeAt(0) + 256;
}

/** dpkg's verrevcmp (lib/dpkg/version.c): alternating non-digit and digit runs. */
export function compareDpkgPart(left: string, right: string): number {
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    while ((i < left.length && !isDigit(left[i])) || (j < right.length && !isDigit(right[j]))) {
      const difference = dpkgOrder(left[i]) - dpkgOrder(right[j]);
      if (difference) return Math.sign(difference);
      i += 1;
      j += 1;
    }
    while (left[i] === '0') i += 1;
    while (right[j] === '0') j += 1;
    let firstDifference = 0;
    while (isDigit(left[i]) && isDigit(right[j])) {
      if (!firstDifference) firstDifference = left.charCodeAt(i) - right.charCodeAt(j);
      i += 1;
      j += 1;
    }
    if (isDigit(left[i])) return 1;
    if (isDigit(right[j])) return -1;
    if (firstDifference) return Math.sign(firstDifference);
  }
  return 0;
}

/** `[epoch:]upstream[-revision]` as dpkg splits it (the revision after the last dash). */
function splitEvr(text: string): { epoch: number; version: string; release: string } {
  const colon = text.indexOf(':');
  const epoch = colon > 0 && /^\d+$/.test(text.slice(0, colon)) ? Number(text.slice(0, colon)) : 0;
  const rest = colon > 0 && /^\d+$/.test(text.slice(0, colon)) ? text.slice(colon + 1) : text;
  const dash = rest.lastIndexOf('-');
  return dash > 0 ? { epoch, version: rest.slice(0, dash), release: rest.slice(dash + 1) } : { epoch, version: rest, release: '' };
}

/** Debian's rules: epoch as a number, then upstream version, then revision, each with verrevcmp. */
export function compareDebian(left: string, right: string): number {
  const [a, b] = [splitEvr(left), splitEvr(right)];
  return Math.sign(a.epoch - b.epoch) || compareDpkgPart(a.version, b.version) || compareDpkgPart(a.release, b.release);
}

/** rpm's rpmvercmp (rpmio/rpmvercmp.c): alphanumeric segments, `~` sorts before and `^` after the end. */
export function compareRpmPart(left: string, right: string): number {
  if (left === right) return 0;
  let i = 0;
  let j = 0;
  const isAlphanumeric = (character: string | undefined) => isDigit(character) || isLetter(character);
  for (;;) {
    while (i < left.length && !isAlphanumeric(left[i]) && left[i] !== '~' && left[i] !== '^') i += 1;
    while (j < right.length && !isAlphanumeric(right[j]) && right[j] !== '~' && right[j] !== '^') j += 1;
    if (left[i] === '~' || right[j] === '~') {
      if (left[i] !== '~') return 1;
      if (right[j] !== '~') return -1;
      i += 1;
      j += 1;
      continue;
    }
    if (left[i] === '^' || right[j] === '^') {
      if (i >= left.length) return -1;
      if (j >= right.length) return 1;
      if (left[i] !== '^') return 1;
      if (right[j] !== '^') return -1;
      i += 1;
      j += 1;
      continue;
    }
    if (i >= left.length || j >= right.length) break;
    const numeric = isDigit(left[i]);
    const take = numeric ? isDigit : isLetter;
    const [startLeft, startRight] = [i, j];
    while (take(left[i])) i += 1;
    while (take(right[j])) j += 1;
    // A number against letters: the number is newer.
    if (j === startRight) return numeric ? 1 : -1;
    let segmentLeft = left.slice(startLeft, i);
    let segmentRight = right.slice(startRight, j);
    if (numeric) {
      segmentLeft = segmentLeft.replace(/^0+/, '');
      segmentRight = segmentRight.replace(/^0+/, '');
      if (segmentLeft.length !== segmentRight.length) return segmentLeft.length > segmentRight.length ? 1 : -1;
    }
    if (segmentLeft !== segmentRight) return segmentLeft > segmentRight ? 1 : -1;
  }
  if (i >= left.length && j >= right.length) return 0;
  return i < left.length ? 1 : -1;
}

/** RPM's rules: epoch, then version, then release, each with rpmvercmp. */
export function compareRpm(left: string, right: string): number {
  const [a, b] = [splitEvr(left), splitEvr(right)];
  return Math.sign(a.epoch - b.epoch) || compareRpmPart(a.version, b.version) || compareRpmPart(a.release, b.release);
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
  const upstream = (version: ParsedVersion) => (version.style === 'macos' ? macosPattern.exec(version.text)![1] : splitEvr(version.text).version);
  return compareDpkgPart(upstream(a), upstream(b));
}

/** Versions highest first, de-duplicated; values that are no version go last, as reported. */
export function sortVersionsDescending(versions: Iterable<string>): string[] {
  return [...new Set(versions)].sort((left, right) => compareVersions(right, left) || left.localeCompare(right));
}
