import { compareApk, isApkVersion } from './apk.js';
import { compareDebian, isDebianVersion } from './dpkg.js';
import { compareMaven } from './maven.js';
import { compareNuget, parseNuget } from './nuget.js';
import { comparePep440, parsePep440 } from './pep440.js';
import { compareRpm } from './rpm.js';
import { compareSemver, parseSemver } from './semver.js';

// Which version order each OSV ecosystem uses (https://ossf.github.io/osv-schema/#affectedpackage-field): an
// advisory's ECOSYSTEM ranges are only meaningful with the ecosystem's own order.

/** An ecosystem's version order: the rule's title, the comparison, and which texts are versions at all. */
export type VersionOrder = { title: string; compare: (left: string, right: string) => number; valid: (text: string) => boolean };

const orders: Record<string, VersionOrder> = {
  dpkg: { title: 'dpkg', compare: compareDebian, valid: isDebianVersion },
  rpm: { title: 'RPM', compare: compareRpm, valid: (text) => /^(\d+:)?[0-9A-Za-z]/.test(text.trim()) },
  apk: { title: 'apk', compare: compareApk, valid: isApkVersion },
  pep440: { title: 'PEP 440', compare: comparePep440, valid: (text) => parsePep440(text) !== null },
  maven: { title: 'Maven', compare: compareMaven, valid: (text) => /^[0-9A-Za-z]/.test(text.trim()) && text.length <= 256 },
  semver: { title: 'SemVer', compare: compareSemver, valid: (text) => parseSemver(text) !== null },
  nuget: { title: 'NuGet', compare: compareNuget, valid: (text) => parseNuget(text) !== null },
};

const orderOfEcosystem: Record<string, keyof typeof orders> = {
  Debian: 'dpkg', Ubuntu: 'dpkg',
  'Red Hat': 'rpm', 'Rocky Linux': 'rpm', AlmaLinux: 'rpm', SUSE: 'rpm', openSUSE: 'rpm', Mageia: 'rpm', openEuler: 'rpm', 'Photon OS': 'rpm', 'Azure Linux': 'rpm',
  Alpine: 'apk', Wolfi: 'apk', Chainguard: 'apk', MinimOS: 'apk',
  PyPI: 'pep440', Maven: 'maven', npm: 'semver', Go: 'semver', 'crates.io': 'semver', NuGet: 'nuget',
};

/** The ecosystem an OSV ecosystem string names, without its release: `"Debian:12"` → `"Debian"`. */
export function ecosystemBase(ecosystem: string): string {
  const colon = ecosystem.indexOf(':');
  return colon < 0 ? ecosystem : ecosystem.slice(0, colon);
}

/** The ecosystems whose packages come with an operating system: their advisory decides for the package. */
export const distributionEcosystems = new Set(Object.entries(orderOfEcosystem).filter(([, order]) => order === 'dpkg' || order === 'rpm' || order === 'apk').map(([name]) => name));

/** The version order of an OSV ecosystem (`"Debian:12"`, `"PyPI"`), or null when Cartograph has none for it. */
export function versionOrderOf(ecosystem: string): VersionOrder | null {
  const order = orderOfEcosystem[ecosystemBase(ecosystem)];
  return order ? orders[order] : null;
}
