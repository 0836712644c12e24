import { foldVendorless, softwareIdentity } from '../../../core/software/names.js';
import { parseVersion, sortVersionsDescending } from '../../../core/software/versions.js';
import type { Queryable } from '../../db/database.js';
import type { MergedAsset } from '../mergeAssets.js';
import { writeAssets, writeBehind } from '../snapshotWriter.js';
import type { DeviceLinks } from './deviceLinks.js';
import type { AffectedSoftware } from './vulnerabilityStage.js';
import { firstText, inventoryAssetId, observations, type ObservationWarnings } from './observations.js';

/** The stream entities of installed software: `software` (the contract's name) and `application` (the file adapters'). */
export const softwareEntities = ['software', 'application'];

// Bounds on what one software entry lists, so a product reported under thousands of spellings stays one row.
const keptNames = 50;
const keptVersions = 500;
const rowsPerWrite = 1000;

/** What the discovery gathers of one software entry while it reads the installations. */
type SoftwareEntry = {
  names: Map<string, number>;
  vendor: string | null;
  reportedVendors: Set<string>;
  versions: Set<string>;
  cpes: Set<string>;
  categories: Set<string>;
  adapters: Set<string>;
  connections: Set<number>;
};

const newEntry = (): SoftwareEntry => ({ names: new Map(), vendor: null, reportedVendors: new Set(), versions: new Set(), cpes: new Set(), categories: new Set(), adapters: new Set(), connections: new Set() });

function addBounded<T>(into: Set<T>, value: T | null, limit = keptNames): void {
  if (value !== null && into.size < limit) into.add(value);
}

function mergeEntries(into: SoftwareEntry, from: SoftwareEntry): void {
  for (const [name, count] of from.names) into.names.set(name, (into.names.get(name) ?? 0) + count);
  into.vendor ??= from.vendor;
  for (const key of ['reportedVendors', 'versions', 'cpes', 'categories', 'adapters', 'connections'] as const) for (const value of from[key] as Set<never>) (into[key] as Set<never>).add(value);
}

/** The software asset of an entry: the name most sources use, the vendor folded, versions highest first. */
function softwareAsset(key: string, entry: SoftwareEntry, installCount: number, vulnerabilityCount: number): MergedAsset {
  const id = inventoryAssetId('software', key);
  const names = [...entry.names.entries()].sort((left, right) => right[1] - left[1] || left[0].localeCompare(right[0])).map(([name]) => name);
  const versions = sortVersionsDescending(entry.versions).slice(0, keptVersions);
  const latest = versions.find((version) => parseVersion(version));
  const adapters = [...entry.adapters].sort();
  const fields: MergedAsset['fields'] = {
    Name: [names[0]],
    ...(entry.vendor && { Vendor: [entry.vendor] }),
    NormalizedName: [key],
    ...(versions.length && { Versions: versions }),
    ...(latest && { LatestVersion: [latest] }),
    VersionCount: [entry.versions.size],
    InstallCount: [installCount],
    VulnerabilityCount: [vulnerabilityCount],
    ...(entry.cpes.size && { Cpe: [...entry.cpes] }),
    ...(entry.categories.size && { Category: [...entry.categories] }),
    ReportedNames: names.slice(0, keptNames),
    ...(entry.reportedVendors.size && { ReportedVendors: [...entry.reportedVendors] }),
    Adapters: adapters,
    AdapterCount: [adapters.length],
    Connections: [...entry.connections].sort((left, right) => left - right),
    PrimaryKey: [id],
  };
  return { id, fields, specifics: {}, preferred: {}, recordKeys: [], adapters, reasons: [] };
}

function addTo(map: Map<string, Set<string>>, key: string, value: string): void {
  let values = map.get(key);
  if (!values) map.set(key, (values = new Set()));
  values.add(value);
}

/**
 * The vulnerabilities of each software entry (by its key): those naming the product as any source reported it
 * ("curl" names every vendor's curl), and those whose vendorless product folds into the entry.
 */
function vulnerabilityLinks(entries: Map<string, SoftwareEntry>, affected: AffectedSoftware[], vulnerableKeys: Map<string, Set<string>>, folded: Map<string, string>): Map<string, Set<string>> {
  const byName = new Map<string, Set<string>>();
  for (const { vulnerability, names } of affected) for (const name of names) addTo(byName, name.toLowerCase(), vulnerability);
  const links = new Map<string, Set<string>>();
  for (const [key, vulnerabilities] of vulnerableKeys) for (const vulnerability of vulnerabilities) if (entries.has(folded.get(key) ?? key)) addTo(links, folded.get(key) ?? key, vulnerability);
  for (const [key, entry] of entries) for (const name of entry.names.keys()) for (const vulnerability of byName.get(name.toLowerCase()) ?? []) addTo(links, key, vulnerability);
  return links;
}

const installationColumns = ['discovery_id', 'device_asset', 'software_asset', 'software_name', 'vendor', 'version', 'install_date', 'install_path', 'adapter', 'connection_id'];

