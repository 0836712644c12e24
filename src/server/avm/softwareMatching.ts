import { evaluateConfigurations, mapToCpe, parseCpe, productKeyOf, versionCovered, type CpeMapping, type CpeMatch, type CpeName, type CriterionHit, type CveConfiguration } from '../../core/software/cpe.js';
import { softwareIdentity } from '../../core/software/names.js';
import { compareVersions } from '../../core/software/versions.js';
import type { Queryable } from '../db/database.js';
import type { DeviceLinks } from '../discovery/software/deviceLinks.js';

import { committedImports } from './feedImport.js';
import { readConfigurations } from './feedFacts.js';

// Cartograph's own vulnerability source (the pseudo-adapter `cartograph-avm`): the snapshot's installed software
// mapped to NVD's CPE products and matched against the imported CVEs' configurations. It reads the installations
// twice instead of holding them: first the distinct (name, vendor, CPE, version) the database groups them into,
// whose (product, version) pairs are matched against the criteria once each, then each device's installations whose
// pair matched something; a CVE a device meets through one pair only is decided once for every device with that pair.

export const avmAdapter = 'cartograph-avm';

/** The stream entities of installed software (as the software stage reads them). */
const softwareStreams = ['software', 'application'];

export type MatchOptions = {
  /** Administrator mappings: software key or name (lower case) → `vendor:product`. */
  overrides: ReadonlyMap<string, string>;
  /** Platform (running-on) nodes of operating systems no installation meets count as met. */
  assumeUnmatchedPlatforms: boolean;
  /**
   * Installations the package advisories decide (avmMatching.ts): CPE matching leaves them alone. `everywhere` from
   * the record alone (the pairs' reading), `onDevice` once its device, and so its OS, is known.
   */
  decidedByPackage?: { everywhere: (record: PackageFacts) => boolean; onDevice: (record: PackageFacts, device: string) => boolean };
};

/** What an installation record says of its package, as precedence reads it. */
export type PackageFacts = { purl: string | null; packageType: string | null; name: string | null; version: string };

/** One vulnerability found on a device from its installed software, with why. */
export type AvmMatch = { device: string; cve: string; recordKey: string; connectionId: number; software: string; version: string; reason: string };

/** A device's installations whose (product, version) pair matched, position by position. */
type DeviceInstallations = { pairs: number[]; recordKeys: string[]; connectionIds: number[]; names: string[]; mappings: CpeMapping[] };
type IndexedCriterion = { ref: string; cve: string; match: CpeMatch; name: CpeName };
type PairHit = { ref: string; cve: string; criteria: string; vulnerable: boolean; versionReason: string };
/** A CVE found from the criteria some matched pairs meet: the pair of its first vulnerable criterion, and its reason's texts. */
type Outcome = { cve: string; pair: number; criteria: string; platforms: string };

/**
 * NVD's names: the vendors of each CPE product (from the imported CVE configurations and the CPE dictionary), and
 * the product each dictionary title names when it names one only.
 */
async function readDictionary(db: Queryable): Promise<{ byProduct: Map<string, string[]>; byTitle: Map<string, string | null> }> {
  const rows = await db.query<{ vendor: string; product: string }>(
    `select vendor, product from avm_nvd_products where import_id in ${committedImports('nvd-cve')}
     union select vendor, product from avm_cpe_products where import_id in ${committedImports('nvd-cpe')}`,
  );
  const byProduct = new Map<string, string[]>();
  for (const { vendor, product } of rows) byProduct.set(product, [...(byProduct.get(product) ?? []), vendor]);
  const byTitle = new Map<string, string | null>();
  const titled = await db.query<{ vendor: string; product: string; title: string }>(`select vendor, product, title from avm_cpe_products where title is not null and import_id in ${committedImports('nvd-cpe')}`);
  for (const { vendor, product, title } of titled) {
    const key = productKeyOf(vendor, product);
    // A title two products share says nothing: it maps neither.
    byTitle.set(title, byTitle.has(title) && byTitle.get(title) !== key ? null : key);
  }
  return { byProduct, byTitle };
}

