import { ecosystemBase, versionOrderOf, type VersionOrder } from '../../core/versionOrder/ecosystems.js';
import { affectedVersion, fixReached, type AffectedRange } from '../../core/versionOrder/osvRanges.js';
import { ecosystemRelease, packageIdentity, type OsRelease, type PackageIdentity } from '../../core/software/packages.js';
import type { Queryable } from '../db/database.js';
import type { DeviceLinks } from '../discovery/software/deviceLinks.js';
import { committedImports } from './feedImport.js';
import type { AvmMatch, SoftwareMatching } from './softwareMatching.js';

// Installed packages matched against the OSV advisories by package, not by CPE: each installation's package
// identity (ecosystem, name, version: from its purl, or its package type and its device's OS), then the advisories
// that name that package in that ecosystem decide, with the ecosystem's own version order. A distribution's advisory
// carries the distribution's fixed version, so a backported fix (RHEL's curl 7.76.1-26.el9_3.2, Debian's
// 2.17.0-1~deb11u1) counts as fixed, and says so: the installations an advisory names at or past its fix are kept as
// "fixed packages" of the CVE, with the reason. Like the CPE matcher, it reads the installations twice: the distinct
// (ecosystem, package, version) pairs are decided once each, then each device's installations whose pair is affected.

const softwareStreams = ['software', 'application'];
const recordsPerRead = 10_000;
const linkFields = ['DeviceId', 'AgentId', 'SerialNumber', 'MacAddresses', 'Hostname', 'Domain', 'IpAddresses'];

export type PackageRecord = { key: string; connectionId: number; name: string | null; version: string; purl: string | null; packageType: string | null; sourcePackage: string | null; links: Record<string, unknown> };

/** The snapshot's software records that say something of their package (a purl or a package type), a batch at a time. */
async function* packageRecords(db: Queryable, discoveryId: number): AsyncGenerator<PackageRecord> {
  let after = '';
  const links = `jsonb_build_object(${linkFields.map((field) => `'${field}', j->'${field}'`).join(', ')})`;
  for (;;) {
    const rows = await db.query<{ record_key: string; connection_id: number; name: string | null; version: string | null; purl: string | null; package_type: string | null; source_package: string | null; links: Record<string, unknown> }>(
      `select record_key, connection_id, j->'SoftwareName'->>0 as name, j->'SoftwareVersion'->>0 as version, j->'SoftwarePurl'->>0 as purl,
              j->'SoftwarePackageType'->>0 as package_type, j->'SoftwareSourcePackage'->>0 as source_package, ${links} as links
         from (select record_key, connection_id, fields::jsonb as j from snapshot_records
                where discovery_id = $1 and record_key > $2 and entity = any($3::text[]) order by record_key limit ${recordsPerRead}) as batch
        order by record_key`,
      [discoveryId, after, softwareStreams],
    );
    for (const row of rows) {
      if (!row.purl && !row.package_type) continue;
      yield { key: row.record_key, connectionId: row.connection_id, name: row.name, version: row.version?.trim() ?? '', purl: row.purl, packageType: row.package_type, sourcePackage: row.source_package, links: row.links ?? {} };
    }
    if (rows.length < recordsPerRead) return;
    after = rows[rows.length - 1].record_key;
  }
}

export type OsOfDevice = Map<string, OsRelease>;

/** Each merged device's OS as normalization named it: what gives a distribution package its ecosystem. */
export async function readDeviceOs(db: Queryable, discoveryId: number): Promise<OsOfDevice> {
  const rows = await db.query<{ asset_id: string; distribution: string | null; version: string | null }>(
    `select asset_id, fields->'OS.Distribution'->>0 as distribution, fields->'OS.Version'->>0 as version from snapshot_assets
      where discovery_id = $1 and entity = 'device' and fields->'OS.Distribution'->>0 is not null`,
    [discoveryId],
  );
  return new Map(rows.map((row) => [row.asset_id, { distribution: row.distribution, version: row.version }]));
}

