import { compareDigits, comparePrerelease } from './semver.js';

// NuGet's version order (NuGet.Versioning's VersionComparer): up to four numbers (a missing one is 0, so
// 1.0 = 1.0.0.0), then the release label as semver orders pre-releases but without regard to case
// (1.0.0-BETA = 1.0.0-beta); metadata after `+` does not count.

const pattern = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** Parses a NuGet version, or null. Before: `"1.0.3.120-rc-2"`; after: `{numbers: ["1","0","3","120"], release: ["rc-2"]}`. */
export function parseNuget(text: string): { numbers: string[]; release: string[] } | null {
  const match = pattern.exec(text.trim());
  if (!match) return null;
  return { numbers: [match[1], match[2] ?? '0', match[3] ?? '0', match[4] ?? '0'], release: match[5] ? match[5].split('.') : [] };
}

/** NuGet's order of two versions; a text that is no NuGet version sorts before every version. Before: `("1.01-RC-1", "1.01")`; after: -1. */
export function compareNuget(left: string, right: string): number {
  const [a, b] = [parseNuget(left), parseNuget(right)];
  if (!a || !b) return a ? 1 : b ? -1 : 0;
  for (let index = 0; index < 4; index += 1) {
    const order = compareDigits(a.numbers[index], b.numbers[index]);
    if (order) return order;
  }
  return comparePrerelease(a.release, b.release, true);
}
