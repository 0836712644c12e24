import { ecosystemBase } from '../versionOrder/ecosystems.js';

// Package identity: which package of which ecosystem an installation is, in OSV's terms (ecosystem, name,
// version), read from a package URL (https://github.com/package-url/purl-spec) or from the source's package type and
// the device's operating system. A distribution package is named by its source package when the source says it
// (Debian's and Alpine's advisories name source packages: liblog4j2-java comes from apache-log4j2).

/** An installation's package in OSV's terms; an RPM is named by its binary package and, when known, its source package too (`sourceName`). */
export type PackageIdentity = { ecosystem: string; name: string; version: string; sourceName?: string };

/**
 * A package name as OSV ecosystems compare them: PyPI's normalized form (PEP 503), lower case where the ecosystem
 * ignores case. Before: `("PyPI", "Jinja2_Extras")`; after: `"jinja2-extras"`.
 */
export function normalizePackageName(ecosystem: string, name: string): string {
  const base = ecosystemBase(ecosystem);
  const trimmed = name.trim();
  if (base === 'PyPI') return trimmed.toLowerCase().replace(/[-_.]+/g, '-');
  if (base === 'NuGet' || base === 'Packagist' || base === 'crates.io' || base === 'Hex' || base === 'Pub') return trimmed.toLowerCase();
  return trimmed;
}

export type PackageUrl = { type: string; namespace: string | null; name: string; version: string | null; qualifiers: Record<string, string> };

