import { ecosystemBase, versionOrderOf } from '../../core/versionOrder/ecosystems.js';
import { affectedVersion, type AffectedRange } from '../../core/versionOrder/osvRanges.js';
import { ecosystemRelease, packageIdentity, type OsRelease, type PackageIdentity } from '../../core/software/packages.js';
import type { Queryable } from '../db/database.js';
import type { DeviceLinks } from '../discovery/software/deviceLinks.js';
import { committedImports } from './feedImport.js';
import type { AvmMatch, SoftwareMatching } from './softwareMatching.js';

// Installed packages matched against the OSV advisories by package, not by CPE: each installation's package
// identity (ecosystem, name, version: from its purl, or its package type and its device's OS), then the advisories
// that name that package in that ecosystem decide, with the ecosystem's own version order. A distribution's advisory
// carries the distribution's fixed version, so a backported fix (RHEL's curl 7.76.1-26.el9_3.2, Debian's
// 2.17.0-1~deb11u1) counts as fixed. Like the CPE matcher, it reads the installations twice: the distinct
// (ecosystem, package, version) pairs are decided once each, then each device's installations whose pair is affected.

const softwareStreams = ['software', 'application'];
const recordsPerRead = 10_000;
const linkFields = ['DeviceId', 'AgentId', 'SerialNumber', 'MacAddresses', 'Hostname', 'Domain', 'IpAddresses'];

type PackageRecord = { key: string; connectionId: number; name: string | null; version: string; purl: string | null; packageType: string | null; sourcePackage: string | null; links: Record<string, unknown> };

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

type OsOfDevice = Map<string, OsRelease>;

/** Each merged device's OS as normalization named it: what gives a distribution package its ecosystem. */
async function readDeviceOs(db: Queryable, discoveryId: number): Promise<OsOfDevice> {
  const rows = await db.query<{ asset_id: string; distribution: string | null; version: string | null }>(
    `select asset_id, fields->'OS.Distribution'->>0 as distribution, fields->'OS.Version'->>0 as version from snapshot_assets
      where discovery_id = $1 and entity = 'device' and fields->'OS.Distribution'->>0 is not null`,
    [discoveryId],
  );
  return new Map(rows.map((row) => [row.asset_id, { distribution: row.distribution, version: row.version }]));
}

/** An installation's identity on its device, or null. */
function identityOf(record: PackageRecord, devices: DeviceLinks, osOfDevice: OsOfDevice): { identity: PackageIdentity; device: string } | null {
  const device = devices.link(record.connectionId, record.links);
  if (!device) return null;
  const identity = packageIdentity({ purl: record.purl, packageType: record.packageType, name: record.name, sourcePackage: record.sourcePackage, version: record.version, os: osOfDevice.get(device.asset) });
  return identity ? { identity, device: device.asset } : null;
}

const pairKeyOf = (identity: PackageIdentity) => `${identity.ecosystem}\u0000${identity.name}\u0000${identity.version}`;

type Advisory = { osvId: string; ecosystem: string; ranges: AffectedRange[]; versions: string[]; cves: string[] };
/** One CVE a pair is affected by, with the advisory that says so and its reason. */
type PairFinding = { cve: string; reason: string };

/** The committed advisories naming the given packages, by `release\u0000name`; withdrawn ones left out. */
async function readAdvisories(db: Queryable, names: string[]): Promise<Map<string, Advisory[]>> {
  const byPackage = new Map<string, Advisory[]>();
  for (let start = 0; start < names.length; start += 1000) {
    const rows = await db.query<{ osv_id: string; ecosystem: string; name: string; ranges: AffectedRange[]; versions: string[]; cves: string[] }>(
      `select p.osv_id, p.ecosystem, p.name, p.ranges, p.versions, a.cves from avm_osv_packages p
         join avm_osv_advisories a on a.import_id = p.import_id and a.osv_id = p.osv_id
        where p.name = any($1::text[]) and p.import_id in ${committedImports('osv')} and a.withdrawn is null`,
      [names.slice(start, start + 1000)],
    );
    for (const row of rows) {
      const key = `${ecosystemRelease(row.ecosystem)}\u0000${row.name}`;
      (byPackage.get(key) ?? byPackage.set(key, []).get(key)!).push({ osvId: row.osv_id, ecosystem: row.ecosystem, ranges: row.ranges, versions: row.versions, cves: row.cves });
    }
  }
  return byPackage;
}

/** Advisories named by the distribution (DSA, DLA, USN, RHSA) before the per-CVE records of its tracker (DEBIAN-CVE-…): they name the update that fixes. */
const advisoryRank = (id: string) => (/^(DEBIAN|UBUNTU|ALPINE)-CVE-/.test(id) ? 1 : 0);