/** An installation's package identity, given the OS of the device it is on (when known). */
export const identityOfRecord = (record: Pick<PackageRecord, 'purl' | 'packageType' | 'name' | 'sourcePackage' | 'version'>, os: OsRelease | undefined) =>
  packageIdentity({ purl: record.purl, packageType: record.packageType, name: record.name, sourcePackage: record.sourcePackage, version: record.version, os });

/** An installation's identity on its device, or null. */
function identityOf(record: PackageRecord, devices: DeviceLinks, osOfDevice: OsOfDevice): { identity: PackageIdentity; device: string } | null {
  const device = devices.link(record.connectionId, record.links);
  if (!device) return null;
  const identity = identityOfRecord(record, osOfDevice.get(device.asset));
  return identity ? { identity, device: device.asset } : null;
}

const pairKeyOf = (identity: PackageIdentity) => `${identity.ecosystem}\u0000${identity.name}\u0000${identity.sourceName ?? ''}\u0000${identity.version}`;

type Advisory = { osvId: string; ecosystem: string; name: string; ranges: AffectedRange[]; versions: string[]; cves: string[] };
/** One CVE a pair is affected by, with the advisory that says so and its reason. */
type PairFinding = { cve: string; reason: string };
/** A CVE an advisory names for an installed package that has its fix: the reason, and how many installations have that package at that version. */
export type FixedPackage = { cve: string; reason: string; installations: number };

/**
 * The committed advisories naming the given packages on the given releases, by `release\u0000name`; withdrawn ones
 * left out. Only the ecosystems of those releases are read: a Debian 12 fleet needs none of the archive's other releases.
 */
async function readAdvisories(db: Queryable, names: string[], known: readonly string[], releases: ReadonlySet<string>): Promise<Map<string, Advisory[]>> {
  const byPackage = new Map<string, Advisory[]>();
  const ecosystems = known.filter((ecosystem) => releases.has(ecosystemRelease(ecosystem)));
  if (!ecosystems.length) return byPackage;
  for (let start = 0; start < names.length; start += 1000) {
    const rows = await db.query<{ osv_id: string; ecosystem: string; name: string; ranges: AffectedRange[]; versions: string[]; cves: string[] }>(
      `select p.osv_id, p.ecosystem, p.name, p.ranges, p.versions, a.cves from avm_osv_packages p
         join avm_osv_advisories a on a.import_id = p.import_id and a.osv_id = p.osv_id
        where p.name = any($1::text[]) and p.ecosystem = any($2::text[]) and p.import_id in ${committedImports('osv')} and a.withdrawn is null`,
      [names.slice(start, start + 1000), ecosystems],
    );
    for (const row of rows) {
      const key = `${ecosystemRelease(row.ecosystem)}\u0000${row.name}`;
      (byPackage.get(key) ?? byPackage.set(key, []).get(key)!).push({ osvId: row.osv_id, ecosystem: row.ecosystem, name: row.name, ranges: row.ranges, versions: row.versions, cves: row.cves });
    }
  }
  return byPackage;
}

/**
 * The advisories naming a pair's package (by its binary and its source name), in the order they decide: an advisory
 * that names the package in several entries (GitHub's give each version line its own; ALSA the binary and the source
 * package; Red Hat each repository stream) is one, its ranges and listed versions together.
 */
function advisoriesOf(identity: PackageIdentity, byPackage: Map<string, Advisory[]>): Advisory[] {
  const byId = new Map<string, Advisory>();
  for (const name of new Set([identity.name, identity.sourceName])) {
    for (const entry of (name && byPackage.get(`${ecosystemRelease(identity.ecosystem)}\u0000${name}`)) || []) {
      const known = byId.get(entry.osvId);
      byId.set(entry.osvId, known ? { ...known, ranges: [...known.ranges, ...entry.ranges], versions: [...known.versions, ...entry.versions] } : entry);
    }
  }
  return [...byId.values()].sort((left, right) => advisoryRank(left.osvId) - advisoryRank(right.osvId) || left.osvId.localeCompare(right.osvId));
}

/** Advisories named by the distribution (DSA, DLA, USN, RHSA, ALSA) before the per-CVE records of its tracker (DEBIAN-CVE-…): they name the update that fixes. */
const advisoryRank = (id: string) => (/^(DEBIAN|UBUNTU|ALPINE)-CVE-/.test(id) ? 1 : 0);

