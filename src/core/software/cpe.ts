// CPE 2.3 names and NVD's applicability statements ("configurations"), evaluated against what a device has
// installed. NVD writes which products a CVE affects as nodes of CPE match criteria: a criterion names a vendor and
// product, a version (or `*` for any, `-` for "no version applies") and optional bounds
// (versionStart/EndIncluding/Excluding); a node joins criteria with OR or AND; a configuration joins nodes, where
// AND usually means "this vulnerable application running on this platform" (criteria with `vulnerable: false`).
// Pure functions: the server's matcher and the labelled tests share them.

import { compareVersions, parseVersion } from './versions.js';

export type CpeMatch = {
  criteria: string;
  vulnerable: boolean;
  versionStartIncluding?: string;
  versionStartExcluding?: string;
  versionEndIncluding?: string;
  versionEndExcluding?: string;
};
export type CpeNode = { operator?: string; negate?: boolean; cpeMatch?: CpeMatch[] };
export type CveConfiguration = { operator?: string; negate?: boolean; nodes?: CpeNode[] };

/** The fields of a CPE 2.3 formatted string that matching reads. */
export type CpeName = { part: string; vendor: string; product: string; version: string; update: string };

/** Splits at the colons that are not escaped (`\:` is a colon inside a value). */
function splitCpe(text: string): string[] {
  const fields: string[] = [];
  let current = '';
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (character === '\\' && index + 1 < text.length) {
      current += text[index + 1];
      index += 1;
    } else if (character === ':') {
      fields.push(current);
      current = '';
    } else current += character;
  }
  fields.push(current);
  return fields;
}

/** `cpe:2.3:a:apache:log4j:2.14.1:*:*:*:*:*:*:*` → its part, vendor, product, version and update; null if not CPE 2.3. */
export function parseCpe(text: unknown): CpeName | null {
  if (typeof text !== 'string' || !text.toLowerCase().startsWith('cpe:2.3:')) return null;
  const fields = splitCpe(text);
  if (fields.length < 6) return null;
  const [, , part, vendor, product, version, update = '*'] = fields;
  if (!part || !vendor || !product) return null;
  return { part: part.toLowerCase(), vendor: vendor.toLowerCase(), product: product.toLowerCase(), version: version || '*', update: update || '*' };
}

/** `vendor:product`, the key criteria and installations meet on. */
export const productKeyOf = (vendor: string, product: string) => `${vendor}:${product}`;

/**
 * The version an installation is compared with NVD's bounds by: NVD writes upstream versions, so a package
 * manager's epoch and revision are set aside (`1:9.2p1-2+deb12u2` → `9.2p1`, `3.0.7-27.el9` → `3.0.7`), and so is
 * the build macOS writes after its version. Null when the text is no version.
 */
export function upstreamVersion(installed: string): string | null {
  const parsed = parseVersion(installed);
  if (!parsed) return null;
  let text = parsed.text;
  if (parsed.style === 'macos') return text.replace(/\s*\(.*\)$/, '');
  if (parsed.style === 'debian' || parsed.style === 'rpm') {
    text = text.replace(/^\d+:/, '');
    const dash = text.lastIndexOf('-');
    if (dash > 0) text = text.slice(0, dash);
    // Repackaged sources keep the upstream version: 2.4.1+dfsg is 2.4.1.
    text = text.replace(/[+~](dfsg|ds|repack)\d*$/i, '');
  }
  return text;
}

const anyValue = (value: string) => value === '*' || value === '' || value === '-';

/**
 * Whether one criterion covers an installed version, and why, or null. `installedVersion` may be empty (the source
 * reported none): only criteria for every version cover it. `compare` is `compareVersions` or a memory of its answers.
 */
