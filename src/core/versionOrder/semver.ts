// Semantic Versioning 2.0.0 precedence (https://semver.org §11), as npm, Go modules and crates.io order versions:
// major, minor and patch as numbers; a pre-release sorts before its release and compares identifier by identifier
// (numbers as numbers and before words, words in ASCII order, a longer list after its prefix); build metadata does
// not count. A leading `v` or `=` (Go's v1.2.3, npm's loose spellings) is read past.

const pattern = /^[=v\s]*(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** A parsed semantic version: the three numbers as digit strings (any size), and the pre-release identifiers. */
export type SemanticVersion = { core: [string, string, string]; prerelease: string[] };

/** Parses a semantic version, or null. Before: `"v1.2.3-rc.1+build"`; after: `{core: ["1","2","3"], prerelease: ["rc","1"]}`. */
export function parseSemver(text: string): SemanticVersion | null {
  const match = pattern.exec(text.trim());
  if (!match) return null;
  const strip = (digits: string) => digits.replace(/^0+(?=\d)/, '');
  return { core: [strip(match[1]), strip(match[2]), strip(match[3])], prerelease: match[4] ? match[4].split('.') : [] };
}

/** Compares digit strings as numbers of any size. */
export function compareDigits(left: string, right: string): number {
  const [a, b] = [left.replace(/^0+(?=\d)/, ''), right.replace(/^0+(?=\d)/, '')];
  return a.length !== b.length ? Math.sign(a.length - b.length) : a === b ? 0 : a < b ? -1 : 1;
}

const numeric = /^\d+$/;

/** Compares pre-release identifiers by semver's rules; `fold` lower-cases words first (NuGet compares them so). */
export function comparePrerelease(left: string[], right: string[], fold = false): number {
  if (!left.length || !right.length) return left.length ? -1 : right.length ? 1 : 0;
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
    const [a, b] = fold ? [left[index].toLowerCase(), right[index].toLowerCase()] : [left[index], right[index]];
    const [aNumber, bNumber] = [numeric.test(a), numeric.test(b)];
    if (aNumber && bNumber) {
      const order = compareDigits(a, b);
      if (order) return order;
    } else if (aNumber !== bNumber) return aNumber ? -1 : 1;
    else if (a !== b) return a < b ? -1 : 1;
  }
  return Math.sign(left.length - right.length);
}

/** Semver precedence of two versions; a text that is no semantic version sorts before every version. Before: `("1.0.0-rc.1", "1.0.0")`; after: -1. */
export function compareSemver(left: string, right: string): number {
  const [a, b] = [parseSemver(left), parseSemver(right)];
  if (!a || !b) return a ? 1 : b ? -1 : 0;
  for (let index = 0; index < 3; index += 1) {
    const order = compareDigits(a.core[index], b.core[index]);
    if (order) return order;
  }
  return comparePrerelease(a.prerelease, b.prerelease);
}
