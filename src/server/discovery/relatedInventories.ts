import type { Queryable } from '../db/database.js';
import type { DiscoveryProgress } from './progress.js';
import { buildCertificateInventory, certificateEntity } from './certificates/certificateStage.js';
import { DeviceLinks } from './software/deviceLinks.js';
import { ObservationWarnings } from './software/observations.js';
import { buildSoftwareInventory, softwareEntities } from './software/softwareStage.js';
import { buildVulnerabilityInventory } from './software/vulnerabilityStage.js';
import { buildServiceInventory } from './services/serviceStage.js';
import { buildLicenseInventory } from './licenses/licenseStage.js';

// The inventories whose records are observations about devices (installed software, vulnerability findings) rather
// than things correlation merges: they are built after the devices are merged, by the stages below, from the
// snapshot's records. The pipeline calls them through this one entry point.

/** Stream entities these stages read back from the snapshot: a discovery does not hold them in memory. */
export const observationEntities = new Set([...softwareEntities, 'vulnerability', 'service', 'license', certificateEntity]);

/**
 * Builds the vulnerability and software inventories of a snapshot once its devices are merged (`devices` indexes
 * them; null when no source reported a device), counting each connection's unlinkable or unreadable records as
 * warnings on it. A source that failed simply has no records here: the others' are built as usual.
 */
export async function buildObservationInventories(db: Queryable, discoveryId: number, devices: DeviceLinks | null, progress: DiscoveryProgress): Promise<void> {
  const links = devices ?? new DeviceLinks([], [], []);
  const warnings = new ObservationWarnings();
  const vulnerabilities = await buildVulnerabilityInventory(db, discoveryId, links, warnings);
  const software = await buildSoftwareInventory(db, discoveryId, links, warnings, vulnerabilities.affectedSoftware);
  if (vulnerabilities.count) progress.assets.vulnerability = vulnerabilities.count;
  if (software) progress.assets.software = software;
  // Services link to the devices; licenses count the users and the installed software, so they come last.
  const services = await buildServiceInventory(db, discoveryId, links, warnings);
  if (services) progress.assets.service = services;
  const licenses = await buildLicenseInventory(db, discoveryId, warnings);
  if (licenses) progress.assets.license = licenses;
  const certificates = await buildCertificateInventory(db, discoveryId, links, warnings);
  if (certificates) progress.assets.certificate = certificates;
  warnings.report(progress);
}
