import { ecosystemsOfPackageSource } from '../../core/software/packages.js';
import type { Queryable } from '../db/database.js';
import type { DeviceLinks } from '../discovery/software/deviceLinks.js';
import { preparePackageMatching, readOsvEcosystems } from './packageMatching.js';
import { prepareSoftwareMatching, type AvmMatch, type MatchOptions, type SoftwareMatching } from './softwareMatching.js';

// Cartograph's own matching, both ways with their precedence: an installation whose package belongs to an ecosystem
// the OSV advisories cover (a Debian, Ubuntu, Red Hat or Alpine package; a Maven, npm or PyPI package) is decided by
// those advisories only, and the NVD CPE matcher leaves it alone; everything else is matched by CPE. A device meets a
// CVE once: when a package advisory and a CPE criterion both find it (the distribution's log4j and a bundled jar),
// the package advisory's match is the one kept.

const nothing: SoftwareMatching = { cves: new Set(), matches: async function* () {} };

/** Prepares both matchers for a snapshot; `matches()` yields the package matches, then the CPE matches of CVEs not already found on their device. */
export async function prepareAvmMatching(db: Queryable, discoveryId: number, devices: DeviceLinks, options: MatchOptions): Promise<SoftwareMatching> {
  const ecosystems = await readOsvEcosystems(db);
  const decidedByPackage = (purl: string | null, packageType: string | null) => (purl !== null || packageType !== null) && ecosystemsOfPackageSource(purl, packageType).some((ecosystem) => ecosystems.has(ecosystem));
  const packages = ecosystems.size ? await preparePackageMatching(db, discoveryId, devices) : nothing;
  const cpe = await prepareSoftwareMatching(db, discoveryId, devices, { ...options, decidedByPackage });
  return {
    cves: new Set([...packages.cves, ...cpe.cves]),
    matches: async function* (): AsyncGenerator<AvmMatch> {
      const foundOnDevice = new Map<string, Set<string>>();
      for await (const match of packages.matches()) {
        (foundOnDevice.get(match.device) ?? foundOnDevice.set(match.device, new Set()).get(match.device)!).add(match.cve);
        yield match;
      }
      for await (const match of cpe.matches()) if (!foundOnDevice.get(match.device)?.has(match.cve)) yield match;
    },
  };
}