const epochless = new Map<VersionOrder, VersionOrder>();
const withoutEpoch = (version: string) => version.replace(/^\s*\d+:/, '');

/**
 * The order a pair's version is compared in. An RPM reported without its epoch (osquery's and most agents' version
 * field) is compared with the advisories' versions without theirs: Red Hat's `1:3.0.7-27.el9` is that package's fix
 * whatever the epoch, which is not part of what was reported. dpkg versions always carry their epoch.
 */
function orderOf(identity: PackageIdentity): VersionOrder | null {
  const order = versionOrderOf(identity.ecosystem);
  if (!order || order.title !== 'RPM' || /^\s*\d+:/.test(identity.version)) return order;
  let lenient = epochless.get(order);
  if (!lenient) epochless.set(order, (lenient = { ...order, compare: (left, right) => order.compare(withoutEpoch(left), withoutEpoch(right)) }));
  return lenient;
}

/** The package as the advisory names it, on its ecosystem: `apache-log4j2 on Debian:11`. */
const onRelease = (advisory: Advisory) => `${advisory.name} on ${advisory.ecosystem}`;

/** Decides one pair: each CVE it is affected by, once, with the reason of the advisory that names it first. */
function decidePair(identity: PackageIdentity, advisories: Advisory[]): PairFinding[] {
  const order = orderOf(identity);
  if (order && !order.valid(identity.version)) return [];
  const found = new Map<string, PairFinding>();
  for (const advisory of advisories) {
    const verdict = affectedVersion(identity.version, advisory.ranges, advisory.versions, order);
    if (!verdict.affected) continue;
    const why = verdict.fixed
      ? `fixed in ${verdict.fixed}; installed ${identity.version} is earlier`
      : verdict.lastAffected ? `affected up to ${verdict.lastAffected}; installed ${identity.version} is affected` : `no fixed version yet; installed ${identity.version} is affected`;
    const reason = `${ecosystemBase(identity.ecosystem)} ${advisory.osvId}: ${why} (${onRelease(advisory)}).`;
    for (const cve of advisory.cves) if (!found.has(cve)) found.set(cve, { cve, reason });
  }
  return [...found.values()];
}

/** The CVEs of `wanted` a pair's advisories name with a fix the pair has (and none says it is affected by), with the reason of the first. */
function fixedNotes(identity: PackageIdentity, advisories: Advisory[], affected: ReadonlySet<string>, wanted: ReadonlySet<string>): PairFinding[] {
  const order = orderOf(identity);
  if (order && !order.valid(identity.version)) return [];
  const notes = new Map<string, PairFinding>();
  for (const advisory of advisories) {
    const cves = advisory.cves.filter((cve) => wanted.has(cve) && !affected.has(cve) && !notes.has(cve));
    if (!cves.length || affectedVersion(identity.version, advisory.ranges, advisory.versions, order).affected) continue;
    const fix = fixReached(identity.version, advisory.ranges, order);
    if (!fix) continue;
    const reason = `${ecosystemBase(identity.ecosystem)} ${advisory.osvId}: fixed in ${fix}; installed ${identity.version} has the fix (${onRelease(advisory)}).`;
    for (const cve of cves) notes.set(cve, { cve, reason });
  }
  return [...notes.values()];
}

/**
 * The ecosystems the committed OSV imports hold advisories for, as written (`Debian:12`, `Red Hat:enterprise_linux:9::baseos`,
 * `Maven`); their releases (`ecosystemRelease`) are the ones whose packages are matched by package.
 */
export async function readOsvEcosystems(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ ecosystem: string }>(`select distinct ecosystem from avm_osv_packages where import_id in ${committedImports('osv')}`);
  return rows.map((row) => row.ecosystem);
}

/** Package matching: the matches, and the fixed packages of given CVEs (read after the matches, or on their own). */
export type PackageMatching = SoftwareMatching & { fixedPackages: (cves: ReadonlySet<string>) => Promise<Map<string, FixedPackage[]>> };

const nothingMatched: PackageMatching = { cves: new Set(), matches: async function* () {}, fixedPackages: async () => new Map() };