/** Decides one pair: each CVE it is affected by, once, with the reason of the advisory that names it first. */
function decidePair(identity: PackageIdentity, advisories: Advisory[]): PairFinding[] {
  const order = versionOrderOf(identity.ecosystem);
  if (order && !order.valid(identity.version)) return [];
  const found = new Map<string, PairFinding>();
  const sorted = [...advisories].sort((left, right) => advisoryRank(left.osvId) - advisoryRank(right.osvId) || left.osvId.localeCompare(right.osvId));
  for (const advisory of sorted) {
    const verdict = affectedVersion(identity.version, advisory.ranges, advisory.versions, order);
    if (!verdict.affected) continue;
    const why = verdict.fixed
      ? `fixed in ${verdict.fixed}; installed ${identity.version} is earlier`
      : verdict.lastAffected ? `affected up to ${verdict.lastAffected}; installed ${identity.version} is affected` : `no fixed version yet; installed ${identity.version} is affected`;
    const reason = `${ecosystemBase(identity.ecosystem)} ${advisory.osvId}: ${why} (${identity.name} on ${advisory.ecosystem}).`;
    for (const cve of advisory.cves) if (!found.has(cve)) found.set(cve, { cve, reason });
  }
  return [...found.values()];
}

/** Whether an installation's source type makes it a distribution package (decided by its distribution's advisories only). */
export function isDistributionPackage(purl: string | null, packageType: string | null): boolean {
  if (purl) return /^pkg:\/*(deb|rpm|apk)\//i.test(purl.trim());
  return Boolean(packageType && /^(deb|rpm|apk)(_packages)?$|^dpkg$/i.test(packageType.trim()));
}

/** The ecosystems the committed OSV imports hold advisories for (`Debian`, `Maven`): packages of these are matched by package. */
export async function readOsvEcosystems(db: Queryable): Promise<Set<string>> {
  const rows = await db.query<{ ecosystem: string }>(`select distinct split_part(ecosystem, ':', 1) as ecosystem from avm_osv_packages where import_id in ${committedImports('osv')}`);
  return new Set(rows.map((row) => row.ecosystem));
}

const nothingMatched: SoftwareMatching = { cves: new Set(), matches: async function* () {} };

/**
 * Matches the snapshot's installed packages against the OSV advisories, pair by pair; `matches()` then yields one
 * match per device and CVE, the reason naming the advisory, the fixed version and the installed one.
 */
export async function preparePackageMatching(db: Queryable, discoveryId: number, devices: DeviceLinks): Promise<SoftwareMatching> {
  // First reading: the distinct pairs installed.
  const pairs = new Map<string, PackageIdentity>();
  const osOfDevice = await readDeviceOs(db, discoveryId);
  for await (const record of packageRecords(db, discoveryId)) {
    const found = identityOf(record, devices, osOfDevice);
    if (found) pairs.set(pairKeyOf(found.identity), found.identity);
  }
  if (!pairs.size) return nothingMatched;
  const advisories = await readAdvisories(db, [...new Set([...pairs.values()].map((identity) => identity.name))]);
  const findingsOfPair = new Map<string, PairFinding[]>();
  for (const [key, identity] of pairs) {
    const named = advisories.get(`${identity.ecosystem}\u0000${identity.name}`);
    const findings = named ? decidePair(identity, named) : [];
    if (findings.length) findingsOfPair.set(key, findings);
  }
  if (!findingsOfPair.size) return nothingMatched;
  const cves = new Set([...findingsOfPair.values()].flatMap((findings) => findings.map((finding) => finding.cve)));
  return {
    cves,
    matches: async function* (): AsyncGenerator<AvmMatch> {
      // Second reading: each device's installations whose pair is affected, each CVE once per device.
      const seen = new Map<string, Set<string>>();
      for await (const record of packageRecords(db, discoveryId)) {
        const found = identityOf(record, devices, osOfDevice);
        const findings = found && findingsOfPair.get(pairKeyOf(found.identity));
        if (!found || !findings) continue;
        const cvesOfDevice = seen.get(found.device) ?? seen.set(found.device, new Set()).get(found.device)!;
        for (const finding of findings) {
          if (cvesOfDevice.has(finding.cve)) continue;
          cvesOfDevice.add(finding.cve);
          yield { device: found.device, cve: finding.cve, recordKey: record.key, connectionId: record.connectionId, software: record.name?.trim() || found.identity.name, version: found.identity.version, reason: finding.reason };
        }
      }
    },
  };
}

