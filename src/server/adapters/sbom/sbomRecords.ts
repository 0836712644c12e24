import { basename } from 'node:path';
import { parsePurl } from '../../../core/software/packages.js';
import type { FetchedRecord } from '../engine.js';
import type { SbomContents, SbomPackage } from './sbomContents.js';

// One SBOM becomes one device record (the image or machine it describes) and one installed-software record per
// package. The software records name their device by `DeviceId`, the key its device record gets (recordKeys.ts:
// the agent id, else the host name, since the device's raw record carries no vendor id), so each lands on that
// device whatever else correlation merges it with.

/** Where the SBOM came from and what the connection says of the machine, for SBOMs that name none. */
export type SbomOrigin = { fileName: string; hostName?: string | null };

/** The category of a device that is a container image (kept as the source's word: no rule of categories.json folds it). */
export const containerImageCategory = 'Container image';

/** A file name without its SBOM extensions: `web-01.cdx.json.gz` → `web-01`. */
export function fileStem(fileName: string): string {
  const name = basename(fileName.replace(/\\/g, '/'));
  return name.replace(/(\.gz)?$/i, '').replace(/\.json$/i, '').replace(/\.(cdx|spdx|bom|sbom|cyclonedx)$/i, '') || name;
}

/** The OS as text normalization reads (`alpine 3.19.1`), from the SBOM's OS component or, failing one, a distribution purl's `distro`. */
function operatingSystemText(contents: SbomContents): string | null {
  const os = contents.operatingSystem;
  if (os) return os.prettyName ?? [os.name, os.version].filter(Boolean).join(' ');
  for (const pkg of contents.packages) {
    const purl = pkg.purl ? parsePurl(pkg.purl) : null;
    const distro = purl?.qualifiers.distro;
    if (!purl || !distro || !['deb', 'rpm', 'apk'].includes(purl.type)) continue;
    // syft: `distro=debian-12`; trivy's apk purls give only the release (`distro=3.19.1`), their namespace the distribution.
    const named = /^([a-z]+)[-_ ]?(\d[\w.]*)$/i.exec(distro);
    if (named) return `${named[1]} ${named[2]}`;
    if (/^\d/.test(distro) && purl.namespace) return `${purl.namespace} ${distro}`;
  }
  return null;
}

type Device = { fields: Record<string, unknown>; key: string; note: string | null };

function deviceOf(contents: SbomContents, origin: SbomOrigin, label: string): Device {
  const subject = contents.subject;
  const os = operatingSystemText(contents);
  const common = { ...(os && { 'OS.FullOsString': os }), ...(contents.created && { LastSeen: contents.created }) };
  if (subject.kind === 'image') {
    // An image is known by its digest: two SBOMs of one image merge by it (agent ids are compared per adapter), and
    // two builds tagged alike stay apart.
    const hostname = subject.reference ?? (subject.digest ? `image ${subject.digest.slice(7, 19)}` : fileStem(origin.fileName));
    return { fields: { Hostname: hostname, ...(subject.digest && { AgentId: subject.digest }), Category: containerImageCategory, ...common }, key: subject.digest ?? hostname, note: null };
  }
  if (subject.kind === 'host') return { fields: { Hostname: subject.hostname, ...common }, key: subject.hostname, note: null };
  const configured = origin.hostName?.trim();
  if (configured) return { fields: { Hostname: configured, ...common }, key: configured, note: null };
  const stem = fileStem(origin.fileName);
  const what = subject.name ? `${subject.type ?? 'component'} "${subject.name}"` : 'nothing it names';
  return {
    fields: { Hostname: stem, ...common }, key: stem,
    note: `${label} describes ${what}, not a machine or an image: its software was put on the device "${stem}", named after the file (the connection's Host name option names it instead).`,
  };
}

function softwareFields(pkg: SbomPackage, deviceKey: string): Record<string, unknown> {
  const fields: Record<string, unknown> = { DeviceId: deviceKey, SoftwareName: pkg.name };
  const optional: [string, string | string[] | null][] = [
    ['SoftwareVersion', pkg.version], ['SoftwareVendor', pkg.vendor], ['SoftwarePurl', pkg.purl], ['SoftwareCpe', pkg.cpe],
    ['SoftwareSourcePackage', pkg.sourcePackage], ['SoftwarePackageType', pkg.packageType], ['InstallPath', pkg.installPath],
    ['SoftwareLicense', pkg.licenses.length ? pkg.licenses : null],
  ];
  for (const [field, value] of optional) if (value !== null) fields[field] = value;
  return fields;
}

/**
 * The records of one SBOM, and what to tell the administrator about it. Before: a syft CycloneDX of `alpine:3.19`
 * with 15 packages; after: a device `{Hostname: "alpine:3.19", AgentId: "sha256:…", Category: "Container image",
 * OS.FullOsString: "Alpine Linux v3.19"}` and 15 software records `{DeviceId: "sha256:…", SoftwareName: "musl",
 * SoftwarePurl: "pkg:apk/alpine/musl@1.2.4_git20230717-r4?arch=x86_64&distro=alpine-3.19.1", ...}`.
 */
export function sbomRecords(contents: SbomContents, origin: SbomOrigin, label: string): { records: FetchedRecord[]; notes: string[] } {
  const device = deviceOf(contents, origin, label);
  const notes = [...contents.notes.map((note) => `${label}: ${note}`), ...(device.note ? [device.note] : [])];
  if (contents.unnamed) notes.push(`${label}: ${contents.unnamed} component${contents.unnamed === 1 ? '' : 's'} without a name ${contents.unnamed === 1 ? 'was' : 'were'} skipped.`);
  if (!contents.packages.length) notes.push(`${label} lists no packages.`);
  // The document sits under its own key: a vendor id at its top (an `id`) would otherwise change the device's record key.
  const raw = { format: contents.format, tool: contents.tool, file: origin.fileName, document: contents.header };
  const records: FetchedRecord[] = [{ entity: 'device', fields: device.fields, raw }];
  for (const pkg of contents.packages) records.push({ entity: 'software', fields: softwareFields(pkg, device.key), raw: pkg.raw });
  return { records, notes };
}
