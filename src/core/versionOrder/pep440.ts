// Python's version order (PEP 440, as pypa/packaging implements it): epoch, release numbers (trailing zeros not
// counting), then pre-release (a < b < rc), post-release, development release and local label. A development
// release of a final version sorts before its pre-releases (1.0.dev0 < 1.0a0), and spellings normalize
// (1.0-alpha1 = 1.0a1, 1.0-5 = 1.0.post5, 1.0c1 = 1.0rc1).

const pattern = new RegExp(
  '^v?(?:(\\d+)!)?(\\d+(?:\\.\\d+)*)' +
  '(?:[-_.]?(alpha|a|beta|b|preview|pre|c|rc)[-_.]?(\\d+)?)?' +
  '(?:-(\\d+)|[-_.]?(post|rev|r)[-_.]?(\\d+)?)?' +
  '(?:[-_.]?(dev)[-_.]?(\\d+)?)?' +
  '(?:\\+([a-z0-9]+(?:[-_.][a-z0-9]+)*))?$',
  'i',
);

type LocalSegment = number | string;
/** A parsed version; `pre` is [phase, number] with a < b < rc as 0 < 1 < 2. */
export type Pep440Version = { epoch: number; release: number[]; pre: [number, number] | null; post: number | null; dev: number | null; local: LocalSegment[] | null };

const phases: Record<string, number> = { a: 0, alpha: 0, b: 1, beta: 1, c: 2, rc: 2, pre: 2, preview: 2 };

/** Parses a PEP 440 version, or null. Before: `"1.0-alpha1"`; after: `{release: [1, 0], pre: [0, 1], ...}`. */
export function parsePep440(text: string): Pep440Version | null {
  const match = pattern.exec(text.trim());
  if (!match) return null;
  const [, epoch, release, prePhase, preNumber, implicitPost, postWord, postNumber, devWord, devNumber, local] = match;
  return {
    epoch: Number(epoch ?? 0),
    release: release.split('.').map(Number),
    pre: prePhase ? [phases[prePhase.toLowerCase()], Number(preNumber ?? 0)] : null,
    post: implicitPost !== undefined ? Number(implicitPost) : postWord ? Number(postNumber ?? 0) : null,
    dev: devWord ? Number(devNumber ?? 0) : null,
    local: local ? local.toLowerCase().split(/[-_.]/).map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment)) : null,
  };
}

const compareNumber = (left: number, right: number) => (left === right ? 0 : left < right ? -1 : 1);

function compareRelease(left: number[], right: number[]): number {
  for (let index = 0; index < Math.max(left.length, right.length); index += 1) {
    const order = compareNumber(left[index] ?? 0, right[index] ?? 0);
    if (order) return order;
  }
  return 0;
}

/** Where the pre-release part sorts: a dev release of a final version before everything, no pre-release after. */
function preKey(version: Pep440Version): [number, number, number] {
  if (!version.pre && version.post === null && version.dev !== null) return [-1, 0, 0];
  if (!version.pre) return [1, 0, 0];
  return [0, ...version.pre];
}

/** Local labels: none first; segment by segment, words before numbers; a longer label after its prefix. */
function compareLocal(left: LocalSegment[] | null, right: LocalSegment[] | null): number {
  if (!left || !right) return left ? 1 : right ? -1 : 0;
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
    const [a, b] = [left[index], right[index]];
    if (typeof a !== typeof b) return typeof a === 'string' ? -1 : 1;
    if (a !== b) return a < b ? -1 : 1;
  }
  return compareNumber(left.length, right.length);
}

/** Compares parsed versions. */
export function comparePep440Versions(a: Pep440Version, b: Pep440Version): number {
  const [preA, preB] = [preKey(a), preKey(b)];
  return compareNumber(a.epoch, b.epoch) || compareRelease(a.release, b.release)
    || compareNumber(preA[0], preB[0]) || compareNumber(preA[1], preB[1]) || compareNumber(preA[2], preB[2])
    || compareNumber(a.post ?? -1, b.post ?? -1)
    || compareNumber(a.dev ?? Number.POSITIVE_INFINITY, b.dev ?? Number.POSITIVE_INFINITY)
    || compareLocal(a.local, b.local);
}

/** Python's order of two versions; a text that is no PEP 440 version sorts before every version. Before: `("1.0.dev0", "1.0a0")`; after: -1. */
export function comparePep440(left: string, right: string): number {
  const [a, b] = [parsePep440(left), parsePep440(right)];
  if (!a || !b) return a ? 1 : b ? -1 : 0;
  return comparePep440Versions(a, b);
}