/** One installation record as the matcher reads it: its name, vendor, version and CPE, and the fields that link it to a device. */
type SoftwareRow = {
  key: string; connectionId: number; name: string | null; vendor: string | null; version: string; cpe: string | null; purl: string | null; packageType: string | null; links: Record<string, unknown> | null;
};

const recordsPerRead = 10_000;
const linkFields = ['DeviceId', 'AgentId', 'SerialNumber', 'MacAddresses', 'Hostname', 'Domain', 'IpAddresses'];

// The records' fields are stored as `json` text, which every `->` parses again from the start: each record is cast
// to `jsonb` once and the values are taken from that (four times cheaper on PostgreSQL than eleven `->` on the text).
const matchedValues = `j->'SoftwareName'->>0 as name, j->'SoftwareVendor'->>0 as vendor, j->'SoftwareVersion'->>0 as version, j->'SoftwareCpe'->>0 as cpe,
  j->'SoftwarePurl'->>0 as purl, j->'SoftwarePackageType'->>0 as package_type`;

/**
 * The snapshot's software records, a batch at a time in key order, with only the fields matching reads taken out by
 * the database, and the fields that link each to its device. Cheaper per record than the generic `observations`
 * reader: matching reads millions of them.
 */
async function* softwareRows(db: Queryable, discoveryId: number): AsyncGenerator<SoftwareRow> {
  let after = '';
  const links = `jsonb_build_object(${linkFields.map((field) => `'${field}', j->'${field}'`).join(', ')})`;
  for (;;) {
    const rows = await db.query<{ record_key: string; connection_id: number; name: string | null; vendor: string | null; version: string | null; cpe: string | null; purl: string | null; package_type: string | null; links: Record<string, unknown> | null }>(
      `select record_key, connection_id, ${matchedValues}, ${links} as links
         from (select record_key, connection_id, fields::jsonb as j from snapshot_records
                where discovery_id = $1 and record_key > $2 and entity = any($3::text[]) order by record_key limit ${recordsPerRead}) as batch
        order by record_key`,
      [discoveryId, after, softwareStreams],
    );
    for (const row of rows) yield { key: row.record_key, connectionId: row.connection_id, name: row.name, vendor: row.vendor, version: row.version?.trim() ?? '', cpe: row.cpe, purl: row.purl, packageType: row.package_type, links: row.links };
    if (rows.length < recordsPerRead) return;
    after = rows[rows.length - 1].record_key;
  }
}

/**
 * What the snapshot's software records say, grouped by the database: each distinct name, vendor, CPE and version
 * once (a fleet's millions of installations are some thousands of them), in the order of their first record, so
 * that products and versions are met in the same order as reading every record would meet them.
 */
async function distinctSoftware(db: Queryable, discoveryId: number): Promise<Omit<SoftwareRow, 'key' | 'connectionId' | 'links'>[]> {
  const rows = await db.query<{ name: string | null; vendor: string | null; version: string | null; cpe: string | null; purl: string | null; package_type: string | null }>(
    `select name, vendor, version, cpe, purl, package_type from (
       -- offset 0 keeps the subquery whole: inlined, the planner would cast each record once per value taken.
       select ${matchedValues}, record_key from (select record_key, fields::jsonb as j from snapshot_records where discovery_id = $1 and entity = any($2::text[]) offset 0) as stored
     ) as installed
     group by name, vendor, version, cpe, purl, package_type order by min(record_key)`,
    [discoveryId, softwareStreams],
  );
  return rows.map((row) => ({ name: row.name, vendor: row.vendor, version: row.version?.trim() ?? '', cpe: row.cpe, purl: row.purl, packageType: row.package_type }));
}