export function versionCovered(match: CpeMatch, criteria: CpeName, installedVersion: string, compare: (left: string, right: string) => number = compareVersions): string | null {
  const bounds: [keyof CpeMatch, string, (order: number) => boolean][] = [
    ['versionStartIncluding', '≥', (order) => order >= 0],
    ['versionStartExcluding', '>', (order) => order > 0],
    ['versionEndIncluding', '≤', (order) => order <= 0],
    ['versionEndExcluding', '<', (order) => order < 0],
  ];
  const present = bounds.filter(([key]) => typeof match[key] === 'string' && match[key]);
  const upstream = installedVersion ? upstreamVersion(installedVersion) : null;
  if (criteria.version === '-') return 'the criterion applies to every version (version "-")';
  if (criteria.version === '*' && !present.length) return 'the criterion covers every version';
  if (!upstream) return null;
  if (criteria.version !== '*') {
    // A fixed version, with its update (`2.0:beta9`, `1.1.1:k`) when NVD splits one off.
    const wanted = anyValue(criteria.update) ? [criteria.version] : [`${criteria.version}${criteria.update}`, `${criteria.version}-${criteria.update}`, `${criteria.version}.${criteria.update}`];
    const equal = wanted.find((version) => version.toLowerCase() === upstream.toLowerCase() || (anyValue(criteria.update) && compare(upstream, version) === 0));
    return equal ? `version ${installedVersion} is ${equal}` : null;
  }
  const described: string[] = [];
  for (const [key, symbol, holds] of present) {
    const bound = match[key] as string;
    if (!holds(compare(upstream, bound))) return null;
    described.push(`${symbol} ${bound}`);
  }
  return `version ${installedVersion}${upstream !== installedVersion ? ` (upstream ${upstream})` : ''} is ${described.join(' and ')}`;
}

/** What a device has that a criterion may match: one installation mapped to a CPE product, and why it maps. */
export type InstalledProduct = { vendor: string; product: string; version: string; name: string; mapping: string };

/** One criterion a device meets, with the installation that meets it. */
export type CriterionHit = { criteria: string; vulnerable: boolean; installed: InstalledProduct; versionReason: string };

/** Whether an installation meets a criterion: same vendor and product, version covered. */
export function criterionHit(match: CpeMatch, installed: InstalledProduct): CriterionHit | null {
  const criteria = parseCpe(match.criteria);
  if (!criteria || criteria.vendor !== installed.vendor || criteria.product !== installed.product) return null;
  const versionReason = versionCovered(match, criteria, installed.version);
  return versionReason ? { criteria: match.criteria, vulnerable: match.vulnerable !== false, installed, versionReason } : null;
}

export type ConfigurationResult = { vulnerable: CriterionHit[]; platforms: string[] };

/**
 * Evaluates a CVE's configurations against a device: `hitOf` answers the hit of one criterion (its position in the
 * configurations) or null. A node of platform criteria only (operating systems the vulnerable product runs on) that
 * no installation meets counts as met when `assumeUnmatchedPlatforms` is set, and is named in the result: the
 * software inventory rarely lists the operating system itself. Answers the vulnerable hits of the first
 * configuration that holds, or null.
 */
export function evaluateConfigurations(
  configurations: CveConfiguration[],
  hitOf: (configuration: number, node: number, match: number) => CriterionHit | null,
  assumeUnmatchedPlatforms: boolean,
): ConfigurationResult | null {
  for (const [configurationIndex, configuration] of configurations.entries()) {
    const nodes = configuration.nodes ?? [];
    const results = nodes.map((node, nodeIndex) => {
      const matches = node.cpeMatch ?? [];
      const hits = matches.map((_, matchIndex) => hitOf(configurationIndex, nodeIndex, matchIndex));
      let met = node.operator === 'AND' ? matches.length > 0 && hits.every(Boolean) : hits.some(Boolean);
      if (node.negate) met = !met;
      const platformOnly = matches.length > 0 && matches.every((match) => match.vulnerable === false);
      const assumed = !met && platformOnly && assumeUnmatchedPlatforms && matches.every((match) => parseCpe(match.criteria)?.part === 'o');
      return { met: met || assumed, assumed, hits: hits.filter((hit): hit is CriterionHit => Boolean(hit)), platform: platformOnly ? matches[0]?.criteria : undefined };
    });
    let holds = configuration.operator === 'AND' ? results.length > 0 && results.every((result) => result.met) : results.some((result) => result.met);
    if (configuration.negate) holds = !holds;
    if (!holds) continue;
    const vulnerable = results.filter((result) => result.met && !result.assumed).flatMap((result) => result.hits.filter((hit) => hit.vulnerable));
    if (!vulnerable.length) continue;
    const platforms = results.filter((result) => result.platform && result.met).map((result) => (result.assumed ? `${result.platform} (assumed: the device's operating system is not matched)` : result.hits[0]?.criteria ?? result.platform!));
    return { vulnerable, platforms };
  }
  return null;
}

/** The vulnerable products a set of configurations names (vendor, product), for the product → CVE index. */
export function vulnerableProducts(configurations: CveConfiguration[]): { vendor: string; product: string }[] {
  const seen = new Map<string, { vendor: string; product: string }>();
  for (const configuration of configurations) {
    for (const node of configuration.nodes ?? []) {
      for (const match of node.cpeMatch ?? []) {
        const name = match.vulnerable !== false ? parseCpe(match.criteria) : null;
        if (name) seen.set(productKeyOf(name.vendor, name.product), { vendor: name.vendor, product: name.product });
      }
    }
  }
  return [...seen.values()];
}