/** Parses a package URL. Before: `"pkg:deb/debian/curl@7.88.1-10%2Bdeb12u5?distro=debian-12"`; after: `{type: "deb", namespace: "debian", name: "curl", ...}`. */
export function parsePurl(text: string): PackageUrl | null {
  const match = /^pkg:\/*([a-zA-Z][a-zA-Z0-9.+-]*)\/([^?#]+?)(?:\?([^#]*))?(?:#.*)?$/.exec(text.trim());
  if (!match) return null;
  const [, type, path, query] = match;
  const at = path.lastIndexOf('@');
  // An npm scope's @ is escaped (%40) or starts a segment: the version's @ follows the name.
  const hasVersion = at > 0 && path[at - 1] !== '/';
  const segments = (hasVersion ? path.slice(0, at) : path).split('/').filter(Boolean).map((segment) => decodeURIComponent(segment));
  const name = segments.pop();
  if (!name) return null;
  const qualifiers: Record<string, string> = {};
  for (const pair of (query ?? '').split('&').filter(Boolean)) {
    const equals = pair.indexOf('=');
    if (equals > 0) qualifiers[pair.slice(0, equals).toLowerCase()] = decodeURIComponent(pair.slice(equals + 1));
  }
  return { type: type.toLowerCase(), namespace: segments.length ? segments.join('/') : null, name, version: hasVersion ? decodeURIComponent(path.slice(at + 1)) : null, qualifiers };
}

/** An operating system as normalization names it (`Debian`, `12`), or as a purl's `distro` qualifier does (`debian-12`). */
export type OsRelease = { distribution?: string | null; version?: string | null };

const majorOf = (version: string) => /^\d+/.exec(version)?.[0] ?? null;

/**
 * The OSV ecosystem of a distribution release, or null when OSV publishes none Cartograph reads for it.
 * Before: `{distribution: "Ubuntu", version: "22.04.3"}`; after: `"Ubuntu:22.04:LTS"`; `RHEL 9.3` → `"Red Hat:enterprise_linux:9"`.
 */
export function distributionEcosystem(os: OsRelease): string | null {
  const distribution = os.distribution?.trim().toLowerCase() ?? '';
  const version = os.version?.trim() ?? '';
  const major = majorOf(version);
  if (!major) return null;
  if (distribution === 'debian') return `Debian:${major}`;
  if (distribution === 'ubuntu') {
    const release = /^\d{2}\.\d{2}/.exec(version)?.[0];
    if (!release) return null;
    // Long-term releases come every two years in April: 20.04, 22.04, 24.04.
    return Number(release.slice(0, 2)) % 2 === 0 && release.endsWith('.04') ? `Ubuntu:${release}:LTS` : `Ubuntu:${release}`;
  }
  if (distribution === 'rhel' || distribution === 'red hat' || distribution === 'redhat') return `Red Hat:enterprise_linux:${major}`;
  if (distribution === 'rocky linux' || distribution === 'rocky') return `Rocky Linux:${major}`;
  if (distribution === 'almalinux' || distribution === 'alma') return `AlmaLinux:${major}`;
  if (distribution === 'alpine linux' || distribution === 'alpine') {
    const release = /^\d+\.\d+/.exec(version)?.[0];
    return release ? `Alpine:v${release}` : null;
  }
  return null;
}

/**
 * The release an advisory's ecosystem names, for comparing with an installation's: Red Hat's repository stream
 * dropped (`Red Hat:enterprise_linux:9::appstream` → `Red Hat:enterprise_linux:9`), and Ubuntu's ESM fixes
 * (`Ubuntu:Pro:18.04:LTS`) counted for the release they patch: a host without ESM runs the same package, unfixed.
 * Ubuntu Pro's other services (`Ubuntu:Pro:FIPS-updates:22.04:LTS`, realtime kernels) build packages of their own
 * and stay apart.
 */
export function ecosystemRelease(ecosystem: string): string {
  const esm = /^Ubuntu:Pro:(\d{2}\.\d{2}(?::LTS)?)$/.exec(ecosystem);
  if (esm) return `Ubuntu:${esm[1]}`;
  const stream = ecosystem.indexOf('::');
  return stream < 0 ? ecosystem : ecosystem.slice(0, stream);
}

/** A purl's `distro` qualifier read as a release: `debian-12` → Debian 12, `ubuntu-22.04` → Ubuntu 22.04, `alpine-3.18.4`, `rhel-9.3`. */
function distroQualifier(value: string | undefined): OsRelease | null {
  const match = value ? /^([a-z]+)[-_ ]?(\d[\w.]*)$/i.exec(value.trim()) : null;
  if (!match) return null;
  const names: Record<string, string> = { debian: 'Debian', ubuntu: 'Ubuntu', rhel: 'RHEL', redhat: 'RHEL', rocky: 'Rocky Linux', almalinux: 'AlmaLinux', alma: 'AlmaLinux', alpine: 'Alpine Linux' };
  return names[match[1].toLowerCase()] ? { distribution: names[match[1].toLowerCase()], version: match[2] } : null;
}

const languageEcosystems: Record<string, string> = { pypi: 'PyPI', maven: 'Maven', npm: 'npm', golang: 'Go', cargo: 'crates.io', nuget: 'NuGet', gem: 'RubyGems', composer: 'Packagist', hex: 'Hex', pub: 'Pub' };

/** What an installation record says of its package: a purl, or the source's package type, its source package and the device's OS. */
export type PackageFacts = { purl?: string | null; packageType?: string | null; name?: string | null; sourcePackage?: string | null; version?: string | null; os?: OsRelease | null };

/** osquery/Fleet tables and EDR package types, as the purl type they mean. */
const packageTypes: Record<string, string> = {
  deb_packages: 'deb', deb: 'deb', dpkg: 'deb', rpm_packages: 'rpm', rpm: 'rpm', apk_packages: 'apk', apk: 'apk',
  python_packages: 'pypi', pypi: 'pypi', python: 'pypi', pip: 'pypi', npm_packages: 'npm', npm: 'npm',
  maven: 'maven', jar: 'maven', java: 'maven', nuget: 'nuget', go: 'golang', golang: 'golang', cargo: 'cargo', gem: 'gem', gem_packages: 'gem',
};

/**
 * The package identity of an installation, or null when its source does not say enough (a Windows program, an RPM
 * on an OS without an OSV ecosystem). A purl decides; else the package type with the device's OS for distribution
 * packages. Before: `{packageType: "deb_packages", name: "libcurl4", sourcePackage: "curl", version: "7.88.1-10+deb12u5", os: {distribution: "Debian", version: "12.5"}}`;
 * after: `{ecosystem: "Debian:12", name: "curl", version: "7.88.1-10+deb12u5"}`.
 */
export function packageIdentity(facts: PackageFacts): PackageIdentity | null {
  const purl = facts.purl ? parsePurl(facts.purl) : null;
  const type = purl?.type ?? (facts.packageType ? packageTypes[facts.packageType.trim().toLowerCase()] : undefined);
  // A purl keeps a deb or rpm epoch apart, in its `epoch` qualifier (`zlib1g@1.2.13.dfsg-1?epoch=1`): the version the
  // distribution compares is `1:1.2.13.dfsg-1`, and an epoch outranks any upstream version.
  const epoch = purl?.qualifiers.epoch?.trim();
  const purlVersion = purl?.version && epoch && /^\d+$/.test(epoch) && !purl.version.includes(':') ? `${epoch}:${purl.version}` : purl?.version;
  const version = (purlVersion ?? facts.version ?? '').trim();
  if (!type || !version) return null;
  const language = languageEcosystems[type];
  if (language) {
    let name = purl ? purl.name : facts.name?.trim() ?? '';
    if (purl?.namespace) name = type === 'maven' ? `${purl.namespace}:${purl.name}` : `${purl.namespace}/${purl.name}`;
    return name ? { ecosystem: language, name: normalizePackageName(language, name), version } : null;
  }
  if (type !== 'deb' && type !== 'rpm' && type !== 'apk') return null;
  const os = distroQualifier(purl?.qualifiers.distro) ?? facts.os ?? null;
  const ecosystem = os ? distributionEcosystem(os) : null;
  const source = sourcePackageName(purl?.qualifiers.upstream ?? facts.sourcePackage);
  const binary = purl?.name ?? facts.name?.trim();
  if (!ecosystem) return null;
  if (type === 'rpm') {
    // An RPM's epoch is a qualifier of its purl (osquery reports it apart too); the version alone carries none.
    const epoch = purl?.qualifiers.epoch?.trim();
    const versioned = epoch && /^\d+$/.test(epoch) && !/^\d+:/.test(version) ? `${epoch}:${version}` : version;
    // Red Hat's and its rebuilds' advisories name binary packages, some only the source one: both are looked up.
    if (!binary) return source ? { ecosystem, name: source, version: versioned } : null;
    return { ecosystem, name: binary, version: versioned, ...(source && source !== binary && { sourceName: source }) };
  }
  // Debian's, Ubuntu's and Alpine's advisories name source packages: liblog4j2-java is apache-log4j2's.
  const name = source || binary;
  return name ? { ecosystem, name, version } : null;
}

/**
 * A source package's name as sources write it: dpkg's `Source` field (`openssh (1:8.9p1-3)`), a purl's `upstream`
 * (`openssh@1:8.9p1-3`), or an RPM's source file (`openssh-8.7p1-38.el9_4.1.src.rpm` → `openssh`).
 */
export function sourcePackageName(text: string | null | undefined): string | undefined {
  const trimmed = text?.trim();
  if (!trimmed) return undefined;
  const rpm = /^(.+)-[^-]+-[^-]+\.(?:no)?src\.rpm$/.exec(trimmed);
  return (rpm ? rpm[1] : trimmed.replace(/@.*$/, '').replace(/\s*\(.*\)$/, '')) || undefined;
}

const distributionsOfType: Record<string, string[]> = { deb: ['Debian', 'Ubuntu'], rpm: ['Red Hat', 'Rocky Linux', 'AlmaLinux', 'SUSE', 'openSUSE'], apk: ['Alpine'] };

/**
 * The OSV ecosystems an installation's package may belong to, from its purl or package type alone (before its
 * device's OS is known): what decides whether its ecosystem's advisories, rather than CPE, match it.
 * Before: `(null, "deb_packages")`; after: `["Debian", "Ubuntu"]`; `("pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1", null)` → `["Maven"]`.
 */
export function ecosystemsOfPackageSource(purl: string | null, packageType: string | null): string[] {
  const type = (purl ? parsePurl(purl)?.type : undefined) ?? (packageType ? packageTypes[packageType.trim().toLowerCase()] : undefined);
  if (!type) return [];
  return distributionsOfType[type] ?? (languageEcosystems[type] ? [languageEcosystems[type]] : []);
}