/** The CVEs whose configurations name each of the given products as vulnerable. */
async function readCandidateCves(db: Queryable, productKeys: string[]): Promise<Set<string>> {
  const cves = new Set<string>();
  for (let start = 0; start < productKeys.length; start += 500) {
    const pairs = productKeys.slice(start, start + 500).map((key) => key.split(':'));
    const rows = await db.query<{ cve_id: string }>(
      `select distinct p.cve_id from avm_nvd_products p join unnest($1::text[], $2::text[]) as wanted(vendor, product) on p.vendor = wanted.vendor and p.product = wanted.product
        where p.import_id in ${committedImports('nvd-cve')}`,
      [pairs.map(([vendor]) => vendor), pairs.map(([, product]) => product)],
    );
    for (const row of rows) cves.add(row.cve_id);
  }
  return cves;
}

/** The matching of a snapshot once its installed (product, version) pairs are matched: which CVEs it can find, and the finding. */
export type SoftwareMatching = { cves: ReadonlySet<string>; matches: () => AsyncGenerator<AvmMatch> };

/** What the devices' reading needs of the pairs' matching. */
type MatchedPairs = {
  mappingOf: (row: Pick<SoftwareRow, 'name' | 'vendor' | 'cpe'>) => CpeMapping | null;
  pairNumbers: Map<string, number>; pairHits: PairHit[][]; pairVersions: string[]; configurations: Map<string, CveConfiguration[]>;
};

const nothingMatched: SoftwareMatching = { cves: new Set(), matches: async function* () {} };

/**
 * Matches the snapshot's installed software against the imported CVEs, pair by pair; `matches()` then yields one
 * match per device, CVE and matched installation: the reason names the installation, its version, the CPE criterion
 * and its bounds, and how the installation was mapped to the CPE product.
 */
