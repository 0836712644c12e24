// Debian's version order (dpkg's lib/dpkg/version.c, Debian Policy §5.6.12): `[epoch:]upstream[-revision]`, the
// epoch as a number, then the upstream version and the revision with verrevcmp, where `~` sorts before everything,
// even the end of the string (1.0~rc1 < 1.0), letters sort before other characters, and digit runs compare as numbers.

const isDigit = (character: string | undefined) => character !== undefined && character >= '0' && character <= '9';
const isLetter = (character: string | undefined) => character !== undefined && /[A-Za-z]/.test(character);

/** dpkg's weight of a character in a non-digit run: `~` before everything (even the end), letters before the rest. */
function dpkgOrder(character: string | undefined): number {
  if (character === undefined || isDigit(character)) return 0;
  if (isLetter(character)) return character.charCodeAt(0);
  if (character === '~') return -1;
  return character.charCodeAt(0) + 256;
}

/** dpkg's verrevcmp: alternating non-digit and digit runs. Before: `("1.0~rc1", "1.0")`; after: -1. */
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

/**
 * `[epoch:]version[-release]` split as dpkg and rpm split it: the epoch before the first colon when it is a number,
 * the revision (release) after the last dash, even a leading one ("-0.6.5" is an empty upstream version).
 * Before: `"1:3.0.11-1~deb12u2"`; after: `{epoch: 1, version: "3.0.11", release: "1~deb12u2"}`.
 */
export function splitEpochVersionRelease(text: string): { epoch: number; version: string; release: string } {
  const colon = text.indexOf(':');
  const hasEpoch = colon > 0 && /^\d+$/.test(text.slice(0, colon));
  const rest = hasEpoch ? text.slice(colon + 1) : text;
  const dash = rest.lastIndexOf('-');
  return { epoch: hasEpoch ? Number(text.slice(0, colon)) : 0, version: dash >= 0 ? rest.slice(0, dash) : rest, release: dash >= 0 ? rest.slice(dash + 1) : '' };
}

/** Debian's order of two package versions (negative, zero, positive). Before: `("2:2.5", "1:7.5")`; after: 1. */
export function compareDebian(left: string, right: string): number {
  const [a, b] = [splitEpochVersionRelease(left.trim()), splitEpochVersionRelease(right.trim())];
  return Math.sign(a.epoch - b.epoch) || compareDpkgPart(a.version, b.version) || compareDpkgPart(a.release, b.release);
}

/** A Debian version dpkg accepts: an optional numeric epoch, then an upstream version starting with a digit. */
export function isDebianVersion(text: string): boolean {
  return /^(\d+:)?\d[A-Za-z0-9.+~:-]*$/.test(text.trim());
}