/** Built-in mappings of products whose installed names differ from NVD's (package and artifact names). */
const builtInAliases: Record<string, string> = {
  'log4j-core': 'apache:log4j', 'log4j-api': 'apache:log4j', log4j: 'apache:log4j', liblog4j2: 'apache:log4j', 'apache-log4j2': 'apache:log4j',
  'chrome stable': 'google:chrome', 'google-chrome-stable': 'google:chrome', chromium: 'google:chrome',
  openssh: 'openbsd:openssh', 'openssh-client': 'openbsd:openssh', 'openssh-server': 'openbsd:openssh',
  libssl3: 'openssl:openssl', libssl1: 'openssl:openssl', 'openssl-libs': 'openssl:openssl',
  'xz-utils': 'tukaani:xz', xz: 'tukaani:xz', 'xz-libs': 'tukaani:xz', liblzma5: 'tukaani:xz',
  edge: 'microsoft:edge_chromium', 'microsoft edge': 'microsoft:edge_chromium',
};

/** Words of a product name NVD leaves out of its product names (editions). */
const editionWords = new Set(['pro', 'professional', 'enterprise', 'education', 'home', 'business', 'standard', 'stable']);

/**
 * What the matcher needs of NVD's names: which vendors name a product (CVE configurations and the CPE dictionary),
 * and which one product the CPE dictionary titles with a name, lower case and without version ("mozilla firefox").
 */
export type CpeDictionary = { vendorsOf(product: string): readonly string[] | undefined; productTitled?(title: string): string | undefined };

export type CpeMapping = { vendor: string; product: string; mapping: string };

const token = (text: string) => text.trim().toLowerCase().replace(/\s+/g, '_');

/**
 * The CPE product an installation is, and why: an administrator's mapping (by software key or name), a CPE the
 * source reported, a built-in alias, the title of one product in NVD's CPE dictionary, the vendor and product as
 * NVD names them, or the product name alone when one NVD vendor has it. Null when none applies. Before: `google|chrome`; after: `{vendor: google, product: chrome}`.
 */
export function mapToCpe(
  software: { key: string; vendorKey: string; productKey: string; name: string; reportedCpe?: string | null },
  dictionary: CpeDictionary,
  overrides: ReadonlyMap<string, string>,
): CpeMapping | null {
  const override = overrides.get(software.key) ?? overrides.get(software.name.toLowerCase());
  if (override) {
    const [vendor, product] = override.split(':');
    return { vendor, product, mapping: `the administrator maps ${software.name} to ${override}` };
  }
  const reported = parseCpe(software.reportedCpe);
  if (reported) return { vendor: reported.vendor, product: reported.product, mapping: `the source reported ${software.reportedCpe}` };
  const words = software.productKey.split(' ').filter((word) => !editionWords.has(word));
  const productTokens = [...new Set([token(software.productKey), token(words.join(' ')), token(words.join(' ').replace(/ /g, '-'))])].filter(Boolean);
  const alias = builtInAliases[software.productKey] ?? builtInAliases[words.join(' ')];
  if (alias) {
    const [vendor, product] = alias.split(':');
    return { vendor, product, mapping: `built-in alias: ${software.productKey} is ${alias}` };
  }
  const titles = [software.name.toLowerCase().replace(/\s+/g, ' ').trim(), `${software.vendorKey} ${software.productKey}`.trim(), `${software.vendorKey} ${words.join(' ')}`.trim()];
  for (const title of new Set(titles)) {
    const titled = dictionary.productTitled?.(title);
    if (titled) {
      const [vendor, product] = titled.split(':');
      return { vendor, product, mapping: `NVD's CPE dictionary titles ${titled} "${title}"` };
    }
  }
  const vendorTokens = software.vendorKey ? [token(software.vendorKey), token(software.vendorKey.split(' ')[0])] : [];
  for (const product of productTokens) {
    const vendors = dictionary.vendorsOf(product) ?? [];
    const vendor = vendorTokens.find((candidate) => vendors.includes(candidate));
    if (vendor) return { vendor, product, mapping: `vendor and product as NVD names them (${vendor}:${product})` };
  }
  for (const product of productTokens) {
    const vendors = dictionary.vendorsOf(product) ?? [];
    if (vendors.length === 1) return { vendor: vendors[0], product, mapping: `product name ${product}, which one NVD vendor (${vendors[0]}) has` };
  }
  return null;
}