export async function prepareSoftwareMatching(db: Queryable, discoveryId: number, devices: DeviceLinks, options: MatchOptions): Promise<SoftwareMatching> {
  const dictionary = await readDictionary(db);
  if (!dictionary.byProduct.size) return nothingMatched;
  const lookup = { vendorsOf: (product: string) => dictionary.byProduct.get(product), productTitled: (title: string) => dictionary.byTitle.get(title) ?? undefined };
  const mappings = new Map<string, CpeMapping | null>();
  // Keyed by what the record says (name, vendor, CPE): the normalization runs once per distinct software, not per record.
  const mappingOf = (row: Pick<SoftwareRow, 'name' | 'vendor' | 'cpe'>) => {
    const cacheKey = `${row.name ?? ''}\u0000${row.vendor ?? ''}\u0000${row.cpe ?? ''}`;
    let mapping = mappings.get(cacheKey);
    if (mapping === undefined) {
      const identity = softwareIdentity(row.name?.trim(), row.vendor?.trim());
      mapping = identity && mapToCpe({ ...identity, reportedCpe: row.cpe?.trim() || null }, lookup, options.overrides);
      mappings.set(cacheKey, mapping);
    }
    return mapping;
  };

  // First reading: the distinct (product, version) pairs installed.
  const versionsByProduct = new Map<string, Set<string>>();
  for (const record of await distinctSoftware(db, discoveryId)) {
    if (options.decidedByPackage?.everywhere(record)) continue;
    const mapping = mappingOf(record);
    if (!mapping) continue;
    const key = productKeyOf(mapping.vendor, mapping.product);
    const versions = versionsByProduct.get(key) ?? versionsByProduct.set(key, new Set()).get(key)!;
    versions.add(record.version);
  }
  if (!versionsByProduct.size) return nothingMatched;

  // The criteria that name those products, indexed by product; each pair matched against them once.
  const configurations = await readConfigurations(db, [...(await readCandidateCves(db, [...versionsByProduct.keys()]))]);
  const criteriaByProduct = new Map<string, IndexedCriterion[]>();
  for (const [cve, list] of configurations) {
    list.forEach((configuration, c) => (configuration.nodes ?? []).forEach((node, n) => (node.cpeMatch ?? []).forEach((match, m) => {
      const name = parseCpe(match.criteria);
      const key = name && productKeyOf(name.vendor, name.product);
      if (name && key && versionsByProduct.has(key)) (criteriaByProduct.get(key) ?? criteriaByProduct.set(key, []).get(key)!).push({ ref: `${cve}|${c}|${n}|${m}`, cve, match, name });
    })));
  }
  const hitsByPairKey = new Map<string, PairHit[]>();
  // Installed versions meet the same few bounds over and over (each pair against every criterion of its product):
  // each comparison is worked out once.
  const compared = new Map<string, number>();
  const compare = (left: string, right: string) => {
    const key = `${left}\u0000${right}`;
    let order = compared.get(key);
    if (order === undefined) {
      if (compared.size > 200_000) compared.clear();
      compared.set(key, (order = compareVersions(left, right)));
    }
    return order;
  };
  for (const [key, versions] of versionsByProduct) {
    const [vendor, product] = key.split(':');
    for (const version of versions) {
      const hits: PairHit[] = [];
      for (const { ref, cve, match, name } of criteriaByProduct.get(key) ?? []) {
        // criterionHit's test, with the criterion parsed once rather than once per installed version.
        if (name.vendor !== vendor || name.product !== product) continue;
        const versionReason = versionCovered(match, name, version, compare);
        if (versionReason) hits.push({ ref, cve, criteria: match.criteria, vulnerable: match.vulnerable !== false, versionReason });
      }
      if (hits.length) hitsByPairKey.set(`${key}\u0000${version}`, hits);
    }
  }
  versionsByProduct.clear();
  criteriaByProduct.clear();
  if (!hitsByPairKey.size) return nothingMatched;
  // Each matched pair numbered in the order of its key: a device's pairs sorted by number are sorted by key, the order
  // its hits are taken in.
  const pairKeys = [...hitsByPairKey.keys()].sort();
  const pairNumbers = new Map(pairKeys.map((pair, number) => [pair, number]));
  const pairHits = pairKeys.map((pair) => hitsByPairKey.get(pair)!);
  const pairVersions = pairKeys.map((pair) => pair.slice(pair.indexOf('\u0000') + 1));
  hitsByPairKey.clear();
  const cves = new Set(pairHits.flatMap((hits) => hits.filter((hit) => hit.vulnerable).map((hit) => hit.cve)));
  return { cves, matches: () => matchDevices(db, discoveryId, devices, options, { mappingOf, pairNumbers, pairHits, pairVersions, configurations }) };
}