// A fleet's installations are millions of rows (40 a device): they are appended with COPY, far cheaper than inserts.
const writeInstallations = (db: Queryable, rows: unknown[][]) => db.copyRows('snapshot_installations', installationColumns, rows);

/**
 * Builds the software inventory of a snapshot from its software records: each installation linked to its merged
 * device and written as it is read, the records folded into software entries (vendor aliases, editions,
 * architectures set aside), a vendorless entry joining the one vendor's entry of the same product, and one software
 * asset written per entry with its install count, and linked to the vulnerabilities naming it (`affected`): their
 * links are written, and their number is the software's VulnerabilityCount. Answers how many software assets it wrote.
 */
export async function buildSoftwareInventory(db: Queryable, discoveryId: number, devices: DeviceLinks, warnings: ObservationWarnings, affected: AffectedSoftware[]): Promise<number> {
  const entries = new Map<string, SoftwareEntry>();
  const writer = writeBehind();
  let batch: unknown[][] = [];
  for await (const record of observations(db, discoveryId, softwareEntities)) {
    const name = firstText(record.fields.SoftwareName);
    const reportedVendor = firstText(record.fields.SoftwareVendor);
    const identity = softwareIdentity(name, reportedVendor);
    if (!identity) {
      warnings.add(record.connectionId, 'software records without a software name were skipped', record.key);
      continue;
    }
    const version = firstText(record.fields.SoftwareVersion) ?? '';
    if (version && !parseVersion(version)) warnings.add(record.connectionId, 'software versions do not parse and are kept as reported', version);
    let entry = entries.get(identity.key);
    if (!entry) entries.set(identity.key, (entry = newEntry()));
    if (entry.names.size < keptNames || entry.names.has(identity.name)) entry.names.set(identity.name, (entry.names.get(identity.name) ?? 0) + 1);
    entry.vendor ??= identity.vendor;
    addBounded(entry.reportedVendors, reportedVendor);
    if (version) addBounded(entry.versions, version, keptVersions * 2);
    addBounded(entry.cpes, firstText(record.fields.SoftwareCpe));
    addBounded(entry.categories, firstText(record.fields.SoftwareCategory));
    entry.adapters.add(record.adapter);
    entry.connections.add(record.connectionId);
    const device = devices.link(record.connectionId, record.fields);
    if (!device) {
      warnings.add(record.connectionId, 'software records matched no device of the snapshot', record.key);
      continue;
    }
    batch.push([
      discoveryId, device.asset, inventoryAssetId('software', identity.key), identity.name, identity.vendor ?? reportedVendor ?? '', version,
      firstText(record.fields.InstallDate), firstText(record.fields.InstallPath), record.adapter, record.connectionId,
    ]);
    if (batch.length >= rowsPerWrite) {
      const rows = batch;
      batch = [];
      await writer.push(() => writeInstallations(db, rows));
    }
  }
  if (batch.length) await writer.push(() => writeInstallations(db, batch));
  await writer.drain();

  // The vulnerabilities naming a product without its vendor, by the product's folding key.
  const vulnerableKeys = new Map<string, Set<string>>();
  for (const { vulnerability, names } of affected) {
    for (const name of names) {
      const key = softwareIdentity(name, null)?.key;
      if (key) addTo(vulnerableKeys, key, vulnerability);
    }
  }

  // Vendorless entries join the one vendor's entry of their product; their installations follow.
  const folded = foldVendorless([...entries.keys(), ...vulnerableKeys.keys()]);
  for (const [key, target] of folded) {
    const entry = entries.get(key);
    if (target === key || !entry) continue;
    let into = entries.get(target);
    if (!into) entries.set(target, (into = newEntry()));
    mergeEntries(into, entry);
    entries.delete(key);
    await db.query('update snapshot_installations set software_asset = $3 where discovery_id = $1 and software_asset = $2', [discoveryId, inventoryAssetId('software', key), inventoryAssetId('software', target)]);
  }
  const links = vulnerabilityLinks(entries, affected, vulnerableKeys, folded);
  const installCounts = new Map(
    (await db.query<{ software_asset: string; devices: number }>(
      'select software_asset, count(distinct device_asset)::int as devices from snapshot_installations where discovery_id = $1 group by software_asset',
      [discoveryId],
    )).map((row) => [row.software_asset, row.devices]),
  );
  const assets = [...entries].map(([key, entry]) => softwareAsset(key, entry, installCounts.get(inventoryAssetId('software', key)) ?? 0, links.get(key)?.size ?? 0));
  await writeAssets(db, discoveryId, 'software', assets);
  const linkRows = [...links].flatMap(([key, vulnerabilities]) => [...vulnerabilities].map((vulnerability) => [discoveryId, inventoryAssetId('software', key), vulnerability]));
  for (let start = 0; start < linkRows.length; start += rowsPerWrite) {
    await db.copyRows('snapshot_software_vulnerabilities', ['discovery_id', 'software_asset', 'vulnerability_asset'], linkRows.slice(start, start + rowsPerWrite));
  }
  return assets.length;
}
