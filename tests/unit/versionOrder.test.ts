import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareApk } from '../../src/core/versionOrder/apk.js';
import { compareDebian } from '../../src/core/versionOrder/dpkg.js';
import { versionOrderOf } from '../../src/core/versionOrder/ecosystems.js';
import { compareMaven } from '../../src/core/versionOrder/maven.js';
import { compareNuget } from '../../src/core/versionOrder/nuget.js';
import { comparePep440 } from '../../src/core/versionOrder/pep440.js';
import { compareRpm, compareRpmPart } from '../../src/core/versionOrder/rpm.js';
import { compareSemver } from '../../src/core/versionOrder/semver.js';

// Each ecosystem's order against the vectors its own tool publishes (tests/fixtures/versionOrder/*.json name their
// sources): pairs with the expected sign, and lists that must be in strictly increasing order.

type Vectors = { ecosystem: string; sources: string[]; segmentOnly?: boolean; pairs?: [string, string, number][]; ordered?: string[][] };

const folder = new URL('../fixtures/versionOrder/', import.meta.url);
const comparators: Record<string, (left: string, right: string) => number> = {
  dpkg: compareDebian, apk: compareApk, pypi: comparePep440, maven: compareMaven, semver: compareSemver, nuget: compareNuget,
};
const sign = (value: number) => Math.sign(value) || 0;

describe.each(readdirSync(folder).filter((name) => name.endsWith('.json')).map((name) => JSON.parse(readFileSync(new URL(name, folder), 'utf8')) as Vectors))(
  'the $ecosystem order',
  (vectors) => {
    const compare = vectors.ecosystem === 'rpm' ? compareRpmPart : comparators[vectors.ecosystem];

    it('names where its vectors come from', () => {
      expect(vectors.sources.length).toBeGreaterThan(0);
      expect((vectors.pairs?.length ?? 0) + (vectors.ordered?.flat().length ?? 0)).toBeGreaterThan(10);
    });

    it.each(vectors.pairs ?? [])('compares %j with %j as %i, and the other way round as its opposite', (left, right, expected) => {
      expect(sign(compare(left, right))).toBe(expected);
      expect(sign(compare(right, left))).toBe(sign(-expected));
    });

    it.each((vectors.ordered ?? []).map((list, index) => [index, list] as const))('keeps ordered list %i in order, every version below every later one', (_, list) => {
      const wrong: string[] = [];
      for (let low = 0; low < list.length; low += 1) {
        for (let high = low + 1; high < list.length; high += 1) {
          if (compare(list[low], list[high]) >= 0 || compare(list[high], list[low]) <= 0) wrong.push(`${list[low]} < ${list[high]}`);
        }
      }
      expect(wrong).toEqual([]);
    });
  },
);

describe('ecosystem orders', () => {
  it('orders a whole RPM version with its epoch and release', () => {
    expect(sign(compareRpm('0:7.76.1-26.el9_3.2', '7.76.1-26.el9'))).toBe(1);
    expect(sign(compareRpm('1:1.0-1', '2.0-1'))).toBe(1);
  });

  it.each([
    ['Debian:12', 'dpkg'], ['Ubuntu:22.04:LTS', 'dpkg'], ['Red Hat:enterprise_linux:9::baseos', 'RPM'], ['Alpine:v3.18', 'apk'],
    ['PyPI', 'PEP 440'], ['Maven', 'Maven'], ['npm', 'SemVer'], ['Go', 'SemVer'], ['crates.io', 'SemVer'], ['NuGet', 'NuGet'],
  ])('gives %s the %s order', (ecosystem, title) => {
    expect(versionOrderOf(ecosystem)?.title).toBe(title);
  });

  it('has no order for an ecosystem it does not know, rather than a guessed one', () => {
    expect(versionOrderOf('Hackage')).toBeNull();
  });
});