/** The devices' matches: their installations read again, each device's CVEs decided from its matched pairs. */
async function* matchDevices(db: Queryable, discoveryId: number, devices: DeviceLinks, options: MatchOptions, matched: MatchedPairs): AsyncGenerator<AvmMatch> {
  const { mappingOf, pairNumbers, pairHits, pairVersions, configurations } = matched;
  // Second reading: each device's installations whose pair matched a criterion, held compactly (a dense fleet's are
  // millions): the pair's number, the record, and the name the installation shows, each name held once.
  const byDevice = new Map<string, DeviceInstallations>();
  const names = new Map<string, string>();
  for await (const record of softwareRows(db, discoveryId)) {
    const mapping = mappingOf(record);
    if (!mapping) continue;
    const pair = pairNumbers.get(`${productKeyOf(mapping.vendor, mapping.product)}\u0000${record.version}`);
    if (pair === undefined) continue;
    const device = devices.link(record.connectionId, record.links ?? {});
    if (!device || options.decidedByPackage?.onDevice(record, device.asset)) continue;
    let installed = byDevice.get(device.asset);
    if (!installed) byDevice.set(device.asset, (installed = { pairs: [], recordKeys: [], connectionIds: [], names: [], mappings: [] }));
    const name = record.name?.trim() || mapping.product;
    installed.pairs.push(pair);
    installed.recordKeys.push(record.key);
    installed.connectionIds.push(record.connectionId);
    installed.names.push(names.get(name) ?? (names.set(name, name), name));
    installed.mappings.push(mapping);
  }

  // A CVE's configurations decide from the criteria the device meets. When all of those come from one matched pair
  // (nearly always: one installed version of the product), the outcome is that pair's for every device that has it:
  // worked out once per pair and CVE, with the text of its reason. A CVE that several of a device's pairs meet (two
  // versions of one product, an application and the platform it runs on) is evaluated for that device.
  const vulnerableCvesOfPair = pairHits.map((hits) => [...new Set(hits.filter((hit) => hit.vulnerable).map((hit) => hit.cve))]);
  const cvesOfPair = pairHits.map((hits) => [...new Set(hits.map((hit) => hit.cve))]);
  const outcomesOfPair = pairHits.map(() => new Map<string, Outcome | null>());
  const evaluate = (cve: string, pairs: number[]): Outcome | null => {
    const hitsByRef = new Map<string, { pair: number; hit: PairHit }>();
    for (const pair of pairs) for (const hit of pairHits[pair]) if (hit.cve === cve && !hitsByRef.has(hit.ref)) hitsByRef.set(hit.ref, { pair, hit });
    const pairOfHit = new Map<CriterionHit, number>();
    const result = evaluateConfigurations(configurations.get(cve) ?? [], (c, n, m) => {
      const found = hitsByRef.get(`${cve}|${c}|${n}|${m}`);
      if (!found) return null;
      const hit: CriterionHit = { criteria: found.hit.criteria, vulnerable: found.hit.vulnerable, versionReason: found.hit.versionReason, installed: { vendor: '', product: '', version: '', name: '', mapping: '' } };
      pairOfHit.set(hit, found.pair);
      return hit;
    }, options.assumeUnmatchedPlatforms);
    if (!result) return null;
    const criteria = [...new Set(result.vulnerable.map((hit) => `${hit.criteria} (${hit.versionReason})`))].slice(0, 5);
    return { cve, pair: pairOfHit.get(result.vulnerable[0])!, criteria: criteria.join('; '), platforms: result.platforms.length ? `; running on ${result.platforms.join(', ')}` : '' };
  };
  const outcomeOfPair = (pair: number, cve: string) => {
    const outcomes = outcomesOfPair[pair];
    let outcome = outcomes.get(cve);
    if (outcome === undefined) outcomes.set(cve, (outcome = evaluate(cve, [pair])));
    return outcome;
  };
  for (const [device, installed] of byDevice) {
    byDevice.delete(device);
    // The device's first installation of each pair, the pairs in order.
    const firstOfPair = new Map<number, number>();
    installed.pairs.forEach((pair, position) => firstOfPair.has(pair) || firstOfPair.set(pair, position));
    const pairs = [...firstOfPair.keys()].sort((left, right) => left - right);
    // The CVEs in the order the pairs' vulnerable criteria name them first (with that pair), and how many of the
    // pairs each concerns.
    const firstPairOfCve = new Map<string, number>();
    const pairsMeeting = new Map<string, number>();
    for (const pair of pairs) {
      for (const cve of vulnerableCvesOfPair[pair]) if (!firstPairOfCve.has(cve)) firstPairOfCve.set(cve, pair);
      for (const cve of cvesOfPair[pair]) pairsMeeting.set(cve, (pairsMeeting.get(cve) ?? 0) + 1);
    }
    for (const [cve, pair] of firstPairOfCve) {
      const outcome = pairsMeeting.get(cve) === 1 ? outcomeOfPair(pair, cve) : evaluate(cve, pairs);
      if (!outcome) continue;
      const first = firstOfPair.get(outcome.pair)!;
      const [name, mapping] = [installed.names[first], installed.mappings[first]];
      const version = pairVersions[outcome.pair];
      const reason = `${name} ${version || '(no version)'} matches ${outcome.criteria}; mapped to ${mapping.vendor}:${mapping.product} because ${mapping.mapping}${outcome.platforms}.`;
      yield { device, cve, recordKey: installed.recordKeys[first], connectionId: installed.connectionIds[first], software: name, version, reason };
    }
  }
}
