import { splitEpochVersionRelease } from './dpkg.js';

// RPM's version order (rpmio/rpmvercmp.c): epoch, then version, then release, each compared segment by segment,
// a segment being a run of digits or of letters, separators ignored; `~` sorts before the end (pre-releases) and
// `^` after it (snapshots of a release). Red Hat, Rocky, Alma, SUSE and Amazon Linux order packages so.

const isDigit = (character: string | undefined) => character !== undefined && character >= '0' && character <= '9';
const isLetter = (character: string | undefined) => character !== undefined && /[A-Za-z]/.test(character);
const isAlphanumeric = (character: string | undefined) => isDigit(character) || isLetter(character);

/** rpmvercmp on one field. Before: `("1.0~rc1", "1.0")`; after: -1. */
export function compareRpmPart(left: string, right: string): number {
  if (left === right) return 0;
  let i = 0;
  let j = 0;
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

/** RPM's order of two `[epoch:]version-release` strings. Before: `("0:7.76.1-26.el9_3.2", "7.76.1-26.el9")`; after: 1. */
export function compareRpm(left: string, right: string): number {
  const [a, b] = [splitEpochVersionRelease(left.trim()), splitEpochVersionRelease(right.trim())];
  return Math.sign(a.epoch - b.epoch) || compareRpmPart(a.version, b.version) || compareRpmPart(a.release, b.release);
}