/**
 * Matches the snapshot's installed packages against the OSV advisories, pair by pair; `matches()` then yields one
 * match per device and CVE, the reason naming the advisory, the fixed version and the installed one.
 */
export async function preparePackageMatching(db: Queryable, discoveryId: number, devices: DeviceLinks, ecosystems: readonly string[]): Promise<PackageMatching> {
  // First reading: the distinct pairs installed.
  const pairs = new Map<string, PackageIdentity>();
  const osOfDevice = await readDeviceOs(db, discoveryId);
  for await (const record of packageRecords(db, discoveryId)) {
    const found = identityOf(record, devices, osOfDevice);
    if (found) pairs.set(pairKeyOf(found.identity), found.identity);
  }
  if (!pairs.size) return nothingMatched;
  const identities = [...pairs.values()];
  const names = [...new Set(identities.flatMap((identity) => [identity.name, ...(identity.sourceName ? [identity.sourceName] : [])]))];
  const byPackage = await readAdvisories(db, names, ecosystems, new Set(identities.map((identity) => ecosystemRelease(identity.ecosystem))));
  // Only the pairs some advisory names are kept, with their advisories: the others have nothing to say.
  // Each numbered, so that a device's pairs are held as numbers (a fleet's devices hold millions of them).
  const named = new Map<string, { number: number; identity: PackageIdentity; advisories: Advisory[]; findings: PairFinding[]; cves: Set<string> }>();
  for (const [key, identity] of pairs) {
    const advisories = advisoriesOf(identity, byPackage);
    if (!advisories.length) continue;
    const findings = decidePair(identity, advisories);
    named.set(key, { number: named.size, identity, advisories, findings, cves: new Set(findings.map((finding) => finding.cve)) });
  }
  const cvesOfPair = [...named.values()].map((pair) => pair.cves);
  pairs.clear();
  byPackage.clear();
  if (!named.size) return nothingMatched;
  const cves = new Set([...named.values()].flatMap((pair) => pair.findings.map((finding) => finding.cve)));
  // How many installations each named pair has, counted as the second reading passes.
  let installations: Map<string, number> | null = null;

  async function* matches(): AsyncGenerator<AvmMatch> {
    // Second reading: each device's installations whose pair is affected, each CVE once per device. A device's CVEs
    // are those of the affected pairs it has, held as their numbers: a CVE is new to it unless one of them has it.
    const pairsOfDevice = new Map<string, number[]>();
    const counted = new Map<string, number>();
    for await (const record of packageRecords(db, discoveryId)) {
      const found = identityOf(record, devices, osOfDevice);
      const key = found && pairKeyOf(found.identity);
      const pair = key && named.get(key);
      if (!found || !key || !pair) continue;
      counted.set(key, (counted.get(key) ?? 0) + 1);
      if (!pair.findings.length) continue;
      const earlier = pairsOfDevice.get(found.device) ?? pairsOfDevice.set(found.device, []).get(found.device)!;
      if (earlier.includes(pair.number)) continue;
      for (const finding of pair.findings) {
        if (earlier.some((number) => cvesOfPair[number].has(finding.cve))) continue;
        yield { device: found.device, cve: finding.cve, recordKey: record.key, connectionId: record.connectionId, software: record.name?.trim() || found.identity.name, version: found.identity.version, reason: finding.reason };
      }
      earlier.push(pair.number);
    }
    installations = counted;
  }

  return {
    cves,
    matches,
    fixedPackages: async (wanted) => {
      // Without the matches read (none was affected), the installations are counted on their own.
      if (!installations) for await (const _match of matches());
      const byCve = new Map<string, FixedPackage[]>();
      for (const [key, pair] of named) {
        const count = installations?.get(key) ?? 0;
        if (!count) continue;
        const affected = new Set(pair.findings.map((finding) => finding.cve));
        for (const note of fixedNotes(pair.identity, pair.advisories, affected, wanted)) {
          (byCve.get(note.cve) ?? byCve.set(note.cve, []).get(note.cve)!).push({ ...note, installations: count });
        }
      }
      return byCve;
    },
  };
}
