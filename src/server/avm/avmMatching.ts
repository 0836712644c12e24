import { ecosystemRelease, type OsRelease } from '../../core/software/packages.js';
import type { Queryable } from '../db/database.js';
import type { DeviceLinks } from '../discovery/software/deviceLinks.js';
import { identityOfRecord, preparePackageMatching, readDeviceOs, readOsvEcosystems, type FixedPackage, type PackageMatching } from './packageMatching.js';
import { prepareSoftwareMatching, type AvmMatch, type MatchOptions, type PackageFacts } from './softwareMatching.js';

// Cartograph's own matching, both ways with their precedence: an installation whose package identity falls in an
// ecosystem release the OSV advisories cover (a package of Debian 12 when Debian's advisories are imported, of RHEL 9
// when Red Hat's are; a Maven, npm or PyPI package) is decided by those advisories only, and the NVD CPE matcher
// leaves it alone: the distribution's fixed version decides, a backported fix included. Everything else (a package
// of a release no import covers, a program without a package identity) is matched by CPE. A device meets a CVE once:
// when a package advisory and a CPE criterion both find it (the distribution's log4j and a bundled jar), the package
// advisory's match is the one kept.

/**
 * Which installations the package advisories decide: `everywhere` from what the record alone says (a language
 * package, a purl naming its distribution), `onDevice` with the OS of the device it is on.
 */
export function packagePrecedence(releases: ReadonlySet<string>, osOfDevice: ReadonlyMap<string, OsRelease>): NonNullable<MatchOptions['decidedByPackage']> {
  const covered = (record: PackageFacts, os: OsRelease | undefined) => {
    if (record.purl === null && record.packageType === null) return false;
    const identity = identityOfRecord({ ...record, sourcePackage: null }, os);
    return identity !== null && releases.has(ecosystemRelease(identity.ecosystem));
  };
  return { everywhere: (record) => covered(record, undefined), onDevice: (record, device) => covered(record, osOfDevice.get(device)) };
}

export type AvmMatching = { cves: ReadonlySet<string>; matches: () => AsyncGenerator<AvmMatch>; fixedPackages: PackageMatching['fixedPackages'] };

const nothing: PackageMatching = { cves: new Set(), matches: async function* () {}, fixedPackages: async () => new Map<string, FixedPackage[]>() };

/** Prepares both matchers for a snapshot; `matches()` yields the package matches, then the CPE matches of CVEs not already found on their device. */
export async function prepareAvmMatching(db: Queryable, discoveryId: number, devices: DeviceLinks, options: MatchOptions): Promise<AvmMatching> {
  const ecosystems = await readOsvEcosystems(db);
  const releases = new Set(ecosystems.map(ecosystemRelease));
  const packages = releases.size ? await preparePackageMatching(db, discoveryId, devices, ecosystems) : nothing;
  const decidedByPackage = releases.size ? packagePrecedence(releases, await readDeviceOs(db, discoveryId)) : undefined;
  const cpe = await prepareSoftwareMatching(db, discoveryId, devices, { ...options, decidedByPackage });
  return {
    cves: new Set([...packages.cves, ...cpe.cves]),
    matches: async function* (): AsyncGenerator<AvmMatch> {
      // Only the package matches of CVEs the CPE matcher can find too are remembered: a fleet's are millions.
      const foundOnDevice = new Map<string, Set<string>>();
      for await (const match of packages.matches()) {
        if (cpe.cves.has(match.cve)) (foundOnDevice.get(match.device) ?? foundOnDevice.set(match.device, new Set()).get(match.device)!).add(match.cve);
        yield match;
      }
      for await (const match of cpe.matches()) if (!foundOnDevice.get(match.device)?.has(match.cve)) yield match;
    },
    fixedPackages: packages.fixedPackages,
  };
}
